"""CSAT surveys: asked after a conversation closes, answered with buttons, counted in results."""
