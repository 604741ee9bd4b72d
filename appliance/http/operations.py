"""One source for permissions: the API declares what each operation needs (`Blueprint.requires` on
the view method), and a page that does the same names that operation instead of restating it.

A console or inbox view is marked `@performs(contacts_api.ContactById.patch)` (or
`@open_to_members`); the page's own check (`console.common.org_actor`, the inbox's `_actor`) asks
`page_permission()`, which reads the API's declaration. Whether to show a link or a form is asked
of the route it leads to: `allows(actor, endpoint)` in code, `may(endpoint)` in templates. A view
that declares nothing fails at its first request, and the matrices (tests/organizations), which
read `performed` for every route of the url_map, fail before that."""

from __future__ import annotations

from typing import Callable, Mapping

from flask import current_app, request
from jinja2 import pass_context

from appliance.http.api import view_attr


def permission_of(operation: Callable) -> str:
    """The permission the API declares for `operation`, a view method marked `Blueprint.requires`."""
    permission = getattr(operation, "_permission", None)
    if permission is None:
        raise TypeError(f"{operation.__qualname__} is not an API operation with a declared permission "
                        "(Blueprint.requires)")
    return permission


def performs(operation: Callable | Mapping[str, Callable], *, chosen_by: str | None = None):
    """Mark a page's view as doing what the API's `operation` does: it needs the permission the API
    declares for it. `chosen_by`: the view does one of several operations, `operation` maps the
    value of that path argument to each (the inbox's buttons)."""
    for each in (operation.values() if chosen_by else (operation,)):
        permission_of(each)  # a method that declares nothing fails when the page's module loads

    def decorator(view):
        view._performs = (operation, chosen_by)
        return view
    return decorator


def open_to_members(view):
    """Mark a page's view as open to every member of the organization, whatever their role: what it
    shows is filtered for each person (the console's event stream)."""
    view._performs = (None, None)
    return view


def performed(view: Callable) -> list[tuple[dict[str, str], Callable | None]] | None:
    """What a page's view declares it does, as (the path arguments that choose it, the operation):
    `[({}, operation)]`, or one pair for each value of the argument that chooses (`[({"action":
    "reply"}, operation), ...]`); an operation None is open to every member. None when the view
    declares nothing."""
    declared = getattr(view, "_performs", None)
    if declared is None:
        return None
    operation, chosen_by = declared
    if chosen_by:
        return [({chosen_by: value}, each) for value, each in operation.items()]
    return [({}, operation)]


def page_permission() -> str | None:
    """The permission the page serving this request needs (None: any member)."""
    declared = view_attr("_performs")
    if declared is None:
        raise LookupError(f"{request.endpoint} does not say which API operation it performs: mark it "
                          "@performs(<the operation>) (appliance/http/operations.py)")
    operation, chosen_by = declared
    if chosen_by:
        operation = operation[request.view_args[chosen_by]]
    return None if operation is None else permission_of(operation)


def page_open_while_suspended() -> bool:
    """Whether the page serving this request stays open while its organization is suspended: the
    API operation it performs says so (billing's, so that the owner can pay)."""
    declared = view_attr("_performs")
    if declared is None:
        return False
    operation, chosen_by = declared
    if chosen_by:
        operation = operation[request.view_args[chosen_by]]
    return bool(getattr(operation, "_while_suspended", False))


def permission_of_page(endpoint: str) -> str | None:
    """The permission the page at `endpoint` needs, when its view does one thing (None: any member)."""
    declared = performed(current_app.view_functions[endpoint]) or []
    if len(declared) != 1:
        raise LookupError(f"{endpoint} does not perform one API operation: ask about a page that does")
    [(_, operation)] = declared
    return None if operation is None else permission_of(operation)


def allows(actor, endpoint: str) -> bool:
    """Whether the page at `endpoint` lets `actor` (an OrgActor) in: a link or a form is shown to
    those its route lets in."""
    permission = permission_of_page(endpoint)
    return permission is None or actor.can(permission)


@pass_context
def may(context, endpoint: str) -> bool:
    """`{% if may('console_pages.contact_update') %}`: `allows` for the page's person (its `actor`)."""
    return allows(context["actor"], endpoint)
