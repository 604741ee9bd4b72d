"""What belongs to the whole installation rather than to an organization, and its administrator
(the person of the first run) manages: the private servers the appliance may reach for
organizations, and who that administrator is (the mail server is mail/servers.py's)."""
