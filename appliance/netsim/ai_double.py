"""The AI double: a chat model that speaks the three shapes the appliance's clients speak (OpenAI
chat completions, Anthropic Messages, Gemini generateContent), for the sandbox and the tests.

Deterministic and grounded: it answers with the sentence of its context (system prompt and tool
results) that shares the most words with the customer's last message, or says it does not know.
Offered a `knowledge_search` tool and holding no tool result for the last question, it calls the
tool first, as a real model would; offered the agenda's tools and given a date (YYYY-MM-DD, and a
time HH:MM to book), it asks `free_slots` or calls `book_appointment`, and passes on the `summary`
sentence a tool answers with. It counts tokens as words, can be slowed down or made to fail
(`PUT /_control/ai`), and keeps every call for tests to read (`GET /_control/ai/calls`).

Served by the simulator's app (app.py's routes call the `*_answer` functions here) under /ai/openai,
/ai/anthropic and /ai/gemini, so the sandbox's LOCAL provider points at {sandbox}/netsim/ai/openai.
Each function takes the request's JSON and headers and answers (status, JSON or text).
"""

from __future__ import annotations

import ast
import json
import re
import threading
import time
import unicodedata
import uuid
from dataclasses import dataclass, field

from appliance.netsim.bounded import BoundedLog, json_size

MODELS = ("double-small", "double-large")
# The calls kept for tests to read: the newest 500, within 16 MB; a body over 256 KB is kept as its size.
MAX_CALLS, MAX_CALL_BYTES, MAX_KEPT_BODY, MAX_FAULTS = 500, 16 << 20, 256 << 10, 100
_WORD = re.compile(r"\w+", re.UNICODE)
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
UNKNOWN = "No tengo ese dato. Te comunico con una persona del equipo."
NUDGE = "¿Sigues por ahí? Si quieres, seguimos donde lo dejamos."


@dataclass
class AIState:
    delay_seconds: float = 0.0
    fail_next: list = field(default_factory=list)  # HTTP statuses, or "garbage" for a non-JSON answer
    calls: BoundedLog = field(default_factory=lambda: BoundedLog(max_items=MAX_CALLS, max_bytes=MAX_CALL_BYTES))
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def update(self, changes: dict) -> None:
        delay = changes.get("delaySeconds", self.delay_seconds)
        failures = changes.get("failNext", self.fail_next)
        if not isinstance(delay, (int, float)) or not 0 <= delay <= 120:
            raise ValueError("delaySeconds: 0 to 120")
        if not isinstance(failures, list) or len(failures) > MAX_FAULTS or not all(
                f == "garbage" or (isinstance(f, int) and 400 <= f <= 599) for f in failures):
            raise ValueError("failNext: a list of HTTP statuses (400-599) or \"garbage\"")
        with self.lock:
            self.delay_seconds, self.fail_next = float(delay), list(failures)
            if changes.get("clearCalls"):
                self.calls.clear()


def _words(text: str) -> set[str]:
    folded = "".join(c for c in unicodedata.normalize("NFKD", text.casefold()) if not unicodedata.combining(c))
    return {w for w in _WORD.findall(folded) if len(w) >= 4}


def answer_from(question: str, context: list[str]) -> str:
    """The context's sentence sharing the most words with the question (ties: the first)."""
    wanted = _words(question)
    best, best_score = None, 0
    for text in context:
        for sentence in _SENTENCE.split(text):
            sentence = sentence.strip(" #*-")
            score = len(wanted & _words(sentence))
            if score > best_score and sentence.casefold() != question.casefold():
                best, best_score = sentence, score
    return best or UNKNOWN


_CHOICE = re.compile(r"Answer with exactly one of: (.+?)\. ")


