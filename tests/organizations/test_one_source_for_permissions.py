"""Issue 47, one source for permissions: the API declares what each operation needs
(`Blueprint.requires`); the console's and the inbox's pages name the operation they perform
(`@performs`, appliance/http/operations.py), their templates ask `may(endpoint)`, and neither
restates a permission. The matrices (test_matrix.py) hold every page to the permission it names."""

import ast
import re

from appliance import paths
from appliance.http.operations import permission_of, permission_of_page
from appliance.permissions.service import list_permissions
from tests.organizations import routes

PACKAGE = paths.ROOT / "appliance"
TEMPLATES = paths.WEB_DIR / "templates"
PERMISSIONS = {permission.key for permission in list_permissions()}
QUOTED = re.compile(r"""['"]([a-z-]+:[a-z]+)['"]""")
MAY = re.compile(r"""may\(\s*['"]([\w.]+)['"]\s*\)""")


def _page_modules():
    return sorted([*(PACKAGE / "console").glob("*.py"), *(PACKAGE / "inbox").glob("*.py")])


def _page_templates():
    return sorted(TEMPLATES.rglob("*.html"))


def test_pages_restate_no_permission():
    """Not one permission written in the console's or the inbox's code, nor in any template."""
    restated = [f"{path.relative_to(paths.ROOT)}:{node.lineno}: {node.value}" for path in _page_modules()
                for node in ast.walk(ast.parse(path.read_text()))
                if isinstance(node, ast.Constant) and node.value in PERMISSIONS]
    restated += [f"{path.relative_to(paths.ROOT)}:{number}: {found}" for path in _page_templates()
                 for number, line in enumerate(path.read_text().splitlines(), 1)
                 for found in QUOTED.findall(line) if found in PERMISSIONS]
    assert restated == [], "name the API operation instead (@performs, permission_of, may): " + "\n".join(restated)


def test_every_page_of_an_organization_says_which_api_operation_it_performs(app):
    """routes.pages fails on a page of an organization that names no operation; each one named is an
    API operation with its declared permission, and some pages are open to every member."""
    found = [route for route in routes.pages(app) if route.in_organization]
    assert len(found) >= 170
    assert {route.permission for route in found} <= PERMISSIONS | {None}
    assert [str(route) for route in found if route.permission is None] == [
        "GET /console/<uuid:org_id>/events (None)", "GET /console/<uuid:org_id>/home (None)"]
    # the inbox's buttons: one route, an operation (and its permission) for each
    buttons = {route.chosen["action"]: route.permission for route in found if route.chosen}
    assert buttons["reply"] == "messages:send" and buttons["note"] == "conversations:write"


def test_what_templates_ask_may_is_a_page_that_does_one_thing(app):
    """`may('console_pages.x')` reads the permission of that page's operation: a name that is no
    page, or a page that does several things, fails here rather than when the page is drawn."""
    asked = {endpoint for path in _page_templates() for endpoint in MAY.findall(path.read_text())}
    assert len(asked) >= 30
    with app.app_context():
        assert {endpoint: permission_of_page(endpoint) in PERMISSIONS for endpoint in asked} == \
               {endpoint: True for endpoint in asked}


def test_permission_of_refuses_what_is_not_an_api_operation():
    def page():
        pass
    try:
        permission_of(page)
    except TypeError as error:
        assert "Blueprint.requires" in str(error)
    else:
        raise AssertionError("a function without a declared permission was taken for an operation")
