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


def error_fields(response) -> set[str]:
    """The top-level fields a validation problem names (`errors` keys are flat: "cards.0.mediaId")."""
    body = response.get_json(silent=True) if hasattr(response, "get_json") else response.json()
    return {key.split(".")[0] for key in (body.get("errors") or {})}
