"""The import contract: folders form no cycle and import only their own layer or lower ones
(tools/package_graph.py, which `make graph` prints)."""

import importlib.util
from pathlib import Path

import appliance

ROOT = Path(appliance.__file__).parent.parent
_spec = importlib.util.spec_from_file_location("package_graph", ROOT / "tools" / "package_graph.py")
package_graph = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(package_graph)


def _write(root: Path, files: dict[str, str]) -> Path:
    package = root / "appliance"
    for name, source in files.items():
        path = package / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source)
    return package


def test_the_house_keeps_its_layers():
    """The appliance has no import cycle between folders and no upward import."""
    assert package_graph.breaches(package_graph.read_edges()) == []


def test_every_folder_has_a_layer():
    """A new folder must be placed in a layer before it can import anything."""
    edges = package_graph.read_edges()
    assert [node for node in edges if package_graph.layer_of(node) is None] == []


def test_the_old_cycle_would_fail(tmp_path, monkeypatch):
    """The loop of the first wave (http authenticating through a domain whose api imports http; core
    importing every model) is reported, lazy imports included."""
    package = _write(tmp_path, {
        "__init__.py": "",
        "core/__init__.py": "", "core/model_registry.py": "from appliance.users import models\n",
        "http/__init__.py": "", "http/auth.py": "def f():\n    from appliance.users import service\n",
        "users/__init__.py": "", "users/models.py": "import appliance.core.model_registry\n",
        "users/api.py": "from appliance.http.auth import f\n", "users/service.py": "",
    })
    monkeypatch.setattr(package_graph, "PACKAGE", package)
    problems = package_graph.breaches(package_graph.read_edges(package))
    assert any(p.startswith("cycle of 3 folders: core, http, users") for p in problems), problems
    assert any(p.startswith("upward import: core (core) -> users (domain)") for p in problems), problems
    assert any(p.startswith("upward import: http (http) -> users (domain)") for p in problems), problems


def test_the_protocol_imports_nothing_of_the_appliance(tmp_path, monkeypatch):
    """graph_api stays a protocol: even an import of core breaks the contract."""
    package = _write(tmp_path, {
        "__init__.py": "", "core/__init__.py": "", "core/runtime.py": "",
        "graph_api/__init__.py": "", "graph_api/client.py": "from appliance.core import runtime\n",
    })
    monkeypatch.setattr(package_graph, "PACKAGE", package)
    problems = package_graph.breaches(package_graph.read_edges(package))
    assert problems == ["upward import: graph_api (protocol) -> core (core) at appliance/graph_api/client.py:1"]


def test_the_architecture_page_shows_todays_graph():
    """docs/architecture.md carries the graph `make graph` prints (regenerate it when an arrow changes)."""
    page = (ROOT / "docs" / "architecture.md").read_text()
    assert package_graph.describe(package_graph.read_edges()) in page
