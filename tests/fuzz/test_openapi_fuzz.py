"""The fuzzing test (issue 17, sharpened by issue 44): schemathesis (pinned in requirements-test.lock)
generates requests from /openapi.json for every operation, data that fits the document and data that
does not, sent as the owner of an organization with a connected (simulated) number, and fails on any
server error and on every mismatch between what the document says and what the server does:
undocumented statuses, content types or headers, answers outside their schema, valid data refused,
invalid data accepted, unsupported methods not answering 405.

Two phases per operation, both modes (valid and invalid data):
- coverage: schemathesis' deterministic cases from the document: each boundary (lengths, ranges,
  patterns, formats, enums), missing and unexpected fields, wrong types, and methods the path does
  not take. This finds a rule the document does not state wherever the server draws a line.
- fuzzing: FUZZ_EXAMPLES (default 6) random requests per operation and mode, `make fuzz` 60:
  what no boundary shows (a text ending in a tab, a key the server refuses, a cursor it never made);
- and one probe random data seldom makes: each text of a body at its maxLength plus a space (a
  server that trims before it checks takes it).
Derandomized, so a failure reproduces; the curl line to replay it is printed. About three minutes here
(the coverage phase is about 17,000 requests).

Every case reaches the rule it is about: it is sent with the owner's token (the generator makes no
credentials: authentication is tests/auth's), in the run's organization and on its number, naming
its records (an image, a contact, a conversation, a message) unless the path itself is what is
invalid.

Left out, and why:
- routes that end the run's own credentials (signing out, closing sessions): they would end the
  run, not find a fault (tests/auth covers them);
- per operation, `positive_data_acceptance` where the server checks a rule the document states in
  words but JSON Schema cannot: ids that must exist in the organization, bytes that must be a real
  image or document, OAuth's grants, signatures, and rules between fields (ranges of dates, "exactly
  one of", intervals that open before they close), see EXPECTED_REFUSALS;
- a cursor (`format: cursor`) made up by the generator: only the server makes them, so valid
  requests start at the first page (an empty cursor); invalid ones are sent as generated;
- `positive_data_acceptance` for a body that breaks a map's rule on its keys (`propertyNames`),
  which the generator, reading OpenAPI 3.0 as JSON Schema draft 4, does not know;
- `negative_data_rejection` for an upload the generator calls invalid only because it reads its
  files as empty (see _valid_with_its_files)."""

from __future__ import annotations

import base64
import io
import os

import jsonschema_rs
import pytest
import schemathesis
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.config import GenerationConfig
from schemathesis.core.jsonschema import make_validator
from schemathesis.errors import SerializationNotPossible
from schemathesis.specs.openapi.checks import negative_data_rejection, positive_data_acceptance
from schemathesis.transport.serialization import Binary

