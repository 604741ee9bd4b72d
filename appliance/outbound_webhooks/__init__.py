"""Outbound webhooks: events signed and delivered to other systems, every attempt logged."""
