"""What ships and what gets installed: the runtime without test tools, a bundle without runtime files."""

from pathlib import Path

from appliance.paths import SHIPPED_DATA_PATTERNS, shipped_data_files

ROOT = Path(__file__).resolve().parents[1]
TEST_TOOLS = {"pytest", "pytest-timeout", "pytest-xdist", "playwright", "aiosmtpd", "greenlet", "pyee", "execnet"}


# Modules of dependencies installed only on another system (their markers say which), which this
# machine's installed packages cannot name: the Windows service's pywin32.
ELSEWHERE = {"pywintypes": "pywin32", "servicemanager": "pywin32", "win32service": "pywin32",
             "win32serviceutil": "pywin32", "winerror": "pywin32"}


def _requirements(name: str) -> dict:
    from packaging.requirements import Requirement

    requirements = {}
    for line in (ROOT / name).read_text().splitlines():
        line = line.split("#")[0].strip()  # pip's comments, whole lines or after a pin
        if line and not line.startswith("-r"):
            requirement = Requirement(line)
            requirements[requirement.name.lower()] = requirement
    return requirements


def _pins(name: str) -> dict[str, str]:
    return {package: str(requirement.specifier).removeprefix("==") for package, requirement in _requirements(name).items()}


def _here(requirement) -> bool:
    """Installed on this system: no marker, or one this machine satisfies."""
    return requirement.marker is None or requirement.marker.evaluate({"extra": ""})


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


def _declared() -> dict:
    import tomllib

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return {canonicalize_name(Requirement(line).name): Requirement(line) for line in project["project"]["dependencies"]}


def test_pip_install_dot_gets_what_the_lock_pins_and_every_package_the_code_imports():
    """Issue 44, item 18: `pip install .` built an app that failed on import (phonenumberslite was
    in requirements.lock, which `make run` installs, but not in pyproject's dependencies). The
    dependencies are the lock's direct ones: pinned alike, and with what they require (read from
    the installed packages' metadata) they make the lock, no more and no less (setuptools aside:
    the build needs it); and every third-party module imported anywhere under appliance/ (lazy
    imports too) comes from a declared dependency, not from one that happens to bring it."""
    import ast
    import sys
    import tomllib
    from importlib import metadata

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    declared, lock = _declared(), {canonicalize_name(name): version for name, version in _pins("requirements.lock").items()}
    assert {name: str(req.specifier) for name, req in declared.items()} == {name: f"=={lock.get(name)}" for name in declared}
    reached, waiting = set(), [name for name, requirement in declared.items() if _here(requirement)]
    while waiting:
        name = waiting.pop()
        if name in reached:
            continue
        reached.add(name)
        for line in metadata.distribution(name).requires or ():
            requirement = Requirement(line)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                waiting.append(canonicalize_name(requirement.name))
    build = {canonicalize_name(Requirement(line).name)
             for line in tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["requires"]}
    elsewhere = {canonicalize_name(name) for name, requirement in _requirements("requirements.lock").items()
                 if not _here(requirement)}
    assert elsewhere == {name for name, requirement in declared.items() if not _here(requirement)}, \
        "the lock and pyproject.toml must agree on what is installed only elsewhere"
    assert set(lock) - reached - build - elsewhere == set(), "pinned in the lock, but nothing declared needs it"
    assert reached - set(lock) == set(), "needed by what is declared, but not pinned in the lock"

    imported: dict[str, set[str]] = {}
    for path in sorted((ROOT / "appliance").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules = [node.module]
            else:
                continue
            for module in modules:
                top = module.split(".")[0]
                if top not in sys.stdlib_module_names and top not in ("appliance", "__future__"):
                    imported.setdefault(top, set()).add(str(path.relative_to(ROOT)))
    providers = metadata.packages_distributions()
    undeclared = {top: sorted(where) for top, where in imported.items()
                  if not {canonicalize_name(dist) for dist in providers.get(top, ())} & set(declared)
                  and ELSEWHERE.get(top) not in elsewhere}
    assert undeclared == {}, "imported, but no dependency of pyproject.toml provides it"
