r"""The appliance as a Windows service: `appliance.exe service run`, which the installer
(packaging/windows/appliance.nsi) registers with Windows' service manager.

pywin32's service framework (a pinned wheel, installed on Windows only) speaks to the service
manager; everything else is `ServiceHost`, written without pywin32 so that the tests run it on Linux:
- the server runs in the process's main thread exactly as `appliance serve` runs it (server.serve:
  its signal handlers, its drain); the service manager's dispatcher gets a thread of its own;
- Windows' stop (Services, `sc stop`, the uninstaller, a shutdown) becomes the SIGTERM the server
  already handles, delivered to the main thread by `_thread.interrupt_main`, and Windows is told
  "still stopping" until the server has drained;
- settings come from %ProgramData%\Appliance\appliance.env, the data directory is
  %ProgramData%\Appliance\data and the log %ProgramData%\Appliance\logs\appliance.log.

docs/operating.md ("Windows") says why pywin32 rather than a wrapper program, and what was run where.
"""

from __future__ import annotations

import _thread
import faulthandler
import logging
import os
import re
import signal
import sys
import textwrap
import threading
from pathlib import Path
from typing import Callable

from appliance.core.db import StartupError
from appliance.settings import SETTINGS, load_settings

log = logging.getLogger("appliance.service")

# packaging/windows/appliance.nsi names the same (tests/packaging/test_windows_installer.py checks).
SERVICE_NAME = "Appliance"
DISPLAY_NAME = "Appliance (business messaging)"
SETTINGS_FILE_NAME = "appliance.env"
LOG_FILE_NAME = "appliance.log"
LOG_ROTATE_BYTES = 10 * 1024 * 1024  # at a start, a longer log becomes appliance.log.1
# While the server drains, Windows hears "still stopping" this often, each time promising the next
# within STOP_WAIT_HINT_MS (a stop may last minutes: a document being read finishes first).
STOP_REPORT_SECONDS = 2.0
STOP_WAIT_HINT_MS = 10_000
STOPPED = "stopped"
RESTART = ("stopping to start again (a restore is swapped in at the start); "
           "Windows' recovery starts the service again")

# What the installed settings file sets, unlike `make run`: the machine's every address (the installer
# opens the port to the local network in Windows' firewall) and the port, written out because the
# installer reads it back for that rule and the Start-menu shortcut.
INSTALLED_VALUES = {
    "APPLIANCE_HOST": "0.0.0.0",
    "APPLIANCE_PORT": next(setting.default for setting in SETTINGS if setting.name == "APPLIANCE_PORT"),
}
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class SettingsFileError(ValueError):
    """The settings file cannot be read; the message says where and what to do."""


def program_data_root() -> Path:
    r"""%ProgramData%\Appliance: the installer's settings file, and everything the service writes."""
    return Path(os.environ.get("PROGRAMDATA", r"C:\ProgramData")) / SERVICE_NAME


def read_settings_file(path: Path) -> dict[str, str]:
    """The NAME=value lines of the service's settings file, added to its environment as systemd's
    EnvironmentFile= adds /etc/appliance/env's. A value is taken as written, without quotes or escapes
    (a Windows path keeps its backslashes); blank lines and # comments are skipped. A line that assigns
    nothing, or an APPLIANCE_ name that is no setting (a typo would be ignored without a word), is
    refused with its line number."""
    known = {setting.name for setting in SETTINGS}
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise SettingsFileError(f"the settings file {path} is missing; run the installer again (it writes "
                                "one and keeps the data)") from None
    except UnicodeDecodeError:
        raise SettingsFileError(f"the settings file {path} is not UTF-8 text; save it as UTF-8 (Notepad: "
                                "Save as, Encoding)") from None
    values = {}
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, equals, value = line.partition("=")
        name = name.strip()
        if not equals or not _NAME.fullmatch(name):
            raise SettingsFileError(f"{path}, line {number}: not NAME=value: {line}")
        if name.startswith("APPLIANCE_") and name not in known:
            raise SettingsFileError(f"{path}, line {number}: {name} is no setting of this version "
                                    "(`appliance.exe settings` lists them)")
        values[name] = value.strip()
    return values


