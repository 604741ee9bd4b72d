"""One send on the network, and what its answer means for the queue.

- **Pacing** (pacing.py): the number's throughput gate and the pair rate, so the appliance does not
  provoke 130429 or 131056. A message over the pair rate waits (`next_attempt_at`), not counted as
  an attempt.
- **Retries**: a retryable refusal (throttling, outages, a connection that never opened) is tried
  again with back-off, up to MAX_ATTEMPTS; anything else fails the message at once with the
  network's code, explained by the catalog. 190 also marks the business account for re-authorization
  (queue.record).
"""

from __future__ import annotations

import logging
import threading

from appliance.graph_api.client import TRANSPORT_ERROR, GraphError
from appliance.graph_api.errors import explain
from appliance.messages.sending import local_media, template_fill
from appliance.messages.sending.pacing import Pacer
from appliance.messages.sending.queue import MAX_ATTEMPTS, MAYBE_DELIVERED, Answer, Job, Line
from appliance.wabas.network import graph_client

log = logging.getLogger("appliance.sender")

RETRY_SECONDS = (2, 10, 30, 120, 600)  # before attempts 2..6


def network_body(job: Job, payload=None) -> dict:
    if payload is None:
        payload = template_fill.network_template(job.payload) if job.kind == "template" else job.payload
    body = {"recipient_type": "individual", "to": job.to, "type": job.kind,
            job.kind: payload, "biz_opaque_callback_data": job.message_id}
    if job.reply_to_wamid and job.kind != "reaction":
        body["context"] = {"message_id": job.reply_to_wamid}
    return body


def send_one(line: Line, job: Job, pacing: Pacer, stop: threading.Event | None = None) -> Answer:
    wait = pacing.pairs.take(line.phone_number_pk, job.to)
    if wait:
        return Answer(job, "wait", delay=wait)
    gate = pacing.gate(line.phone_number_pk, line.rate)
    if not gate.acquire(stop=stop):
        return Answer(job, "wait")
    try:
        payload = local_media.network_payload(line, job.payload) if local_media.is_local(job.payload) else None
        answer = graph_client().send_message(line.token, line.phone_number_id, network_body(job, payload))
    except GraphError as error:
        return _classify(job, error)
    except Exception as exc:  # a bug here must not leave the message in the air
        log.exception("sending message %s failed", job.message_id)
        return Answer(job, "failed", error=GraphError(0, 1, f"Unexpected error: {exc.__class__.__name__}"))
    finally:
        gate.release()
    messages = answer.get("messages") if isinstance(answer, dict) else None
    wamid = messages[0].get("id") if isinstance(messages, list) and messages and isinstance(messages[0], dict) else None
    if not isinstance(wamid, str) or not wamid:
        return Answer(job, "failed", error=GraphError(200, MAYBE_DELIVERED, "The network accepted the "
                                                                 "request but named no message id"))
    return Answer(job, "sent", wamid=wamid)


def _classify(job: Job, error: GraphError) -> Answer:
    if error.code == TRANSPORT_ERROR and error.maybe_delivered:
        return Answer(job, "failed", error=GraphError(0, MAYBE_DELIVERED, explain(MAYBE_DELIVERED).title,
                                                                 details=error.message))
    if error.retryable and job.attempts < MAX_ATTEMPTS:
        return Answer(job, "retry", error=error, delay=retry_delay(error.code, job.attempts))
    return Answer(job, "failed", error=error)


def retry_delay(code: int, attempts: int) -> float:
    if code == 131056:  # Meta: pair rate exceeded, wait 4^X seconds
        return float(min(4 ** attempts, 900))
    if code == 130429:  # throughput: the next second has room again
        return 1.0 * attempts
    return float(RETRY_SECONDS[min(attempts, len(RETRY_SECONDS)) - 1])
