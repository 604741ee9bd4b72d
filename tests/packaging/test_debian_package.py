"""The Debian package's settings file, /etc/appliance/env (packaging/debian/env_file.py): every setting
of the program once, the package's own values set, the others commented out at their defaults, and
each line read back as the value it shows (systemd's EnvironmentFile= quotes as a POSIX shell does).
The package itself is built, installed, run as its unit would run it, upgraded and purged by
packaging/deb-check.sh (`make package-check`, as root: CI's last step)."""

import re
import runpy
import subprocess
from pathlib import Path

from appliance.settings import SETTINGS, load_settings

ROOT = Path(__file__).resolve().parents[2]
GENERATOR = runpy.run_path(str(ROOT / "packaging" / "debian" / "env_file.py"))
PACKAGE_VALUES = GENERATOR["PACKAGE_VALUES"]
ASSIGNMENT = re.compile(r"^(#?)(APPLIANCE_[A-Z0-9_]+)=", re.M)


def _read_by_a_shell(text: str, tmp_path: Path) -> dict[str, str]:
    path = tmp_path / "env"
    path.write_text(text)
    printed = subprocess.run(["sh", "-c", 'set -a; . "$1"; env -0', "sh", str(path)], env={},
                             capture_output=True, check=True).stdout.decode()
    return dict(entry.split("=", 1) for entry in printed.split("\0") if entry.startswith("APPLIANCE_"))


def test_every_setting_once_the_packages_own_set_and_the_others_commented_out():
    assignments = ASSIGNMENT.findall(GENERATOR["env_file"]())
    assert sorted(name for _, name in assignments) == sorted(setting.name for setting in SETTINGS)
    assert {name for commented, name in assignments if not commented} == set(PACKAGE_VALUES)
    assert PACKAGE_VALUES["APPLIANCE_DATA_DIR"] == "/var/lib/appliance"  # the unit's StateDirectory=appliance


def test_a_shell_reads_each_line_as_the_value_it_shows_and_the_program_accepts_them(tmp_path):
    text = GENERATOR["env_file"]()
    assert _read_by_a_shell(text, tmp_path) == PACKAGE_VALUES
    uncommented = ASSIGNMENT.sub(r"\2=", text)  # as an administrator who takes every default in
    values = _read_by_a_shell(uncommented, tmp_path)
    assert values == {setting.name: PACKAGE_VALUES.get(setting.name, setting.default) for setting in SETTINGS}
    assert values["APPLIANCE_MAIL_FROM"] == "Appliance <no-reply@appliance.local>"  # quoted in the file
    settings = load_settings(values)
    assert (str(settings.data_dir), settings.host, settings.port) == ("/var/lib/appliance", "0.0.0.0", 80)
