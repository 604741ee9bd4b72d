"""API keys for server-to-server access (/organizations/{orgId}/api-keys)."""
