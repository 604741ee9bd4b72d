#!/usr/bin/env python3
"""Makes the data directory of an older program as its users would have left it, packed as a test
fixture: tests/operations/test_upgrade_from_238e48e.py starts today's program on it.

    git worktree add /tmp/old238 238e48e
    .venv/bin/python tools/make_upgrade_fixture.py /tmp/old238 tests/fixtures/upgrade-238e48e.tar.gz
    git worktree remove --force /tmp/old238

(the checkout's test environment: Pillow draws the customer's photo.)

The old checkout's program (run with this Python, whose packages are a superset of what it pinned)
serves in sandbox mode on a scratch data directory, and everything is made through its HTTP API
and its simulated network, as a person and their customers would: the owner and the organization
(whose sandbox business account the program connects), two customers writing texts and a photo,
the business answering, an API key and a knowledge note. The server is stopped with SIGTERM, the
databases are vacuumed, and appliance.db, queue.db, secret.key and media/ are packed (not the lock,
tmp/ or backups). What the fixture holds (credentials, ids, counts, the photo's sha256, the
revision) is written beside it as JSON.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import io
import json
import os
import signal
import socket
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

import requests

OWNER = {"email": "olga@panaderia-sol.test", "password": "pan de masa madre 2026", "name": "Olga Rincón"}
ORGANIZATION = {"name": "Panadería Sol", "slug": "panaderia-sol", "billingEmail": "cuentas@panaderia-sol.test",
                "country": "CO", "currency": "COP", "timezone": "America/Bogota"}
CUSTOMERS = {"ana": ("573001112233", "Ana Pérez"), "luis": ("573004445566", "Luis Gómez")}
API_KEY_SCOPES = ["conversations:read", "messages:read", "messages:send", "contacts:read"]
PACKED = ("appliance.db", "queue.db", "secret.key", "media")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old_checkout", type=Path, help="a checkout (worktree) of the older commit")
    parser.add_argument("output", type=Path, help="the .tar.gz to write; its .json goes beside it")
    args = parser.parse_args(argv)
    old = args.old_checkout.resolve()
    commit = subprocess.run(["git", "-C", str(old), "rev-parse", "HEAD"], capture_output=True, text=True,
                            check=True).stdout.strip()
    _check_the_old_code_loads(old)

    with tempfile.TemporaryDirectory(prefix="upgrade-fixture-") as scratch:
        data_dir = Path(scratch) / "data"
        port = _free_port()
        log_path = Path(scratch) / "server.log"
        server = _start(old, data_dir, port, log_path)
        try:
            record = _make_installation(f"http://127.0.0.1:{port}")
        except BaseException:
            sys.stderr.write(log_path.read_text())
            raise
        finally:
            _stop(server, log_path)
        record["revision"] = _compact_and_read_revision(data_dir)
        _pack(data_dir, args.output)

    record = {"commit": commit, **record, "archiveBytes": args.output.stat().st_size}
    description = args.output.with_name(args.output.name.removesuffix(".tar.gz") + ".json")
    description.write_text(json.dumps(record, indent=2, ensure_ascii=False) + "\n")
    print(f"{args.output}: {record['archiveBytes']} bytes at revision {record['revision']}; {description}")
    return 0


def _old_environment(old: Path) -> dict:
    # The checkout first on the path: this Python may have today's checkout installed (editable).
    return {**os.environ, "PYTHONPATH": str(old), "APPLIANCE_SMTP_URL": "", "APPLIANCE_LOG_LEVEL": "WARNING",
            "APPLIANCE_BASE_URL": ""}


def _check_the_old_code_loads(old: Path) -> None:
    loaded = subprocess.run([sys.executable, "-c", "import appliance; print(appliance.__file__)"], cwd=old,
                            env=_old_environment(old), capture_output=True, text=True, check=True).stdout.strip()
    if Path(loaded).resolve() != old / "appliance" / "__init__.py":
        raise SystemExit(f"the old checkout's program does not load first: {loaded}")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _start(old: Path, data_dir: Path, port: int, log_path: Path) -> subprocess.Popen:
    with open(log_path, "w") as log:  # a file, not a pipe: nobody reads a pipe while the server runs
        server = subprocess.Popen([sys.executable, "-m", "appliance", "--data-dir", str(data_dir), "serve",
                                   "--sandbox", "--port", str(port)], cwd=old, env=_old_environment(old),
                                  stdout=log, stderr=subprocess.STDOUT)
    _until(lambda: _ready(port, server, log_path), what="the old server to answer /health/ready", seconds=60)
    return server


def _ready(port: int, server: subprocess.Popen, log_path: Path) -> bool:
    if server.poll() is not None:
        raise SystemExit(f"the old server stopped:\n{log_path.read_text()}")
    try:
        return requests.get(f"http://127.0.0.1:{port}/health/ready", timeout=2).status_code == 200
    except requests.ConnectionError:
        return False


def _stop(server: subprocess.Popen, log_path: Path) -> None:
    server.send_signal(signal.SIGTERM)
    if server.wait(timeout=60) != 0:
        raise SystemExit(f"the old server did not stop cleanly ({server.returncode}):\n{log_path.read_text()}")


def _until(fetch, check=bool, *, what: str, seconds: float = 30.0):
    deadline = time.monotonic() + seconds
    while True:
        value = fetch()
        if check(value):
            return value
        if time.monotonic() > deadline:
            raise SystemExit(f"waited {seconds} s for {what}; last: {value!r}")
        time.sleep(0.2)


class Client:
    """The old server's API, as the owner (a bearer token) or the simulated network's control API."""

    def __init__(self, base: str):
        self.base, self.token, self.org = base, None, None

    def call(self, method: str, path: str, expect: int = 200, **kwargs):
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        answer = requests.request(method, self.base + path, headers={**headers, **kwargs.pop("headers", {})},
                                  timeout=30, **kwargs)
        if answer.status_code != expect:
            raise SystemExit(f"{method} {path}: {answer.status_code} {answer.text}")
        return answer.json().get("data") if answer.content else None

    def org_call(self, method: str, path: str, expect: int = 200, **kwargs):
        return self.call(method, f"/organizations/{self.org}{path}", expect, **kwargs)

    def control(self, path: str, body: dict) -> dict:
        answer = requests.post(f"{self.base}/netsim/_control{path}", json=body, timeout=40)
        if answer.status_code not in (200, 201):
            raise SystemExit(f"control {path}: {answer.status_code} {answer.text}")
        return answer.json()


def _photo() -> bytes:
    """A small real JPEG, as a customer's phone would send (a warm gradient: a loaf, roughly)."""
    from PIL import Image

    image = Image.new("RGB", (96, 64))
    image.putdata([(200 + x // 2, 120 + y, 40 + (x * y) % 60) for y in range(64) for x in range(96)])
    out = io.BytesIO()
    image.save(out, format="JPEG", quality=80)
    return out.getvalue()


def _make_installation(base: str) -> dict:
    client = Client(base)
    owner = client.call("POST", "/auth/signup", 201, json=OWNER)
    client.token = owner["tokens"]["accessToken"]
    client.org = client.call("POST", "/organizations", 201, json=ORGANIZATION)["id"]
    [waba] = _until(lambda: client.org_call("GET", "/wabas"), what="the sandbox business account")
    [number] = client.org_call("GET", "/phone-numbers")

    conversation_of: dict[str, str] = {}

    def thread(who: str) -> list[dict]:
        if who not in conversation_of:
            found = [c["id"] for c in client.org_call("GET", "/conversations")["items"]
                     if c["contact"]["waId"] == CUSTOMERS[who][0]]
            if not found:
                return []
            conversation_of[who] = found[0]
        return client.org_call("GET", f"/conversations/{conversation_of[who]}/messages", params={"limit": 200})["items"]

    def customer_writes(who: str, message: dict, media: dict | None = None) -> None:
        """The customer writes; once the appliance has it (the network's webhook), the window is open."""
        wa_id, name = CUSTOMERS[who]
        body = {"phoneNumberId": number["phoneNumberId"], "from": wa_id, "name": name, **message}
        wamid = client.control("/inbound", {**body, **({"media": media} if media else {})})["wamid"]
        _until(lambda: [m for m in thread(who) if m["wamid"] == wamid], what=f"{who}'s message {wamid}")

    def business_answers(who: str, text: str, key: str) -> dict:
        return client.org_call("POST", "/messages", 201, headers={"Idempotency-Key": key}, json={
            "phoneNumberId": number["id"], "to": CUSTOMERS[who][0], "type": "text", "payload": {"body": text}})

    customer_writes("ana", {"type": "text", "text": {"body": "Hola, ¿tienen pan de masa madre hoy?"}})
    business_answers("ana", "¡Hola Ana! Sí, salen del horno a las 11.", "fixture-ana-1")
    photo = _photo()
    customer_writes("ana", {"type": "image", "image": {"caption": "¿Es este el de masa madre?"}},
                    media={"contentBase64": base64.b64encode(photo).decode(), "mimeType": "image/jpeg"})
    business_answers("ana", "Esa misma. ¿Te guardo dos?", "fixture-ana-2")
    customer_writes("ana", {"type": "text", "text": {"body": "Sí, dos por favor. Paso a las 12."}})
    customer_writes("luis", {"type": "text", "text": {"body": "Buenas, ¿hacen domicilios a Chapinero?"}})
    business_answers("luis", "Hola Luis, sí: pedidos antes de las 4 p. m.", "fixture-luis-1")

    def settled(messages: list[dict]) -> bool:
        return all(m["status"] in ("delivered", "read") for m in messages if m["direction"] == "out") and all(
            m["mediaStatus"] == "stored" for m in messages if m["direction"] == "in" and m["type"] == "image")

    threads = {who: _until(lambda who=who: thread(who), settled, what=f"{who}'s messages delivered and stored")
               for who in CUSTOMERS}
    # Ana read one of the business's answers (the network's blue ticks).
    first_answer = next(m for m in threads["ana"] if m["direction"] == "out")
    client.control("/read", {"wamid": first_answer["wamid"]})
    _until(lambda: client.org_call("GET", f"/messages/{first_answer['id']}")["status"], lambda s: s == "read",
           what="the first answer read")
    threads = {who: thread(who) for who in CUSTOMERS}
    [photo_message] = [m for m in threads["ana"] if m["type"] == "image"]
    served = requests.get(f"{base}/organizations/{client.org}/messages/{photo_message['id']}/media",
                          headers={"Authorization": f"Bearer {client.token}"}, timeout=30)
    if served.content != photo:
        raise SystemExit("the stored photo is not the one the customer sent")

    key = client.org_call("POST", "/api-keys", 201, json={"name": "ERP de la panadería", "scopes": API_KEY_SCOPES})
    used = requests.get(f"{base}/organizations/{client.org}/conversations", headers={"X-Api-Key": key["secret"]},
                        timeout=30)
    if used.status_code != 200:
        raise SystemExit(f"the new API key does not authenticate: {used.status_code} {used.text}")

    note = client.org_call("POST", "/bot/knowledge/notes", 201, json={
        "title": "Horarios y domicilios",
        "content": "Abrimos de lunes a sábado de 7 a. m. a 7 p. m. El pan de masa madre sale a las 11 a. m. "
                   "Hacemos domicilios en Chapinero y Teusaquillo para pedidos antes de las 4 p. m."})
    _until(lambda: client.org_call("GET", f"/bot/knowledge/{note['id']}")["status"], lambda s: s == "READY",
           what="the knowledge note read", seconds=120)
    requests.post(f"{base}/netsim/_control/wait", timeout=40)  # every webhook of the network delivered

    return {
        "owner": {"email": OWNER["email"], "password": OWNER["password"], "userId": owner["user"]["id"]},
        "organizationId": client.org,
        "apiKey": {"id": key["id"], "secret": key["secret"], "scopes": key["scopes"]},
        "businessAccount": {"id": waba["id"], "wabaId": waba["wabaId"], "sandbox": True},
        "phoneNumber": {"id": number["id"], "phoneNumberId": number["phoneNumberId"],
                        "displayPhoneNumber": number["displayPhoneNumber"]},
        "conversations": [{"id": conversation_of[who], "customer": CUSTOMERS[who][0],
                           "messages": len(threads[who]), "messageIds": sorted(m["id"] for m in threads[who]),
                           "inbound": sum(m["direction"] == "in" for m in threads[who]),
                           "outbound": sum(m["direction"] == "out" for m in threads[who])} for who in CUSTOMERS],
        "media": {"messageId": photo_message["id"], "conversationId": conversation_of["ana"],
                  "mimeType": "image/jpeg", "sizeBytes": len(photo), "sha256": hashlib.sha256(photo).hexdigest()},
        "knowledgeDocument": {"id": note["id"], "title": note["title"]},
    }


def _compact_and_read_revision(data_dir: Path) -> str:
    """Vacuum both databases (the fixture is committed: free pages are only weight) and answer the
    schema's revision. The program's own SQLite (pysqlite3), not the one Python was built with."""
    from pysqlite3 import dbapi2 as sqlite

    for name in ("appliance.db", "queue.db"):
        connection = sqlite.connect(data_dir / name, isolation_level=None)
        try:
            connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            connection.execute("VACUUM")
            if name == "appliance.db":
                [(revision,)] = connection.execute("SELECT version_num FROM alembic_version").fetchall()
        finally:
            connection.close()
    left = [p.name for p in data_dir.glob("*.db-*")]  # the last connection's close removes its WAL
    if left:
        raise SystemExit(f"the databases were not closed cleanly: {left}")
    return revision


def _pack(data_dir: Path, output: Path) -> None:
    output.parent.mkdir(parents=True, exist_ok=True)
    with tarfile.open(output, "w:gz", compresslevel=9) as archive:
        for name in PACKED:
            archive.add(data_dir / name, arcname=name, recursive=True)


if __name__ == "__main__":
    sys.exit(main())
