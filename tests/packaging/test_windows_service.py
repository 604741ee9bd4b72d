"""The Windows service's logic (appliance/windows_service.py), run on Linux: its settings file, and
`ServiceHost` serving and stopping a real server the way pywin32 drives it on Windows (the server in
the main thread, Windows' stop from another). pywin32 itself, Windows' service manager and the
installer run only on Windows: .github/workflows/windows.yml."""

import json
import subprocess
import sys
import urllib.request

import pytest

from appliance import windows_service
from appliance.cli import main
from appliance.settings import SETTINGS
from appliance.windows_service import SettingsFileError, read_settings_file
from tests.fixtures.tls import free_port
from tests.waiting import eventually

# What pywin32 does on Windows, without it: the server in the main thread (`host.serve`), Windows'
# stop from another thread (`host.stop`, telling Windows "still stopping" through the callback) when
# the test says so on stdin, at once ("at-start": before the server's signal handler exists), or never.
SERVICE = r"""
import json, sys, threading
from pathlib import Path
from appliance.windows_service import ServiceHost

host, reports = ServiceHost(Path(sys.argv[1])), []

def windows_stops_the_service():
    if sys.argv[2] == "when-told":
        sys.stdin.readline()
    host.stop(lambda: reports.append("still stopping"))

if sys.argv[2] != "never":
    threading.Thread(target=windows_stops_the_service, daemon=True).start()
code = host.serve()
print(json.dumps({"code": code, "outcome": host.outcome, "reports": len(reports)}), file=sys.__stdout__)
"""


def _program_data(tmp_path, settings: str):
    root = tmp_path / "ProgramData" / "Appliance"
    root.mkdir(parents=True)
    (root / "appliance.env").write_text(settings, encoding="utf-8-sig", newline="\r\n")
    return root


def _service(root, when: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", SERVICE, str(root), when], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def _ended(service: subprocess.Popen) -> dict:
    output, _ = service.communicate(timeout=90)
    assert service.returncode == 0, output
    return json.loads(output.strip().splitlines()[-1])


def _ready(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health/ready", timeout=2) as answer:
            return answer.status == 200
    except OSError:
        return False


def test_the_installed_settings_file_sets_the_installers_values_and_shows_every_other_setting(tmp_path):
    path = tmp_path / "appliance.env"
    assert main(["service", "settings-file", str(path)]) == 0
    raw = path.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf") and b"\r\n" in raw and b"\n" not in raw.replace(b"\r\n", b"")  # old Notepad
    assert read_settings_file(path) == windows_service.INSTALLED_VALUES == {"APPLIANCE_HOST": "0.0.0.0",
                                                                             "APPLIANCE_PORT": "8080"}
    text = path.read_text(encoding="utf-8-sig")
    for setting in SETTINGS:
        assert f"\n{setting.name}=" in text or f"\n#{setting.name}=" in text, setting.name


def test_values_are_taken_as_written_and_other_names_join_the_environment(tmp_path):
    path = tmp_path / "appliance.env"
    path.write_text("# a comment\n\n  APPLIANCE_TLS_CERT = C:\\Certificados de la tienda\\cert.pem \n"
                    "HTTPS_PROXY=http://proxy.oficina:3128\nAPPLIANCE_SMTP_URL=\n", encoding="utf-8")
    assert read_settings_file(path) == {"APPLIANCE_TLS_CERT": r"C:\Certificados de la tienda\cert.pem",
                                        "HTTPS_PROXY": "http://proxy.oficina:3128", "APPLIANCE_SMTP_URL": ""}


@pytest.mark.parametrize("content, sentence", [
    ("APPLIANCE_HOST=0.0.0.0\nAPPLIANCE_PROT=8081\n", "line 2: APPLIANCE_PROT is no setting of this version"),
    ("APPLIANCE_PORT 8081\n", "line 1: not NAME=value: APPLIANCE_PORT 8081"),
    ("set APPLIANCE_PORT=8081\n", "line 1: not NAME=value"),
])
def test_a_typo_or_a_stray_line_is_refused_with_its_line(tmp_path, content, sentence):
    path = tmp_path / "appliance.env"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(SettingsFileError, match=sentence):
        read_settings_file(path)


def test_a_missing_or_unreadable_settings_file_says_what_to_do(tmp_path):
    with pytest.raises(SettingsFileError, match="is missing; run the installer again"):
        read_settings_file(tmp_path / "appliance.env")
    (tmp_path / "appliance.env").write_bytes("APPLIANCE_BASE_URL=http://tienda-peña\n".encode("cp1252"))
    with pytest.raises(SettingsFileError, match="is not UTF-8 text"):
        read_settings_file(tmp_path / "appliance.env")


@pytest.mark.processes
def test_the_service_serves_from_program_data_and_drains_when_windows_stops_it(tmp_path):
    port = free_port()
    root = _program_data(tmp_path, f"APPLIANCE_HOST=127.0.0.1\nAPPLIANCE_PORT={port}\n")
    service = _service(root, "when-told")
    try:
        eventually(lambda: _ready(port) or service.poll() is not None, seconds=60, every=0.2)
        assert service.poll() is None, service.communicate()[0]
        service.stdin.write("stop\n")
        service.stdin.flush()
        ended = _ended(service)
    finally:
        if service.poll() is None:
            service.kill()
    assert ended["code"] == 0 and ended["outcome"] == windows_service.STOPPED and ended["reports"] >= 1
    log = (root / "logs" / "appliance.log").read_text(encoding="utf-8")
    assert f"serving on 127.0.0.1:{port} (data in {root / 'data'})" in log
    assert f"The appliance is running: open http://127.0.0.1:{port}" in log  # printed, into the log too
    assert "received SIGTERM, stopping" in log and "appliance.server: stopped" in log  # the server's own drain
    assert (root / "data" / "appliance.db").is_file() and (root / "data" / "secret.key").is_file()


@pytest.mark.processes
def test_a_stop_during_the_start_is_asked_again_until_the_server_hears_it(tmp_path):
    """Windows may stop the service while it migrates, before the server's SIGTERM handler exists:
    the simulated signal is then ignored, so the host asks again until the server stops."""
    root = _program_data(tmp_path, f"APPLIANCE_HOST=127.0.0.1\nAPPLIANCE_PORT={free_port()}\n")
    ended = _ended(_service(root, "at-start"))
    assert ended["code"] == 0 and ended["outcome"] == windows_service.STOPPED
    assert ended["reports"] >= 2  # asked more than once
    log = (root / "logs" / "appliance.log").read_text(encoding="utf-8")
    assert "received SIGTERM, stopping" in log and "appliance.server: stopped" in log


def test_a_start_the_server_refuses_ends_the_service_with_its_sentence(tmp_path):
    """The sentence pywin32 then reports as the error stop that Windows' recovery answers."""
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        root = _program_data(tmp_path, f"APPLIANCE_HOST=127.0.0.1\nAPPLIANCE_PORT={port}\n")
        ended = _ended(_service(root, "never"))
    assert ended["code"] == 1
    assert ended["outcome"] == (f"appliance cannot start: port {port} on 127.0.0.1 is already in use (another "
                                "appliance or program?); choose another with --port or APPLIANCE_PORT")
    assert ended["outcome"] in (root / "logs" / "appliance.log").read_text(encoding="utf-8")


def test_service_run_outside_windows_points_to_serve(capsys):
    assert main(["service", "run"]) == 2
    assert "elsewhere run `appliance serve`" in capsys.readouterr().err