def settings_file_text() -> str:
    """The settings file the installer installs (where none is yet): the installer's values, then
    every other setting commented out with its default and its meaning, so the file shows them all."""
    def comment(text: str) -> list[str]:
        return textwrap.wrap(text, width=98, initial_indent="# ", subsequent_indent="# ", break_on_hyphens=False)

    root = f"%ProgramData%\\{SERVICE_NAME}"
    lines = [f"# {root}\\{SETTINGS_FILE_NAME}: the settings of the {SERVICE_NAME} service, one NAME=value a line,",
             "# the value as written (no quotes; a path keeps its backslashes). Lines starting with # are",
             f"# comments. After a change, restart the service: Services, or `Restart-Service {SERVICE_NAME}`.",
             "# A changed APPLIANCE_PORT: run the installer again, which opens the new port in the firewall",
             "# and points the Start menu's shortcut at it (the data and this file are kept).",
             "#",
             "# The first person to sign up (the /setup page of a new installation) administers the",
             "# installation: open the Start menu's Appliance right after installing.",
             ""]
    for setting in SETTINGS:
        if setting.name in INSTALLED_VALUES:
            lines += comment(f"{setting.help} (Default outside the service: {setting.default or 'empty'}.)")
            lines += [f"{setting.name}={INSTALLED_VALUES[setting.name]}", ""]
    lines += ["# The other settings, at their defaults.", ""]
    for setting in SETTINGS:
        if setting.name == "APPLIANCE_DATA_DIR":
            lines += comment(f"{setting.help} The service's: {root}\\data.")
            lines += [f"#{setting.name}=", ""]
        elif setting.name not in INSTALLED_VALUES:
            lines += comment(setting.help)
            lines += [f"#{setting.name}={setting.default}", ""]
    return "\n".join(lines)


def write_settings_file(path: Path) -> None:
    """`appliance service settings-file PATH`: what the installer's build puts in the installer. With
    a byte-order mark and CRLF, so that the Notepad of older Windows shows it right too."""
    path.write_text(settings_file_text(), encoding="utf-8-sig", newline="\r\n")


class ServiceHost:
    """The server as the service runs it, apart from pywin32: `serve` in the main thread, `stop`
    from any other."""

    def __init__(self, root: Path):
        self.root = root
        self.ended = threading.Event()
        self.outcome: str | None = None  # STOPPED, RESTART, or the sentence that ended the server

    @property
    def settings_file(self) -> Path:
        return self.root / SETTINGS_FILE_NAME

    @property
    def log_file(self) -> Path:
        return self.root / "logs" / LOG_FILE_NAME

    def environment(self) -> dict[str, str]:
        """What the service adds to its environment: the settings file over the service's own data
        directory."""
        return {"APPLIANCE_DATA_DIR": str(self.root / "data"), **read_settings_file(self.settings_file)}

    def serve(self) -> int:
        """Run the server in this thread, which must be the main one (the server's signal handlers
        are installed there), until `stop`; 0 when it stopped as asked, 1 otherwise."""
        try:
            self._write_output_to_log()
            os.chdir(self.root)  # relative paths in the settings file are read from here
            os.environ.update(self.environment())
            from appliance.server import serve

            self.outcome = RESTART if serve(load_settings()) else STOPPED
        except (SettingsFileError, StartupError, SystemExit) as exc:  # a sentence (SystemExit: load_settings')
            self.outcome = f"appliance cannot start: {exc}"
        except Exception as exc:
            log.exception("the server failed")
            self.outcome = f"the server failed ({exc.__class__.__name__}); {self.log_file} says where"
        finally:
            if self.outcome not in (STOPPED, None):
                print(self.outcome, file=sys.stderr, flush=True)
            self.ended.set()
        return 0 if self.outcome == STOPPED else 1

    def stop(self, still_stopping: Callable[[], None]) -> None:
        """Stop the server as SIGTERM does, from any thread: its handler runs in the main thread.
        Asked again every STOP_REPORT_SECONDS until it has ended, since a stop during the start
        comes before the server's handler exists (Python then ignores the simulated signal);
        `still_stopping` tells Windows each time."""
        while not self.ended.is_set():
            _thread.interrupt_main(signal.SIGTERM)
            still_stopping()
            self.ended.wait(STOP_REPORT_SECONDS)

    def _write_output_to_log(self) -> None:
        """A service has no console: the log (bootstrap's logging writes to stderr), the printed
        address, a thread's traceback and a crash's trace (faulthandler) go to the log file, line by
        line, so that a crash loses nothing written. Rotated at the start only: the appliance logs
        little (its starts, stops and warnings)."""
        self.log_file.parent.mkdir(parents=True, exist_ok=True)
        if self.log_file.exists() and self.log_file.stat().st_size > LOG_ROTATE_BYTES:
            os.replace(self.log_file, self.log_file.with_name(LOG_FILE_NAME + ".1"))
        output = open(self.log_file, "a", encoding="utf-8", buffering=1)  # open as long as the process lives
        sys.stdout = sys.stderr = output
        faulthandler.enable(output)


