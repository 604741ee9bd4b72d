import re

from appliance.app import create_app
from appliance.http.files import SERVED_TYPES
from tests.problems import assert_problem


def test_success_envelope(client):
    """Success answers are {data, timestamp} with an ISO UTC timestamp."""
    body = client.get("/health").json
    assert set(body) == {"data", "timestamp"}
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", body["timestamp"])


def test_malformed_json_is_400_invalid_json(client):
    """A body that does not parse is 400 invalid_json, as problem+json."""
    response = client.post("/auth/login", data="{nope", content_type="application/json")
    assert_problem(response, 400, "invalid_json")
    assert response.mimetype == "application/problem+json"
    assert {"type", "title", "status", "code", "detail", "timestamp"} <= set(response.json)


def test_non_json_body_is_400(client):
    """Form or text bodies on JSON routes are 400 unsupported_content_type."""
    response = client.post("/auth/login", data="email=a&password=b")
    assert_problem(response, 400, "unsupported_content_type")


def test_wrong_types_and_unknown_fields(client):
    """Numbers for strings and unknown fields are listed per field."""
    response = client.post("/auth/login", json={"email": 5, "password": ["x"], "admin": True})
    assert response.status_code == 400
    assert set(response.json["errors"]) == {"email", "password", "admin"}


def test_json_that_is_not_an_object(client):
    """An array, a string or null as the body is 400, not 500."""
    for body in ("[]", '"text"', "null", "1"):
        response = client.post("/auth/login", data=body, content_type="application/json")
        assert response.status_code == 400, body


def test_oversize_body_is_413(client):
    """A body above APPLIANCE_MAX_JSON_BYTES answers 413 payload_too_large."""
    big = '{"email": "a@b.co", "password": "' + "x" * (1024 * 1024) + '"}'
    response = client.post("/auth/login", data=big, content_type="application/json")
    assert_problem(response, 413, "payload_too_large")


def test_very_long_strings_are_refused_by_field_limits(client):
    """A 100 kB password under the body limit is still a 400, not a slow hash."""
    response = client.post("/auth/login", json={"email": "a@b.co", "password": "x" * 100_000})
    assert response.status_code == 400 and "password" in response.json["errors"]


def test_unknown_route_and_wrong_method(client):
    """404 not_found and 405 method_not_allowed with Allow, both problem+json."""
    missing = client.get("/no/such/route")
    assert_problem(missing, 404, "not_found")
    wrong = client.get("/auth/login")
    assert_problem(wrong, 405, "method_not_allowed")
    assert "POST" in wrong.headers["Allow"]


def test_browsers_get_an_html_error_page(client):
    """A browser asking for HTML gets a page, not JSON."""
    response = client.get("/no/such/route", headers={"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"})
    assert response.status_code == 404 and response.mimetype == "text/html"
    assert b"Not Found" in response.data


def test_an_unexpected_error_is_a_clean_500(settings):
    """A bug answers 500 internal_error without leaking a traceback."""
    app = create_app(settings, queue_immediate=True)  # its own app: this one gains a route

    @app.get("/boom")
    def boom():
        raise RuntimeError("secret internals")
    boom._public = True
    response = app.test_client().get("/boom")
    assert_problem(response, 500, "internal_error")
    assert b"secret internals" not in response.data


def test_a_failed_request_writes_nothing(api, app):
    """A request that fails after the service wrote something leaves no trace (rollback)."""
    from sqlmodel import select

    from appliance.core import runtime
    from appliance.users.models import User
    api.signup()
    response = api.post("/auth/signup", {"email": "ana@example.com", "password": "another one", "name": "Twin"})
    assert response.status_code == 409
    with runtime.get().db.unit_of_work(write=False) as session:
        assert len(session.exec(select(User)).all()) == 1


def test_openapi_documents_every_operation(client):
    """Every operation has a summary, a tag, a success response schema, and a request body schema
    (JSON, or a form for the OAuth endpoints)."""
    spec = client.get("/openapi.json").json
    assert spec["info"]["version"]
    operations = [(path, method, op) for path, item in spec["paths"].items()
                  for method, op in item.items() if method in ("get", "post", "put", "patch", "delete")]
    assert len(operations) >= 22
    for path, method, op in operations:
        where = f"{method.upper()} {path}"
        assert op.get("summary"), where
        assert op.get("tags"), where
        successes = {code: r for code, r in op["responses"].items() if code.startswith("2")}
        assert successes, where
        for code, response in successes.items():
            if code != "204":  # JSON, plain text where a protocol says so (webhook verification), stored
                content = response["content"]  # files as served, SSE, images the API makes (QR codes), iCalendar
                assert set(content) <= {"application/json", "text/plain", "text/event-stream", "image/svg+xml",  # feeds,
                                        "text/calendar", "application/gzip", *SERVED_TYPES}, where  # backups
                assert all("schema" in c for c in content.values()), where
        if method in ("post", "put", "patch") and "requestBody" in op:
            content = op["requestBody"]["content"]
            assert all("schema" in body for body in content.values()), where
            if "multipart/form-data" in content:  # an upload: the file in a form, or as the body
                assert content["multipart/form-data"]["schema"]["required"], where
            else:
                (body,) = content.values()
                assert set(content) <= {"application/json", "application/x-www-form-urlencoded"}, where


def test_openapi_documents_errors_as_they_are_sent(client):
    """Validation errors are documented as 400 and every error as the problem+json shape."""
    spec = client.get("/openapi.json").json
    login = spec["paths"]["/auth/login"]["post"]["responses"]
    assert "422" not in login and "400" in login and "default" in login
    problem = spec["components"]["schemas"]["Problem"]["properties"]
    assert {"type", "title", "status", "code", "detail", "errors", "timestamp"} <= set(problem)


def test_openapi_marks_public_routes(client):
    """Public routes declare no security; the rest need the bearer scheme."""
    spec = client.get("/openapi.json").json
    assert spec["paths"]["/auth/login"]["post"]["security"] == []
    assert "security" not in spec["paths"]["/users/me"]["get"]
    assert spec["security"] == [{"bearerAuth": []}, {"apiKeyAuth": []}]


def test_swagger_ui_is_served_offline(client):
    """/docs loads its scripts from this server, never from a CDN."""
    page = client.get("/docs")
    assert page.status_code == 200
    sources = re.findall(rb'(?:src|href)="([^"]+)"', page.data)
    assert sources and all(not s.startswith((b"http:", b"https:", b"//")) for s in sources)
    assert client.get("/docs/assets/swagger-ui-bundle.js").status_code == 200


def test_oversize_chunked_body_is_413(client):
    """A chunked body (no Content-Length) is cut off at the limit too."""
    import io
    body = io.BytesIO(b'{"email": "a@b.co", "password": "' + b"x" * (2 * 1024 * 1024) + b'"}')
    response = client.post("/auth/login", input_stream=body, content_type="application/json",
                           headers={"Transfer-Encoding": "chunked"},
                           environ_base={"wsgi.input_terminated": True})  # as waitress sets it
    assert_problem(response, 413, "payload_too_large")
