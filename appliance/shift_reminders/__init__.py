"""Shift reminders: before a shift starts and ends, and when a start is missed."""
