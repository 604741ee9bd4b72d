#!/usr/bin/env python3
"""The appliance's folders and the imports between them, read statically (every import counts,
lazy and TYPE_CHECKING ones too), checked against the layers of the house.

A node is a folder of the package (appliance/messages, appliance/messages/sending, ...) or a
module at the top of it (appliance/app.py). Imports between a folder and its own sub-folders are
one family and are not edges; everything else is. The rules (docs/architecture.md, "Layers"):
- no cycle between folders, however long;
- each node sits in one layer of LAYERS and imports only its own layer or lower ones;
- the protocol layer imports nothing of the appliance.

`python tools/package_graph.py` prints the graph (one line a node, its imports) and the breaches;
`--check` prints only the breaches; both exit 1 when there is one. tests/core/test_layers.py runs
the same checks in the suite.
"""

from __future__ import annotations

import ast
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "appliance"
# Alembic's migrations import models by design (a frozen history); the simulator is its own app.
OUTSIDE = ("migrations", "netsim")

# Top to bottom. A node may import its own layer (acyclic) or any layer below it.
LAYERS: list[tuple[str, frozenset[str]]] = [
    ("entry", frozenset({"__main__", "cli", "server", "app", "bootstrap", "blueprints", "handler_registry",
                         "model_registry", "worker_registry", "windows_service", "move_to_postgres"})),
    ("edge", frozenset({"callers", "channels", "channels.whatsapp", "webchat", "console", "inbox", "live", "sandbox", "landing"})),
    ("domain", frozenset({"health", "operations", "backups", "users", "installation", "auth", "mail", "permissions", "organizations", "roles",
                          "memberships", "invitations", "api_keys", "oauth", "wabas", "phone_numbers",
                          "templates", "business_profiles", "contacts", "contact_lists", "tags", "conversations", "messages",
                          "whatsapp_flows", "bots", "team_tasks", "quick_replies", "services_catalog", "knowledge", "ai_agents",
                          "broadcasts", "outbound_webhooks", "push", "attendance", "shift_reminders", "chat_links", "link_pages", "orders", "surveys", "agenda",
                          "billing", "catalog", "einvoicing", "stickers"})),
    ("http", frozenset({"http"})),
    ("core", frozenset({"core"})),
    ("protocol", frozenset({"graph_api", "ai_providers", "google_calendar"})),
    # How HTTP handles are made for the hot paths (libcurl) and the rule on the addresses reached for
    # tenants (address_rule); import nothing of the appliance, like the protocol clients above
    # them, which may use them.
    ("transport", frozenset({"libcurl", "address_rule"})),
    ("base", frozenset({"settings", "paths", "__init__"})),
]
PROTOCOL_LAYER = "protocol"
TRANSPORT_LAYER = "transport"


def _node_of(module: str) -> str | None:
    """The folder (or top-level module) a dotted module name belongs to, without 'appliance.'."""
    parts = module.split(".")
    if parts[0] != "appliance":
        return None
    if len(parts) == 1:
        return "__init__"
    if parts[1] in OUTSIDE:
        return None
    # the longest prefix that is a folder; a top-level module is a node of its own
    for cut in range(len(parts), 1, -1):
        path = PACKAGE.joinpath(*parts[1:cut])
        if path.is_dir():
            return ".".join(parts[1:cut])
        if path.with_suffix(".py").is_file():
            return ".".join(parts[1:cut - 1]) if cut > 2 else parts[1]
    return None


def _family(a: str, b: str) -> bool:
    return a == b or a.startswith(b + ".") or b.startswith(a + ".")


def read_edges(package: Path = PACKAGE) -> dict[str, dict[str, list[str]]]:
    """node -> imported node -> the places ("appliance/x/y.py:12") that import it."""
    edges: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for path in sorted(package.rglob("*.py")):
        module = ".".join(path.relative_to(package.parent).with_suffix("").parts)
        if path.name == "__init__.py":
            module = module.removesuffix(".__init__")
        source = _node_of(module)
        if source is None:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets = [f"{node.module}.{alias.name}" for alias in node.names]
            else:
                continue
            for target in targets:
                imported = _node_of(target)
                if imported is not None and not _family(source, imported):
                    edges[source][imported].append(f"{path.relative_to(package.parent)}:{node.lineno}")
        edges.setdefault(source, defaultdict(list))
    return edges


def layer_of(node: str) -> int | None:
    top = node.split(".")[0]
    for index, (_, members) in enumerate(LAYERS):
        if node in members or top in members:
            return index
    return None


