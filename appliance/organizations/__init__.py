"""Organizations, the tenants everything belongs to (/organizations)."""
