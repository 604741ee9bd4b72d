"""Print /etc/appliance/env, the Debian package's settings file, from appliance.settings.SETTINGS:
the package's own values set, every other setting commented out with its default and its meaning,
so the file never misses a setting the program has. systemd reads it (EnvironmentFile=, with the
quoting rules of a POSIX shell), and so can a shell (`set -a; . /etc/appliance/env`).

Usage: python packaging/debian/env_file.py > env
"""

import re
import sys
import textwrap
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from appliance.settings import SETTINGS  # noqa: E402 -- after the checkout is on the path

# What the package sets, unlike `make run`: its data directory (the unit's StateDirectory=), the
# machine's every address and the standard ports (the unit grants CAP_NET_BIND_SERVICE).
PACKAGE_VALUES = {
    "APPLIANCE_DATA_DIR": "/var/lib/appliance",
    "APPLIANCE_HOST": "0.0.0.0",
    "APPLIANCE_PORT": "80",
    "APPLIANCE_HTTPS_PORT": "443",
}

# What the unit's sandbox changes for a setting (appliance.service, docs/operating.md).
_READ_BY_THE_SERVICE = ("The service sees no /home or /root and reads files as the group appliance: keep it in "
                        "/etc/appliance (sudo install -m 0640 -g appliance FILE /etc/appliance/).")
PACKAGE_NOTES = {
    "APPLIANCE_BACKUP_DIR": ("The service writes only in /var/lib/appliance: a folder elsewhere must be the user "
                             "appliance's and needs ReadWritePaths=FOLDER in a drop-in (sudo systemctl edit appliance)."),
    "APPLIANCE_TLS_CERT": _READ_BY_THE_SERVICE,
    "APPLIANCE_TLS_KEY": _READ_BY_THE_SERVICE,
    "APPLIANCE_FCM_CREDENTIALS": _READ_BY_THE_SERVICE,
    "APPLIANCE_APNS_KEY": _READ_BY_THE_SERVICE,
}

HEADER = """\
# /etc/appliance/env: the settings of appliance.service, one NAME=value a line.
# After a change: sudo systemctl restart appliance
# A value with spaces or any of <>&;|$`"'\\ goes in double quotes, with \\ before any " \\ $ ` in it
# (systemd and a shell read the file alike). Every setting is here: the package's own values first,
# then each other one commented out with its default; README.md's settings table says the same.
#
# The first person to sign up (the /setup page of a new installation) administers the installation:
# open http://THIS-MACHINE/ right after installing, or keep APPLIANCE_HOST=127.0.0.1 until you have.
"""

_PLAIN = re.compile(r"[A-Za-z0-9_./:@,+=%-]*")


def _assignment(name: str, value: str) -> str:
    if _PLAIN.fullmatch(value):
        return f"{name}={value}"
    escaped = re.sub(r'(["\\$`])', r"\\\1", value)
    return f'{name}="{escaped}"'


def _comment(text: str) -> list[str]:
    return textwrap.wrap(text, width=98, initial_indent="# ", subsequent_indent="# ", break_on_hyphens=False)


def env_file() -> str:
    by_name = {setting.name: setting for setting in SETTINGS}
    unknown = (set(PACKAGE_VALUES) | set(PACKAGE_NOTES)) - set(by_name)
    if unknown:
        raise SystemExit(f"the package names settings the program no longer has: {', '.join(sorted(unknown))}")
    lines = [HEADER]
    for name, value in PACKAGE_VALUES.items():
        setting = by_name[name]
        lines += _comment(f"{setting.help} (Default outside the package: {setting.default or 'empty'}.)")
        lines += [_assignment(name, value), ""]
    lines += ["# The other settings, at their defaults.", ""]
    for setting in SETTINGS:
        if setting.name not in PACKAGE_VALUES:
            lines += _comment(f"{setting.help} {PACKAGE_NOTES.get(setting.name, '')}".strip())
            lines += ["#" + _assignment(setting.name, setting.default), ""]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.stdout.write(env_file())
