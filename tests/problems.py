"""One assertion for the API's failures: status, problem+json, and the stable code."""


def assert_problem(response, status: int, code: str, *context) -> dict:
    """`response` is a problem+json answer with `status` and `code`; returns its body for more checks.
    `context` (the input that was tried, say) is shown when it is not."""
    body = response.get_json(silent=True) if hasattr(response, "get_json") else response.json()
    shown = (response.status_code, body, *context)
    assert response.status_code == status, shown
    assert response.headers["Content-Type"].startswith("application/problem+json"), shown
    assert body["code"] == code, shown
    assert body["status"] == status, shown
    return body
