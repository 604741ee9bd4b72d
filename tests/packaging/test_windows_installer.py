"""The Windows installer script (packaging/windows/appliance.nsi), built here with Debian's makensis
against a stand-in for the PyInstaller bundle (which only a Windows machine builds), and opened again
with 7-Zip, which reads NSIS installers: the bundle, the settings file and the uninstaller are in it.
Installing it needs Windows: .github/workflows/windows.yml does that on a Windows runner."""

import re
import shutil
import subprocess
from pathlib import Path

from appliance import windows_service
from appliance.cli import main
from appliance.settings import SETTINGS

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "packaging" / "windows" / "appliance.nsi"
# The plugins the installer carries, all shipped by every NSIS (Debian's `nsis` package included):
# nsExec runs sc, icacls, netsh and PowerShell without a console window; System answers x64.nsh's
# "is this a 64-bit Windows"; nsDialogs draws Modern UI's pages. A new one is a decision.
PLUGINS = {"nsExec.dll", "System.dll", "nsDialogs.dll"}
I386 = 0x014C  # NSIS's x86 stub: it runs on every Windows, and installs the 64-bit bundle


def _pe_machine(data: bytes) -> int | None:
    """The machine a Portable Executable is for, or None when the bytes are no PE file (an "MZ"
    header whose e_lfanew points at the "PE\\0\\0" signature, then the COFF header's machine)."""
    if data[:2] != b"MZ" or len(data) < 0x40:
        return None
    offset = int.from_bytes(data[0x3C:0x40], "little")
    if data[offset:offset + 4] != b"PE\0\0":
        return None
    return int.from_bytes(data[offset + 4:offset + 6], "little")


def _stand_in_bundle(folder: Path) -> dict[str, bytes]:
    """A few files where PyInstaller's one-folder bundle has them: the program at the top, its
    libraries and data under _internal (servicemanager.pyd is the Event Log's message table)."""
    files = {"appliance.exe": b"MZ stand-in for the PyInstaller program",
             "_internal/python311.dll": b"stand-in",
             "_internal/servicemanager.pyd": b"stand-in",
             "_internal/web/templates/base.html": b"<!doctype html>",
             "_internal/appliance/migrations/env.py": b"# stand-in"}
    for name, content in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(content)
    return files


def test_debians_makensis_builds_an_installer_holding_the_bundle_the_settings_and_an_uninstaller(tmp_path):
    makensis, seven_zip = shutil.which("makensis"), shutil.which("7zz")
    assert makensis and seven_zip, "needs Debian's makensis and 7zz: apt-get install nsis 7zip (.ci/run installs them)"
    bundle, settings_file, installer = tmp_path / "appliance", tmp_path / "appliance.env", tmp_path / "appliance-0.1.0-setup.exe"
    files = _stand_in_bundle(bundle)
    assert main(["service", "settings-file", str(settings_file)]) == 0

    built = subprocess.run([makensis, "-V2", "-WX", "-INPUTCHARSET", "UTF8", f"-DBUNDLE={bundle}", f"-DSETTINGS_FILE={settings_file}",
                            "-DVERSION=0.1.0", f"-DOUTFILE={installer}", str(SCRIPT)],
                           capture_output=True, text=True, timeout=120)
    assert built.returncode == 0, built.stdout + built.stderr  # -WX: a warning fails it too
    assert _pe_machine(installer.read_bytes()) == I386

    unpacked = tmp_path / "unpacked"
    opened = subprocess.run([seven_zip, "x", "-y", f"-o{unpacked}", str(installer)], capture_output=True, text=True, timeout=120)
    assert opened.returncode == 0, opened.stdout + opened.stderr
    for name, content in files.items():  # into $INSTDIR as they are in the bundle
        assert (unpacked / name).read_bytes() == content, name
    # The settings file goes to $DataRoot (7-Zip names the variable $_<n>_), as written.
    [installed_settings] = [path for path in unpacked.glob("*/appliance.env")]
    assert installed_settings.read_bytes() == settings_file.read_bytes()
    assert _pe_machine((unpacked / "uninstall.exe").read_bytes()) == I386
    assert {path.name for path in (unpacked / "$PLUGINSDIR").glob("*.dll")} == PLUGINS


def _defines() -> dict[str, str]:
    return dict(re.findall(r'^!define (\w+) "([^"]*)"', SCRIPT.read_text(), flags=re.MULTILINE))


def test_the_installer_and_the_service_name_the_same_service_files_and_port():
    defines = _defines()
    assert defines["SERVICE_NAME"] == windows_service.SERVICE_NAME  # sc.exe's, and the Event Log source's
    assert defines["DISPLAY_NAME"] == windows_service.DISPLAY_NAME
    assert defines["SETTINGS_FILE_NAME"] == windows_service.SETTINGS_FILE_NAME
    assert defines["LOG_FILE_NAME"] == windows_service.LOG_FILE_NAME
    [port] = [setting.default for setting in SETTINGS if setting.name == "APPLIANCE_PORT"]
    assert defines["DEFAULT_PORT"] == port == windows_service.INSTALLED_VALUES["APPLIANCE_PORT"]
