"""Billing: the installation operator charges the organizations it hosts (docs/billing.md)."""