def choose(question: str, options: list[str]) -> str:
    """The option sharing the most words with the question (a word matches one starting with its
    first five letters: envíos finds envío), else the option "none" (or the last)."""
    asked = {w[:5] for w in _words(question)}
    scored = [(len(asked & {w[:5] for w in _words(option)}), option) for option in options]
    best = max(scored, key=lambda pair: pair[0], default=(0, ""))
    return best[1] if best[0] else next((o for o in options if o.casefold() == "none"), options[-1] if options else "")


@dataclass
class _Turn:
    """A call in the shape-neutral form the double reasons on."""
    system: str
    user_texts: list[str]
    tool_results: list[str]  # after the last user message
    tool_names: list[str]


def _reply(turn: _Turn) -> tuple[str, dict | None]:
    """(text, tool call {name, arguments} or None). A last message in brackets is a note about the
    conversation, not the customer's words (the appliance's "[No answer from the customer for 60
    minutes]" asking for a follow-up): the double nudges, as a model told so would."""
    question = turn.user_texts[-1] if turn.user_texts else ""
    if question.startswith("[") and question.endswith("]"):
        return NUDGE, None
    choice = _CHOICE.search(turn.system)
    if choice:  # "Answer with exactly one of: a | b | none": the option closest to the question
        return choose(question, [option.strip() for option in choice.group(1).split("|")]), None
    summary = next((found for found in map(_summary_of, turn.tool_results) if found), None)
    if summary:  # a tool answered with a sentence for the customer (the agenda's): passed on
        return summary, None
    when = _WHEN.search(question)
    if when and not turn.tool_results:  # a date (and a time) in the question: the agenda's tools
        day, at = when.groups()
        if at and "book_appointment" in turn.tool_names:
            return "", {"name": "book_appointment", "arguments": {"start": f"{day}T{at.zfill(5)}", "durationMin": 30}}
        if "free_slots" in turn.tool_names:
            return "", {"name": "free_slots", "arguments": {"date": day}}
    if "knowledge_search" in turn.tool_names and not turn.tool_results and question:
        return "", {"name": "knowledge_search", "arguments": {"query": question}}
    return answer_from(question, [turn.system, *turn.tool_results]), None


_WHEN = re.compile(r"(\d{4}-\d{2}-\d{2})(?:\D{1,10}?(\d{1,2}:\d{2}))?")


def _summary_of(result: str) -> str | None:
    """A tool result's `summary` (JSON, or Gemini's response as the appliance wrapped it)."""
    try:
        data = json.loads(result)
    except ValueError:
        try:
            data = ast.literal_eval(result)
        except (ValueError, SyntaxError):
            return None
    for _ in range(2):  # the result itself, or inside Gemini's {"result": ...}
        if isinstance(data, str):
            try:
                data = json.loads(data)
            except ValueError:
                return None
        if isinstance(data, dict) and isinstance(data.get("summary"), str):
            return data["summary"]
        data = data.get("result") if isinstance(data, dict) else None
    return None


def _tokens(*texts: str) -> int:
    return sum(len(t.split()) for t in texts)


Answer = tuple[int, object]  # (HTTP status, a JSON-able body, or text for a garbage answer)
_CREDENTIAL_HEADERS = ("authorization", "x-api-key", "x-goog-api-key", "anthropic-version")


def record_and_fault(state: AIState, path: str, body: dict | None, headers: dict) -> Answer | None:
    """Keep the call, sleep if asked to, then fail if asked to; None to answer normally."""
    with state.lock:
        delay = state.delay_seconds
        failure = state.fail_next.pop(0) if state.fail_next else None
        size = json_size(body)
        state.calls.append({"path": path, "body": body if size <= MAX_KEPT_BODY else {"omitted": f"{size} bytes"},
                            "headers": {k: v[:200] for k, v in headers.items() if k.lower() in _CREDENTIAL_HEADERS}})
    if delay:
        time.sleep(delay)
    if failure == "garbage":
        return 200, "<html>Bad gateway</html>"
    if failure is not None:
        return failure, {"error": {"message": f"simulated {failure}", "type": "simulated", "code": failure}}
    return None


