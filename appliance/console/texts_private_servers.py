"""What the installation's page of allowed private servers says."""

from appliance.core.i18n import Words, _l

PRIVATE_SERVER_TEXTS = Words("console_private_servers", {
    "servers_title": _l("Private servers"),
    "servers_intro": _l("Organizations' AI providers, webhooks, knowledge pages and push services may reach only "
                        "public addresses. A server on this machine or on your office network (an Ollama, an "
                        "intranet, a CRM) works once it is listed here, for every organization of the installation: "
                        "only its administrator lists them."),
    "servers_from_environment": _l("Set by APPLIANCE_ALLOWED_PRIVATE_URLS when the server started. Change it there."),
    "servers_none": _l("None: only public servers are reached."), "servers_field": _l("Allowed private servers"),
    "servers_hint": _l("One a line, as scheme://host or scheme://host:port: http://127.0.0.1:11434 for an Ollama on "
                       "this machine, http://192.168.1.50 for every port of that host (name the port when you can)."),
    "servers_save": _l("Save"),
    "done": {"private_servers_saved": _l("The private servers are saved; they count from the next call.")},
    "errors": {
        "invalid_origin": _l("Write one server a line as scheme://host or scheme://host:port."),
        "set_by_environment": _l("APPLIANCE_ALLOWED_PRIVATE_URLS decides the private servers: change it there."),
    },
})
