"""AI agents: the providers' credentials of an organization, its agents, and which agent a
conversation is pinned to. The engine's AI step lives with the bot (appliance/bots)."""
