"""Canned answers the team writes once and sends with a shortcut (`/horario`) from the composer."""
