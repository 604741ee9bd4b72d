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


def test_no_module_imports_one_that_imports_it_back():
    """No module cycles (../shared/tools/module_cycles.py reads them alike): every import counts."""
    assert package_graph.module_cycles() == []


def test_a_loop_between_two_modules_would_fail(tmp_path):
    """A service queuing a task whose module calls the service back, the import hidden in a
    function: still a loop (the mail outbox's was one)."""
    package = _write(tmp_path, {
        "__init__.py": "", "mail/__init__.py": "",
        "mail/service.py": "def queue():\n    from appliance.mail import tasks\n",
        "mail/tasks.py": "from appliance.mail.service import queue\n",
    })
    assert package_graph.module_cycles(package) == [
        "cycle of 2 modules: appliance.mail.service -> appliance.mail.tasks (appliance/mail/service.py:2); "
        "appliance.mail.tasks -> appliance.mail.service (appliance/mail/tasks.py:1)"]


def test_every_file_keeps_the_role_its_name_says():
    """Queue tasks only in tasks.py, subscriptions only in listeners.py, a service.py in every
    domain, each role's file holding what the role says, every tasks.py and listeners.py known to
    appliance/handler_registry.py."""
    assert package_graph.role_breaches() == []


def test_a_file_out_of_its_role_would_fail(tmp_path):
    queue = "from appliance.core.queue import huey\n"
    package = _write(tmp_path, {
        "__init__.py": "", "handler_registry.py": "from appliance.mail import listeners\n",
        "core/__init__.py": "", "core/queue.py": "", "core/dispatcher.py": "", "core/events.py": "",
        "mail/__init__.py": "",
        "mail/sender.py": queue + "@huey.task()\ndef send():\n    pass\n",
        "mail/tasks.py": "from appliance.core import queue\n\n\n@queue.huey.periodic_task(None)\ndef sweep():\n    pass\n",
        "mail/closing.py": "from appliance.core import dispatcher as d\n\n\ndef hear(session, event):\n    pass\n\n\n"
                           "d.subscribe('conversation.updated')(hear)\n",
        "mail/listeners.py": "from appliance.core import events\n\nevents.after_emitting_commit(print)\n",
        "mail/views.py": "", "mail/api.py": "from flask import Blueprint\nblp = Blueprint('mail', __name__)\n",
        "mail/models.py": "class Mail:\n    pass\n",
    })
    problems = package_graph.role_breaches(package)
    assert sorted(problems) == sorted([
        "appliance/mail/sender.py:2: a queue task outside tasks.py",
        "appliance/mail/closing.py:8: a subscription outside listeners.py",
        "appliance/mail/tasks.py: not imported by appliance/handler_registry.py (its tasks or listeners would "
        "never be known)",
        "appliance/mail/views.py: views.py is not a file role (flask's word for a route: routes are api.py's or "
        "pages.py's)",
        "appliance/mail/api.py: makes no API Blueprint (appliance.http.api) (api.py: "
        + package_graph.ROLES["api.py"] + ")",
        "appliance/mail/models.py: holds no table (models.py: " + package_graph.ROLES["models.py"] + ")",
        "appliance/mail/ has no service.py (every domain has one)",
    ]), problems


def test_the_architecture_page_says_the_file_roles():
    """docs/architecture.md's table of file roles names the roles the checks know, each once."""
    page = (ROOT / "docs" / "architecture.md").read_text()
    table = page.split("### File roles", 1)[1].split("\n\n", 2)[1]
    named = [line.split("|")[1].strip().strip("`") for line in table.splitlines()[2:]]
    assert named == list(package_graph.ROLES) + list(package_graph.NOT_ROLES)
