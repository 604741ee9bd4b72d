"""Roles of an organization (/organizations/{orgId}/roles): four system roles and custom ones."""
