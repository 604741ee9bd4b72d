"""The services catalog (`/bot/servicios`): what the business offers and at what price, for the bot
and its AI agents to answer from, and for the console to keep."""