class ServiceEnded(Exception):
    """Raised to pywin32's framework when the server ended other than by Windows' stop: it then
    reports an error stop, to which Windows' recovery (the installer's `sc failure`) answers by
    starting the service again."""


def run() -> int:
    """`appliance service run`: the service, as Windows' service manager starts it."""
    try:
        import pywintypes
        import servicemanager
        import win32service
        import win32serviceutil
        import winerror
    except ImportError:
        print("appliance: `service run` is for Windows' service manager, which the Windows installer sets up "
              "to start it; elsewhere run `appliance serve`", file=sys.stderr)
        return 2
    host = ServiceHost(program_data_root())
    began = threading.Event()  # the service manager called SvcDoRun, or the dispatcher gave up
    refused: list[pywintypes.error] = []

    class ApplianceService(win32serviceutil.ServiceFramework):
        _svc_name_ = SERVICE_NAME
        _svc_display_name_ = DISPLAY_NAME

        def SvcDoRun(self):
            began.set()
            host.ended.wait()
            if host.outcome != STOPPED:
                raise ServiceEnded(host.outcome)

        def SvcStop(self):
            self._still_stopping()
            threading.Thread(target=host.stop, args=(self._still_stopping,), name="service-stop", daemon=True).start()

        SvcShutdown = SvcStop

        def _still_stopping(self):
            try:
                self.ReportServiceStatus(win32service.SERVICE_STOP_PENDING, waitHint=STOP_WAIT_HINT_MS)
            except pywintypes.error:  # the service manager already heard it stopped
                pass

    def dispatch():
        try:
            servicemanager.StartServiceCtrlDispatcher()  # returns once the service has stopped
        except pywintypes.error as exc:
            refused.append(exc)
        finally:
            began.set()

    servicemanager.Initialize()
    servicemanager.PrepareToHostSingle(ApplianceService)
    dispatcher = threading.Thread(target=dispatch, name="service-dispatcher")
    dispatcher.start()
    began.wait()
    if refused:
        if refused[0].winerror == winerror.ERROR_FAILED_SERVICE_CONTROLLER_CONNECT:
            print(f"appliance: `service run` is started by Windows' service manager: `sc start {SERVICE_NAME}` "
                  "(or Services); to run the server in this window, `appliance serve`", file=sys.stderr)
        else:
            print(f"appliance: the service manager refused the service: {refused[0].strerror}", file=sys.stderr)
        return 2
    code = host.serve()
    dispatcher.join()  # until pywin32 has told the service manager it stopped
    return code