def cycles(edges) -> list[list[str]]:
    """Strongly connected groups of more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    sys.setrecursionlimit(10_000)
    for v in sorted(set(edges) | {w for targets in edges.values() for w in targets}):
        if v not in index:
            visit(v)
    return found


def breaches(edges) -> list[str]:
    """Every broken rule, one line each (empty when the house is in order)."""
    problems = []
    for group in cycles(edges):
        ties = [f"{a} -> {b} ({edges[a][b][0]})" for a in group for b in group if b in edges.get(a, {})]
        problems.append(f"cycle of {len(group)} folders: {', '.join(group)}; " + "; ".join(ties))
    for source in sorted(edges):
        source_layer = layer_of(source)
        if source_layer is None:
            problems.append(f"{source} is in no layer: add it to LAYERS in tools/package_graph.py")
            continue
        for target, places in sorted(edges[source].items()):
            target_layer = layer_of(target)
            if target_layer is None:
                continue  # reported as a source
            if target_layer < source_layer:
                problems.append(f"upward import: {source} ({LAYERS[source_layer][0]}) -> {target} "
                                f"({LAYERS[target_layer][0]}) at {places[0]}")
            elif LAYERS[source_layer][0] == TRANSPORT_LAYER or (
                    LAYERS[source_layer][0] == PROTOCOL_LAYER and LAYERS[target_layer][0] != TRANSPORT_LAYER):
                problems.append(f"the protocol imports the appliance: {source} -> {target} at {places[0]}")
    return problems


def describe(edges) -> str:
    lines = []
    for index, (name, _) in enumerate(LAYERS):
        nodes = sorted(n for n in edges if layer_of(n) == index)
        if not nodes:
            continue
        lines.append(f"[{name}]")
        for node in nodes:
            targets = sorted(edges[node], key=lambda t: (layer_of(t) or 0, t))
            lines.append(f"  {node:<22} -> {', '.join(targets) if targets else '(nothing)'}")
    return "\n".join(lines)


# Modules ------------------------------------------------------------------------------------------
# The same rule one level down (the definition of ../shared/tools/module_cycles.py): no module
# imports, directly or around a loop, a module that imports it back; every import counts (lazy,
# TYPE_CHECKING, relative), and a package importing its own submodules is how it exposes them.

def _modules(package: Path) -> dict[str, Path]:
    found = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if len(parts) > 1 and parts[1] in OUTSIDE:
            continue
        found[".".join(parts)] = path
    return found


def module_edges(package: Path = PACKAGE) -> dict[str, dict[str, str]]:
    """module -> imported module -> the place ("appliance/x/y.py:12") of the first such import."""
    modules = _modules(package)

    def resolve(name: str) -> str | None:  # the module itself, or the module a name is imported from
        while name:
            if name in modules:
                return name
            name = name.rpartition(".")[0]
        return None

    edges: dict[str, dict[str, str]] = defaultdict(dict)
    for module, path in modules.items():
        anchor = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join(anchor[:len(anchor) - (node.level - 1)] + ([base] if base else []))
                targets = [f"{base}.{alias.name}" for alias in node.names]
            else:
                continue
            for target in targets:
                imported = resolve(target)
                if imported and not _family(module, imported):
                    edges[module].setdefault(imported, f"{path.relative_to(package.parent)}:{node.lineno}")
    return edges


def module_cycles(package: Path = PACKAGE) -> list[str]:
    edges = module_edges(package)
    return [f"cycle of {len(group)} modules: " + "; ".join(
        f"{a} -> {b} ({edges[a][b]})" for a in group for b in group if b in edges.get(a, {}))
        for group in cycles(edges)]


# File roles ----------------------------------------------------------------------------------------
# What a file name means wherever it is; docs/architecture.md ("File roles") says the same in words,
# and tests/core/test_layers.py holds both to it. http/ is the plumbing the roles are built on: its
# api.py is the Blueprint every api.py makes, its pages.py how every page is rendered.
ROLES = {
    "models.py": "SQLModel tables",
    "schemas.py": "marshmallow schemas",
    "api.py": "REST routes: one flask-smorest Blueprint (http/api.py's)",
    "pages.py": "browser routes: one flask Blueprint, added to PAGES",
    "service.py": "the rules people and API clients reach; no flask; one in every domain",
    "tasks.py": "queue tasks, and only there; the wake-ups that pick a thread or a task",
    "listeners.py": "outbox subscriptions, and only there",
    "texts.py": "the words of a folder's pages",
}
NOT_ROLES = {"views.py": "flask's word for a route: routes are api.py's or pages.py's"}
PLUMBING = "http"
QUEUE_DECORATORS = frozenset({"task", "periodic_task", "lock_task"})
SUBSCRIPTIONS = {"appliance.core.dispatcher": "subscribe", "appliance.core.events": "after_emitting_commit"}
FLASK_MODULES = frozenset({"flask", "flask_smorest", "flask_login", "werkzeug"})


class _Reading:
    """What a file's syntax says about its role: what it imports, where it makes queue tasks and
    subscriptions, and whether it makes a Blueprint or a table."""

    def __init__(self, path: Path):
        self.path = path
        self.tree = ast.parse(path.read_text(encoding="utf-8"))
        self.imported: set[str] = set()  # top-level packages imported
        self.bound: dict[str, str] = {}  # local name -> the dotted module or object it is bound to
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    self.imported.add(alias.name.split(".")[0])
                    self.bound[alias.asname or alias.name.split(".")[0]] = alias.name if alias.asname else \
                        alias.name.split(".")[0]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                self.imported.add(node.module.split(".")[0])
                for alias in node.names:
                    self.bound[alias.asname or alias.name] = f"{node.module}.{alias.name}"

    def _dotted(self, node) -> str | None:
        """`queue.huey.task` -> "appliance.core.queue.huey.task", through what the names are bound to."""
        if isinstance(node, ast.Name):
            return self.bound.get(node.id)
        if isinstance(node, ast.Attribute):
            base = self._dotted(node.value)
            return f"{base}.{node.attr}" if base else None
        return None

    def calls(self) -> list[tuple[str, int]]:
        return [(name, node.lineno) for node in ast.walk(self.tree) if isinstance(node, ast.Call)
                for name in [self._dotted(node.func)] if name]

    def queue_tasks(self) -> list[int]:
        """Lines that make a queue task (`@huey.task()`, `slow.periodic_task(...)(fn)`, ...)."""
        return [line for name, line in self.calls() if name.startswith("appliance.core.queue.")
                and name.rsplit(".", 1)[-1] in QUEUE_DECORATORS]

    def subscriptions(self) -> list[int]:
        return [line for name, line in self.calls()
                if any(name == f"{module}.{function}" for module, function in SUBSCRIPTIONS.items())]

    def makes(self, qualified: str) -> bool:
        return any(name == qualified for name, _ in self.calls())

    def has_table(self) -> bool:
        return any(isinstance(node, ast.ClassDef) and any(k.arg == "table" for k in node.keywords)
                   for node in ast.walk(self.tree))


def _role_problem(name: str, reading: _Reading, folder: str) -> str | None:
    """What is wrong with a file of a role's name, or None."""
    plumbing = folder == PLUMBING
    if name == "models.py" and not reading.has_table():
        return "holds no table"
    if name == "schemas.py" and not reading.imported & {"marshmallow"} and "appliance.core.schema" not in \
            {value.rsplit(".", 1)[0] for value in reading.bound.values()}:
        return "holds no marshmallow schema"
    if name == "api.py" and not plumbing and not reading.makes("appliance.http.api.Blueprint"):
        return "makes no API Blueprint (appliance.http.api)"
    if name == "pages.py" and not plumbing and not reading.makes("flask.Blueprint"):
        return "makes no flask Blueprint"
    if name in ("service.py", "texts.py") and reading.imported & FLASK_MODULES:
        return "imports flask"
    if name == "tasks.py" and not reading.queue_tasks():
        return "makes no queue task"
    if name == "listeners.py" and not reading.subscriptions():
        return "subscribes to nothing"
    return None


