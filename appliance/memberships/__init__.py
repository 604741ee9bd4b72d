"""Who belongs to an organization, with which role (/organizations/{orgId}/memberships)."""
