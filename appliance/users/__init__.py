"""People who sign in: their account record and profile (/users)."""
