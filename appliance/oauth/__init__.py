"""OAuth 2.0 for third-party applications: clients registered by staff, the authorization-code grant
with mandatory S256 PKCE, rotating refresh tokens, revocation, introspection, userinfo."""
