"""The routes the permission and tenant matrices try, read from the app's url_map, so that a new
route cannot escape them: the API's organization operations with the permission each declares
(`Blueprint.requires`), and the console's and the inbox's pages with the permission of the API
operation each performs (`@performs`, appliance/http/operations.py)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from appliance.http.operations import performed, permission_of

PAGE_BLUEPRINTS = ("console_pages", "inbox_pages")
_ARGUMENT = re.compile(r"<(?:[^:<>]+:)?(\w+)>")


@dataclass(frozen=True)
class Route:
    rule: str  # as werkzeug writes it: /console/<uuid:org_id>/contacts/<uuid:contact_id>
    method: str
    permission: str | None  # what it needs inside its organization; None: every member
    chosen: dict = field(default_factory=dict)  # path arguments that choose what it does (a button)

    @property
    def arguments(self) -> list[str]:
        return _ARGUMENT.findall(self.rule)

    @property
    def in_organization(self) -> bool:
        return "org_id" in self.arguments

    def url(self, values: dict[str, str]) -> str:
        values = {**values, **self.chosen}
        return _ARGUMENT.sub(lambda m: values[m.group(1)], self.rule)

    def __str__(self) -> str:
        chosen = "".join(f" [{name}={value}]" for name, value in self.chosen.items())
        return f"{self.method} {self.rule}{chosen} ({self.permission})"


def _methods(rule) -> list[str]:
    return sorted(rule.methods - {"HEAD", "OPTIONS"})


def api_operations(app) -> list[Route]:
    """Every operation of an organization's API (/organizations/{org_id}/...), each with the
    permission it declares; an operation that declares none fails here."""
    found = []
    for rule in app.url_map.iter_rules():
        view_class = getattr(app.view_functions[rule.endpoint], "view_class", None)
        if view_class is None or "org_id" not in rule.arguments or not rule.rule.startswith("/organizations/"):
            continue
        for method in _methods(rule):
            found.append(Route(rule.rule, method, permission_of(getattr(view_class, method.lower()))))
    return found


def pages(app) -> list[Route]:
    """Every route of the console and the inbox; one in an organization names the operation it
    performs (one Route per operation a path argument chooses), which fails here if it does not."""
    found, undeclared = [], []
    for rule in app.url_map.iter_rules():
        if rule.endpoint.split(".")[0] not in PAGE_BLUEPRINTS:
            continue
        declared = performed(app.view_functions[rule.endpoint])
        if declared is None:
            if "org_id" in rule.arguments:
                undeclared.append(rule.endpoint)
            declared = [({}, None)]  # the person's own pages and the installation's: no organization
        for method in _methods(rule):
            found += [Route(rule.rule, method, None if operation is None else permission_of(operation), chosen)
                      for chosen, operation in declared]
    assert undeclared == [], f"pages of an organization that do not say which API operation they perform " \
                             f"(mark them @performs, appliance/http/operations.py): {undeclared}"
    return found


def path(route: Route) -> str:
    """The route's path as the OpenAPI document writes it: /organizations/{org_id}/contacts."""
    return _ARGUMENT.sub(lambda m: "{" + m.group(1) + "}", route.rule)
