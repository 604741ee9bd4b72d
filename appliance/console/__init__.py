"""The owner's console: first run, sign-up, and the pages that make every capability reachable
from a browser (account, organization, team, API keys, WhatsApp). Server-rendered like the inbox;
forms work without JavaScript; every page asks the same services the API does, as the signed-in
person, so a page shows nothing the API would refuse them."""