def key_refused(headers: dict, name: str) -> Answer | None:
    value = next((v for k, v in headers.items() if k.lower() == name), "")
    if not value or value.endswith("invalid"):
        return 401, {"error": {"message": "Invalid API key", "type": "authentication_error"}}
    return None


def openai_answer(body: dict) -> Answer:
    messages = body.get("messages") or []
    last_user = max((i for i, m in enumerate(messages) if m.get("role") == "user"), default=-1)
    turn = _Turn(" ".join(m.get("content") or "" for m in messages if m.get("role") == "system"),
                 [m.get("content") or "" for m in messages if m.get("role") == "user"],
                 [m.get("content") or "" for m in messages[last_user + 1:] if m.get("role") == "tool"],
                 [t.get("function", {}).get("name") for t in body.get("tools") or ()])
    text, call = _reply(turn)
    message = {"role": "assistant", "content": text or None}
    if call:
        message["tool_calls"] = [{"id": f"call_{uuid.uuid4().hex[:8]}", "type": "function",
                                  "function": {"name": call["name"], "arguments": json.dumps(call["arguments"])}}]
    return 200, {"id": f"chatcmpl-{uuid.uuid4().hex[:12]}", "object": "chat.completion", "model": body.get("model"),
                 "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if call else "stop"}],
                 "usage": {"prompt_tokens": _tokens(*(m.get("content") or "" for m in messages)),
                           "completion_tokens": _tokens(text)}}


def anthropic_answer(body: dict) -> Answer:
    users, results = [], []
    for m in body.get("messages") or []:
        if m.get("role") != "user":
            continue
        content = m.get("content")
        if isinstance(content, str):
            users.append(content)
            results = []
            continue
        blocks = content or []
        texts = [b.get("text", "") for b in blocks if b.get("type") == "text"]
        if texts:
            users.append(" ".join(texts))
            results = []
        results += [str(b.get("content", "")) for b in blocks if b.get("type") == "tool_result"]
    text, call = _reply(_Turn(body.get("system") or "", users, results, [t.get("name") for t in body.get("tools") or ()]))
    content = [{"type": "text", "text": text}] if text else []
    if call:
        content.append({"type": "tool_use", "id": f"toolu_{uuid.uuid4().hex[:10]}", "name": call["name"],
                        "input": call["arguments"]})
    return 200, {"id": f"msg_{uuid.uuid4().hex[:12]}", "type": "message", "role": "assistant", "model": body.get("model"),
                 "content": content, "stop_reason": "tool_use" if call else "end_turn",
                 "usage": {"input_tokens": _tokens(body.get("system") or "", *users, *results), "output_tokens": _tokens(text)}}


def gemini_answer(body: dict) -> Answer:
    users, results = [], []
    for content in body.get("contents") or []:
        if content.get("role") != "user":
            continue
        parts = content.get("parts") or []
        texts = [p["text"] for p in parts if "text" in p]
        if texts:
            users.append(" ".join(texts))
            results = []
        results += [str((p["functionResponse"].get("response") or {})) for p in parts if "functionResponse" in p]
    system = " ".join(p.get("text", "") for p in (body.get("systemInstruction") or {}).get("parts") or [])
    names = [d.get("name") for t in body.get("tools") or () for d in t.get("functionDeclarations") or ()]
    text, call = _reply(_Turn(system, users, results, names))
    parts = [{"text": text}] if text else []
    if call:
        parts.append({"functionCall": {"name": call["name"], "args": call["arguments"]}})
    return 200, {"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP"}],
                 "usageMetadata": {"promptTokenCount": _tokens(system, *users, *results),
                                   "candidatesTokenCount": _tokens(text)}}


def model_list(shape: str) -> dict:
    if shape == "gemini":
        return {"models": [{"name": f"models/{m}"} for m in MODELS]}
    return {"object": "list", "data": [{"id": m, "object": "model", "owned_by": "double"} for m in MODELS]}
