"""Health endpoints for load balancers and service managers (/health)."""
