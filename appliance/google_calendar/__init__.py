"""Google Calendar over HTTP: OAuth 2.0 (authorization code, refresh) and the Calendar API calls
the agenda needs. No appliance import: the agenda domain calls it with sealed tokens unsealed."""
