"""Outgoing email: every mail is a row first (the mail outbox), then delivered by a task."""
