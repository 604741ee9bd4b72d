"""Signing in: sessions and tokens, email links, two-factor, impersonation (/auth)."""
