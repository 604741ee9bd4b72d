"""The WhatsApp Cloud API (Meta's Graph API) as a protocol: the HTTP client (`client.py`) and
what the network's error codes mean (`errors.py`, from `network_errors.json` beside it).

The bottom of the house: no appliance imports, so every domain may use it and it can be tested
and reused on its own. The process's configured client, and what a refusal means to the person
who asked, are in `wabas/network.py`.
"""
