"""What ships and what gets installed: the runtime without test tools, a bundle without runtime files."""

from pathlib import Path

from appliance.paths import SHIPPED_DATA_PATTERNS, shipped_data_files

ROOT = Path(__file__).resolve().parents[1]
TEST_TOOLS = {"pytest", "pytest-timeout", "pytest-xdist", "playwright", "aiosmtpd", "greenlet", "pyee", "execnet"}


def _pins(name: str) -> dict[str, str]:
    pins = {}
    for line in (ROOT / name).read_text().splitlines():
        if line and not line.startswith(("#", "-r")):
            package, version = line.split("==")
            pins[package.lower()] = version
    return pins


def test_make_run_installs_no_test_tool_and_make_test_adds_them():
    runtime, tests = _pins("requirements.lock"), _pins("requirements-test.lock")
    assert not TEST_TOOLS & set(runtime)
    assert TEST_TOOLS <= set(tests)
    assert not set(runtime) & set(tests)
    assert "-r requirements.lock" in (ROOT / "requirements-test.lock").read_text()


def test_a_bundle_ships_the_tracked_data_files_and_no_runtime_file(tmp_path):
    for name in ("permissions.json", "plans.json", "README.md", "holidays.csv"):
        (tmp_path / name).write_text("{}")
    for name in ("appliance.db", "appliance.db-wal", "queue.db", "secret.key", "server.lock", "notes.txt"):
        (tmp_path / name).write_text("runtime")
    (tmp_path / "media").mkdir()
    (tmp_path / "media" / "photo.json").write_text("{}")
    assert [path.name for path in shipped_data_files(tmp_path)] == ["README.md", "holidays.csv",
                                                                    "permissions.json", "plans.json"]
    ignored = (ROOT / ".gitignore").read_text()
    assert all(f"!/data/{pattern}" in ignored for pattern in SHIPPED_DATA_PATTERNS), "git and the bundle must agree"
