"""What the Go live page (the installation's public address, and what Meta last did) and the
warnings beside links nobody outside can open say."""

from appliance.core.i18n import Words, _l, _lp, _ln

GO_LIVE_TEXTS = Words("console_go_live", {
    "go_live_title": _l("Go live"),
    "go_live_intro": _l("Customers, Meta and your team's phones reach the appliance at its public address: every "
                        "link it writes (QR codes, chat links, invitations, calendar feeds, the WhatsApp callback "
                        "URL) starts with it."),
    "address_title": _l("Public address"), "address_now": _l("Links start with"), "address_field": _l("Public address"),
    "address_hint": _l("The https address people and Meta reach this appliance at, such as https://chat.yourshop.com "
                       "(no path). On an office network only: http://192.168.1.20:8080."),
    "address_save": _l("Save the address"),
    "address_sources": {
        "setting": _l("Set by APPLIANCE_BASE_URL when the server started: change it there."),
        "console": _l("Kept here."), "default": _l("Nobody set it: it is where this server is served."),
    },
    "address_fine": _l("Nothing keeps customers, Meta or browsers from using it."),
    "ways_title": _l("Three ways to a public https address"),
    "ways": [
        (
            _l("A proxy already in place"),
            _l("Your hosting, router or a reverse proxy (Caddy, nginx) already serves https for a domain and passes "
               "it to this server: write that https address above."),
        ),
        (
            _l("Your own domain, https served here"),
            _l("Point a domain at this machine's public IP, open ports 80 and 443, and start the appliance with "
               "APPLIANCE_TLS=acme: it gets and renews a certificate itself."),
        ),
        (
            _l("A tunnel, no ports opened"),
            _l("With a Cloudflare account, create a tunnel for a domain you hold there and start the appliance with "
               "APPLIANCE_TUNNEL=cloudflare and the tunnel's token."),
        ),
    ],
    "https_title": _l("HTTPS and tunnel"),
    "tls_off": _l("This server speaks plain HTTP (APPLIANCE_TLS=off): a proxy or the tunnel in front gives the https "
                  "address."),
    "tls_modes": {"acme": _l("Certificates from Let's Encrypt (ACME)"), "files": _l("Certificate files")},
    "tls_port": _l("HTTPS port"), "tls_serving": _l("Serving a certificate for {domains}, valid until {date}."),
    "tls_waiting": _l("No certificate yet: it is being asked for (the HTTP port must be reachable at that name)."),
    "tls_old_serves": _l("The previous certificate keeps serving."), "tunnel_title": _l("Tunnel"),
    "tunnel_off": _l("No tunnel (APPLIANCE_TUNNEL=off)."),
    "tunnel_states": {
        "starting": _l("Starting"), "running": _l("Connected"), "restarting": _l("Reconnecting"),
        "missing": _l("Cannot run"), "stopped": _l("Stopped"), "off": _l("Off"),
    },
    "tunnel_restarts": _ln("restarted {n} time", "restarted {n} times"), "status_title": _l("Status"),
    "status_intro": _l("The installation at a glance; this page reads itself again every 15 seconds."),
    "status_program": _l("The program"), "status_version": _l("Version"),
    "status_started": _lp("console_go_live.status_started", "Started"), "status_uptime": _l("Running for"),
    "status_queue": _l("Background work"),
    "status_queue_counts": _l("{waiting} waiting, {failed} failed since the start"), "status_storage": _l("Storage"),
    "status_database": _l("Database"), "status_disk": _l("Disk"), "status_disk_free": _l("{free} free of {total}"),
    "status_disk_low": _l("The disk is over {percent} full: free space before backups and the database run out of it."),
    "status_backups": _l("Last backup"), "status_backup_failed": _l("last failed"),
    "status_backups_by_postgresql": _l("The database's backups are PostgreSQL's: pg_dump or your provider's "
                                       "snapshots (docs/postgresql.md)."),
    "status_reach": _l("How it is reached"), "meta_title": _l("What Meta last did"),
    "meta_intro": _l("Across the organizations of this installation."), "meta_verified": _l("Verified a callback"),
    "meta_delivery": _l("Last delivery accepted"), "meta_rejected": _l("Last delivery refused (bad signature)"),
    "meta_never": _l("Never"),
    "meta_refused": _l("Verifications refused since the server started (wrong verify token)"),
    "done": {"public_address_saved": _l("The public address is saved: links written from now on start with it.")},
    "errors": {
        "invalid_base_url": _l("Write an address like https://chat.yourshop.com: a scheme, a host and perhaps a "
                               "port, nothing after it."),
        "set_by_environment": _l("APPLIANCE_BASE_URL decides the public address: change it there."),
    },
})
