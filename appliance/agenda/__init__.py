"""The agenda: appointments, free slots, the public ICS feed, and the Google Calendar connection."""
