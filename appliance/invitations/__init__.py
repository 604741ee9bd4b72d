"""Invitations: how people join an organization (/organizations/{orgId}/invitations, /invitations)."""
