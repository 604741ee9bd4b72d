"""The bot of each phone number: its configuration, and (next) the engine that answers customers
when people can't."""
