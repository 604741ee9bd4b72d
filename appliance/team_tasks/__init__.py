"""The team's to-do list (`/tasks`): what people (or the bot, or a system over the API) leave for
someone to do, optionally about a conversation or a contact. Named team_tasks so as not to be
mistaken for the queue's tasks (each folder's tasks.py)."""