def role_breaches(package: Path = PACKAGE) -> list[str]:
    """Files that break their name's role, queue tasks outside tasks.py, subscriptions outside
    listeners.py, a domain without service.py, and the registry missing a tasks.py or listeners.py."""
    problems = []
    registered = _Reading(package / "handler_registry.py").bound.values() \
        if (package / "handler_registry.py").exists() else ()
    for module, path in _modules(package).items():
        place = str(path.relative_to(package.parent))
        reading = _Reading(path)
        folder = module.split(".")[1] if "." in module else ""
        if path.name in NOT_ROLES:
            problems.append(f"{place}: {path.name} is not a file role ({NOT_ROLES[path.name]})")
        if path.name in ROLES and (problem := _role_problem(path.name, reading, folder)):
            problems.append(f"{place}: {problem} ({path.name}: {ROLES[path.name]})")
        if path.name != "tasks.py":
            problems += [f"{place}:{line}: a queue task outside tasks.py" for line in reading.queue_tasks()]
        if path.name != "listeners.py":
            problems += [f"{place}:{line}: a subscription outside listeners.py" for line in reading.subscriptions()]
        if path.name in ("tasks.py", "listeners.py") and path.parent != package and module not in registered:
            problems.append(f"{place}: not imported by appliance/handler_registry.py (its tasks or listeners "
                            "would never be known)")
    domains = dict(LAYERS)["domain"]
    problems += [f"appliance/{domain}/ has no service.py (every domain has one)" for domain in sorted(domains)
                 if (package / domain).is_dir() and not (package / domain / "service.py").is_file()]
    return problems


def main(argv: list[str]) -> int:
    edges = read_edges()
    if "--check" not in argv:
        print(describe(edges))
    problems = breaches(edges) + module_cycles() + role_breaches()
    for problem in problems:
        print(problem)
    print(f"{len(edges)} folders, {sum(len(t) for t in edges.values())} edges, {len(problems)} breaches")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
