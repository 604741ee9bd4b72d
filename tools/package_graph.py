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
    ("entry", frozenset({"__main__", "cli", "server", "app", "bootstrap", "blueprints", "tasks",
                         "model_registry", "windows_service"})),
    ("edge", frozenset({"callers", "channels", "channels.whatsapp", "console", "inbox", "live", "sandbox", "pages"})),
    ("domain", frozenset({"health", "operations", "backups", "users", "installation", "auth", "mail", "permissions", "organizations", "roles",
                          "memberships", "invitations", "api_keys", "oauth", "wabas", "phone_numbers",
                          "templates", "business_profiles", "contacts", "contact_lists", "tags", "conversations", "messages",
                          "whatsapp_flows", "bots", "team_tasks", "quick_replies", "services_catalog", "knowledge", "ai_agents",
                          "broadcasts", "outbound_webhooks", "push", "attendance", "shift_reminders", "chat_links", "link_pages", "orders", "surveys", "agenda"})),
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


def main(argv: list[str]) -> int:
    edges = read_edges()
    if "--check" not in argv:
        print(describe(edges))
    problems = breaches(edges)
    for problem in problems:
        print(problem)
    print(f"{len(edges)} folders, {sum(len(t) for t in edges.values())} edges, {len(problems)} breaches")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