# Every operation of /openapi.json: a new route raises it, and is fuzzed like the others.
OPERATIONS = 380
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "6"))
ONLY = os.environ.get("FUZZ_ONLY", "")  # while working on a route: FUZZ_ONLY=/agenda runs only labels with it
MODES = (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64
# A sticker's WEBP (512×512, lossless, one colour): what the library keeps as it is.
STICKER = base64.b64decode("UklGRi4AAABXRUJQVlA4TCEAAAAv/8F/AAdQ5OpH/wMCgWR/7xmK6H/Gf/7zn//85z//+T8A")
STREAM_SECONDS = 0.5  # an event stream never ends: its first half second is what is checked

ENDS_THE_RUN = {
    "POST /auth/logout": "ends the run's session",
    "DELETE /auth/me/sessions": "closes the run's sessions",
    "DELETE /auth/me/sessions/{session_id}": "could close the run's session",
}

EXPECTED_REFUSALS = {
    "GET /organizations/{org_id}/conversations/search": "the words searched need a letter or a digit",
    "POST /organizations/{org_id}/attendance/holidays/seed": "the country must be one the holidays data knows",
    "POST /organizations/{org_id}/attendance/holidays": "each date once",
    "POST /organizations/{org_id}/attendance/leaves": "agentUserId must be a member of the organization who uses "
                                                      "attendance; the end not before the start",
    "GET /organizations/{org_id}/attendance/report": "from not after to, at most 366 days apart",
    "GET /organizations/{org_id}/attendance/sessions": "from not after to, at most 366 days apart",
    "GET /organizations/{org_id}/attendance/sessions/agent/{agent_id}": "from not after to, at most 366 days apart",
    "GET /organizations/{org_id}/conversations/workload/agent/{user_id}": "from not after to, at most 366 days apart",
    "PATCH /organizations/{org_id}/attendance/work-modes/{agent_id}": "each interval opens before it closes",
    "PUT /organizations/{org_id}/bot/config/{phone_id}": "each interval opens before it closes",
    "POST /organizations/{org_id}/chatapp-links": "phoneNumberId must be a connected number of the organization",
    "POST /organizations/{org_id}/link-pages": "an item has a url or a chatLinkId of the organization, not both",
    "PATCH /organizations/{org_id}/link-pages/{page_id}": "an item has a url or a chatLinkId of the organization, not both",
    "POST /oauth/token": "a generated code or refresh token is unknown: 400 invalid_grant (RFC 6749)",
    "POST /oauth/revoke": "the client must be one that is registered",
    "POST /oauth/introspect": "the client must authenticate as a registered confidential client",
    "POST /webhooks/whatsapp": "a delivery must be signed with the app secret over its raw bytes",
    "POST /organizations/{org_id}/phone-numbers/{phone_number_pk}/profile/picture": "the bytes must be a JPG or PNG",
    "POST /organizations/{org_id}/contact-lists/{list_id}/import": "the bytes must be a CSV with a phone column",
    "POST /organizations/{org_id}/bot/images": "the bytes must be a JPG, PNG or WEBP image",
    "POST /organizations/{org_id}/bot/knowledge": "the bytes must be a PDF, DOCX, TXT, MD or CSV file; agentIds the "
                                                  "organization's own",
    "POST /organizations/{org_id}/bot/knowledge/notes": "agentIds must be the organization's own",
    "POST /organizations/{org_id}/bot/agents": "the model must be one its provider offers (data/ai_models.json); "
                                               "documents and numbers the organization's own",
    "PATCH /organizations/{org_id}/bot/agents/{agent_id}": "the model must be one its provider offers",
    "PUT /organizations/{org_id}/bot/providers/{provider}": "LOCAL needs an address, the others a key the first time; "
                                                            "an address the appliance may reach",
    "POST /organizations/{org_id}/bot/providers/{provider}/check": "a provider is set up (its key, LOCAL's address) "
                                                                   "before its connection is tested",
    "PATCH /organizations/{org_id}/conversations/{conversation_id}/agent": "the agent must be one of the organization's",
    "PATCH /organizations/{org_id}/conversations/{conversation_id}/status": "snoozedUntil only with status snoozed",
    "PATCH /organizations/{org_id}/conversations/{conversation_id}/assignee": "userId must be an active member",
    "GET /organizations/{org_id}/conversations/{conversation_id}/messages": "around must be a message of the "
                                                                           "conversation",
    "POST /organizations/{org_id}/bot/servicios": "each price needs its own label (a cross-field rule)",
    "PATCH /organizations/{org_id}/bot/servicios/{service_id}": "each price needs its own label (a cross-field rule)",
    "POST /organizations/{org_id}/templates": "components follow the network's rules per type",
    "PATCH /organizations/{org_id}/billing/addons": "prorationAt is a preview's moment of the last 15 minutes",
    "POST /organizations/{org_id}/billing/payment-reports": "the amount a number above zero in the currency's unit, "
                                                            "paidAt not in the future, the receipt an upload of the "
                                                            "organization's, each transfer reported once",
    "POST /organizations/{org_id}/billing/payment-methods": "the token must be a card token the processor made",
    "PATCH /organizations/{org_id}/billing/auto-pay": "a card must be kept first; methodId the organization's",
    "POST /organizations/{org_id}/billing/nequi/push": "a Colombian mobile number of ten digits starting with 3, an "
                                                       "amount above zero in the currency's unit",
    "POST /billing/nequi/push": "a Colombian mobile number of ten digits starting with 3, an amount above zero",
    "POST /billing/wompi/events": "an event must carry the checksum made with the events secret",
    "POST /billing/payment-reports": "the amount a number above zero in the currency's unit, paidAt not in the "
                                     "future, each transfer reported once",
    "POST /organizations/{org_id}/catalog/products": "the price a number above zero in the currency's unit, the "
                                                     "currency an ISO 4217 code, addresses https; each retailerId once",
    "PATCH /organizations/{org_id}/catalog/products/{product_id}": "the product must exist; the price a number above "
                                                                   "zero in the currency's unit",
    "POST /organizations/{org_id}/webchat/widgets": "each origin a website's scheme and host (a port up to 65535), "
                                                    "each pre-chat field once; a connected number to join",
    "PATCH /organizations/{org_id}/webchat/widgets/{widget_id}": "the widget must exist; each origin a website's "
                                                                 "scheme and host (a port up to 65535)",
    "POST /organizations/{org_id}/catalog/sync": "products to push and a Meta catalog connected to the account",
    "PUT /organizations/{org_id}/e-invoicing/account": "the client secret and the password are needed the first time",
    "PUT /organizations/{org_id}/orders/settings": "the template must be an approved one of the organization that "
                                                   "can carry keys",
    "POST /organizations/{org_id}/messages": "the payload's shape depends on `type`",
    "POST /organizations/{org_id}/messages/interactive": "required fields depend on `kind`",
    "POST /organizations/{org_id}/messages/product": "exactly one of productRetailerId, products, sections",
    "POST /organizations/{org_id}/messages/carousel": "each card has exactly one of mediaId or mediaLink",
    "POST /organizations/{org_id}/messages/upload": "the file must not be empty (sent as a raw body, its length "
                                                    "is not generated from the document)",
    "POST /organizations/{org_id}/messages/flow": "the flow must be one of the account's",
    "PATCH /organizations/{org_id}/messages/{message_id}/edit": "only a text message the appliance sent can be edited",
    "PUT /organizations/{org_id}/messages/{message_id}/reactions": "one emoji: no letters, digits or spaces",
    "POST /organizations": "the plan must be one of the installation's",
    "PATCH /organizations/{org_id}": "business hours: each interval opens before it closes",
    "POST /organizations/{org_id}/webhooks-outbound": "an http(s) address the appliance may reach, and events of "
                                                      "the catalog",
    "PATCH /organizations/{org_id}/webhooks-outbound/{webhook_id}": "an http(s) address the appliance may reach, "
                                                                    "and events of the catalog",
    "POST /push/subscribe": "the endpoint must be https (or loopback http) and the keys a P-256 point and a 16-byte secret",
    "POST /push/rotate": "the old endpoint must be a known subscription, the new one https with valid keys",
    "POST /organizations/{org_id}/wabas": "the account must exist on the network with that token",
    "POST /organizations/{org_id}/api-keys": "phoneNumberIds must be the organization's own numbers",
    "POST /organizations/{org_id}/bot/rules": "a rule must reply or act; tagId, flowId and phoneNumberIds must be "
                                              "the organization's own",
    "POST /organizations/{org_id}/bot/flows": "a step's fields depend on its type; every next names a step of the "
                                              "flow, no loop without a question, tags are the organization's own",
    "PATCH /organizations/{org_id}/bot/flows/{flow_id}": "a step's fields depend on its type (checked before the "
                                                         "flow is looked up)",
    "POST /organizations/{org_id}/tasks": "conversationId, contactId and assigneeUserId must be the organization's own",
    "POST /organizations/{org_id}/bot/knowledge/url": "a web address the appliance may reach; agentIds the "
                                                      "organization's own",
    "POST /organizations/{org_id}/broadcasts": "phoneNumberId must be a connected number of the organization, the "
                                               "template approved and the audience its own contacts",
    "PATCH /organizations/{org_id}/surveys/config": "the first question has at most 3 options (buttons); "
                                                    "phoneNumberIds the organization's own",
    "GET /organizations/{org_id}/surveys/results": "desde not after hasta, at most 366 days apart",
    "POST /organizations/{org_id}/agenda/appointments": "end after start (at most 7 days), ids the organization's "
                                                        "own, no overlap with another booking",
    "PATCH /organizations/{org_id}/agenda/appointments/{appointment_id}": "the appointment must exist; end after start",
    "GET /organizations/{org_id}/agenda/calendar-provider/connect": "Google needs an OAuth client in the settings",
    "PATCH /organizations/{org_id}/agenda/calendar-provider": "a calendar must be connected first",
    "GET /public/agenda/{token}/calendar.ics": "the token must be one the organization was given",
    "POST /organizations/{org_id}/stickers": "the bytes must be a WEBP or PNG picture that can be made a sticker; "
                                             "one copy of a picture per organization",
    "POST /auth/passkeys/register/options": "passkeys need an https (or localhost) public address: the run's is http",
    "POST /auth/passkeys/register/verify": "a credential an authenticator made for a challenge of the run's, at an "
                                           "https (or localhost) public address",
    "POST /auth/passkeys/login/options": "passkeys need an https (or localhost) public address: the run's is http",
    "POST /auth/passkeys/login/verify": "a credential an authenticator made for a challenge of the run's, at an "
                                        "https (or localhost) public address",
}


@pytest.fixture
def settings(settings, request):
    # An event stream waits for its next event up to the heartbeat: a short one lets each stream's
    # half second be read in half a second (it was 5 s a request, two minutes of the run).
    # Billing on, its processor the Wompi double of the line's simulator: every billing route runs.
    state = request.getfixturevalue("simulator").wompi
    return settings.replace(live_heartbeat_seconds=STREAM_SECONDS / 2, billing="on",
                            wompi_url=request.getfixturevalue("netsim_url") + "/wompi/v1",
                            wompi_public_key=state.public_key, wompi_private_key=state.private_key,
                            wompi_events_secret=state.events_secret, wompi_integrity_secret=state.integrity_secret)


@pytest.fixture
def schema(app):
    loaded = schemathesis.openapi.from_wsgi("/openapi.json", app)
    loaded.config.generation.update(with_security_parameters=False)
    # Uploads sent as a raw body (a message's media): bytes, whatever their type says.
    raw_types = {media_type for item in loaded.raw_schema["paths"].values() for operation in item.values()
                 if isinstance(operation, dict) for media_type in operation.get("requestBody", {}).get("content", {})
                 if media_type not in ("application/json", "multipart/form-data", "application/x-www-form-urlencoded")}
    schemathesis.serializer.alias(sorted(raw_types), "application/octet-stream")
    return loaded


def _records(line) -> dict[str, str]:
    """A few records of the run's organization for paths to name, so that reading them answers 200
    and the answer is checked against the document (a bot image's file is served as image/png, a
    message's picture too): a bot image, a sticker, a contact, a customer's conversation and its picture."""
    auth = {"Authorization": f"Bearer {line.owner['token']}"}
    image = line.client.post(f"/organizations/{line.org_id}/bot/images", headers=auth, content_type="multipart/form-data",
                             data={"file": (io.BytesIO(PNG), "menu.png", "image/png"), "label": "Menú"})
    contact = line.api.post(f"/organizations/{line.org_id}/contacts", {"waId": "5215599990000", "name": "Luz"},
                            token=line.owner["token"])
    line.customer_writes({"type": "image", "image": {"caption": "¿Este?"}},
                         media={"contentBase64": base64.b64encode(PNG).decode(), "mimeType": "image/png"})
    line.deliver()
    conversation = line.get("/conversations")["items"][0]
    message = next(m for m in line.get(f"/conversations/{conversation['id']}/messages")["items"] if m["type"] == "image")
    sticker = line.client.post(f"/organizations/{line.org_id}/stickers", headers=auth, content_type="multipart/form-data",
                               data={"file": (io.BytesIO(STICKER), "sol.webp", "image/webp"), "name": "Sol"})
    return {"image_id": image.json["data"]["id"], "sticker_id": sticker.json["data"]["id"],
            "contact_id": contact.json["data"]["id"],
            "conversation_id": conversation["id"], "message_id": message["id"]}


class Run:
    """Sends cases as the owner, in the run's organization and number, and keeps what failed."""

    def __init__(self, line):
        self.auth = {"Authorization": f"Bearer {line.owner['token']}"}
        self.pinned = {"org_id": line.org_id, "phone_number_pk": line.number["id"], "phone_id": line.number["id"],
                       **_records(line)}
        self.failures: dict[str, str] = {}
        self.reached: set[str] = set()

    def send(self, case, phase: str) -> None:
        operation = case.operation
        positive = case.meta.generation.mode is GenerationMode.POSITIVE
        if not _negated(case, "path"):  # to go past the 404 (unless the path is what is invalid)
            for name, value in self.pinned.items():
                if name in (case.path_parameters or {}):
                    case.path_parameters[name] = value
        if positive and case.query:  # only the server makes cursors: a valid request starts at the first page
            for name in _cursor_parameters(operation):
                if name in case.query:
                    case.query[name] = ""
        refusals_expected = operation.label in EXPECTED_REFUSALS or (positive and not _valid_as_written(case))
        excluded = [positive_data_acceptance] if refusals_expected else []
        if not positive and _valid_with_its_files(case):
            excluded.append(negative_data_rejection)
        try:
            case.call_and_validate(headers=self.auth, excluded_checks=excluded, timeout=STREAM_SECONDS)
        except SerializationNotPossible:
            return
        except BaseException as exc:  # a FailureGroup: all of an operation's, then fail once
            if not isinstance(exc, Exception) and type(exc).__name__ != "FailureGroup":
                raise
            self.failures.setdefault(f"{operation.label} ({phase}, {case.meta.generation.mode.value})", str(exc)[:3000])
        self.reached.add(operation.label)


def _probe_trimming(case, run: Run) -> None:
    """Random data seldom tries it, so each text of a body (the first level) is sent at its
    maxLength plus a space: a server that trims before it checks the length takes it (a knowledge
    title did). The document calls it invalid: anything but a refusal is a failure."""
    body = case.operation.get_body_for_media_type(case.media_type or "")
    if not isinstance(case.body, dict) or body is None:
        return
    for name, rules in (body.optimized_schema.get("properties") or {}).items():
        if rules.get("type") != "string" or "maxLength" not in rules or rules["maxLength"] > 10_000:
            continue
        sent = {**case.body, name: "a" * rules["maxLength"] + " "}
        probe = case.operation.Case(method=case.method, path_parameters=case.path_parameters, query=case.query,
                                    body=sent, media_type=case.media_type)
        answer = probe.call(headers=run.auth)
        if answer.status_code < 400 or answer.status_code >= 500:
            run.failures.setdefault(f"{case.operation.label} (trimming, {name})", f"{answer.status_code}: "
                                    f"{name} of {rules['maxLength']} characters and a space was not refused")


def _negated(case, location: str) -> bool:
    return any(str(getattr(where, "value", where)) == location and info.mode.is_negative
               for where, info in case.meta.components.items())


_BODY_VALIDATORS: dict = {}


def _body_validator(operation, media_type: str):
    key = (operation.label, media_type)
    if key not in _BODY_VALIDATORS:
        body = operation.get_body_for_media_type(media_type)
        _BODY_VALIDATORS[key] = make_validator(body.optimized_schema, jsonschema_rs.Draft7Validator) if body else None
    return _BODY_VALIDATORS[key]


def _valid_as_written(case) -> bool:
    """OpenAPI 3.0 reads its schemas as JSON Schema draft 4, and so does the generator: draft 4 has
    no `propertyNames`, the document's rule on a map's keys (a contact's attribute names). A body
    valid only when that rule is ignored is not one the document calls valid."""
    if not isinstance(case.body, (dict, list)):
        return True
    validator = _body_validator(case.operation, case.media_type)
    return validator is None or validator.is_valid(case.body)


def _valid_with_its_files(case) -> bool:
    """Whether a negative case is only a negative body that is valid with its files as sent.

    The generator (schemathesis 4.32) judges a body with each file read as "": where the document
    says a file is not empty (`minLength: 1`, a bot image), every such body looks invalid to it. So
    breaking a value in a way its rule still takes (a "*" added to a label, which the label's pattern
    allows) made a valid upload it then called invalid, and the server's 201 "accepted invalid data".
    Judged with each file at its real length, such a body is valid, and its acceptance no failure; a
    body invalid in any other way (an empty file too) is still held to a refusal."""
    negated = {str(getattr(where, "value", where)) for where, info in case.meta.components.items()
               if info.mode.is_negative}
    if negated != {"body"} or not isinstance(case.body, dict):
        return False
    files = {name: "x" * len(value.data if isinstance(value, Binary) else value)
             for name, value in case.body.items() if isinstance(value, (Binary, bytes))}
    validator = _body_validator(case.operation, case.media_type)
    return bool(files) and validator is not None and validator.is_valid({**case.body, **files})


def _cursor_parameters(operation) -> list[str]:
    return [parameter.name for parameter in operation.query
            if (parameter.definition.get("schema") or {}).get("format") == "cursor"]


def _cover(schema, operation, run: Run) -> None:
    probed = False
    for case in schema.iter_coverage_cases(operation, generation_modes=list(MODES),
                                           generation_config=GenerationConfig(with_security_parameters=False)):
        run.send(case, "coverage")
        if not probed and case.meta.generation.mode is GenerationMode.POSITIVE and case.media_type == "application/json":
            _probe_trimming(case, run)
            probed = True


def _fuzz(operation, mode, run: Run) -> None:
    @given(case=operation.as_strategy(generation_mode=mode))
    @hypothesis_settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                         suppress_health_check=list(HealthCheck))
    def fuzz(case):
        run.send(case, "fuzzing")

    try:
        fuzz()
    except Unsatisfiable:
        pass  # nothing to make invalid (no parameters, no body): no negative case exists


@pytest.mark.timeout(max(1200, EXAMPLES * 60))  # the suite's 120 s is for ordinary tests
def test_every_operation_does_what_the_document_says(schema, line):
    operations = [result.ok() for result in schema.get_all_operations()]
    labels = {operation.label for operation in operations}
    assert len(operations) == OPERATIONS, f"{len(operations)} operations: update OPERATIONS"
    assert set(ENDS_THE_RUN) <= labels, sorted(set(ENDS_THE_RUN) - labels)
    assert set(EXPECTED_REFUSALS) <= labels, sorted(set(EXPECTED_REFUSALS) - labels)
    run = Run(line)
    chosen = [operation for operation in operations if operation.label not in ENDS_THE_RUN and ONLY in operation.label]
    for operation in chosen:
        _cover(schema, operation, run)
        for mode in MODES:
            _fuzz(operation, mode, run)
    assert not run.failures, "\n\n".join(f"===== {label}\n{text}" for label, text in run.failures.items())
    assert run.reached == {operation.label for operation in chosen}, sorted({o.label for o in chosen} - run.reached)
