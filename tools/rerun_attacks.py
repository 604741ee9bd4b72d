"""Issue 17's attacks again, and issue 44's (lines "R3 ..."), as an attacker would try them, against a
real `appliance serve --sandbox` on loopback (a scratch data directory), and a production `serve` for
the simulator's doubles; prints what each one met. Every line should read as refused or harmless:
see the closing notes of issues 17 and 44 for the expected answers.

Run: .venv/bin/python tools/rerun_attacks.py"""
import base64
import os
import socket
import sqlite3
import stat
import subprocess
import sys
import tempfile
import time

import requests

with socket.socket() as probe:
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
DATA = tempfile.mkdtemp(prefix="attacks-") + "/data"
proc = subprocess.Popen([sys.executable, "-m", "appliance", "--data-dir", DATA, "serve", "--sandbox", "--port", str(port)],
                        stdout=open(DATA + ".log", "w"), stderr=subprocess.STDOUT)
B = f"http://127.0.0.1:{port}"
for _ in range(100):
    try:
        if requests.get(B + "/health/ready", timeout=1).status_code == 200:
            break
    except requests.RequestException:
        time.sleep(0.2)
res = {}
try:
    s = requests.post(B + "/auth/signup", json={"email": "o1@x.test", "password": "correct horse battery", "name": "O"}).json()["data"]
    H = {"Authorization": f"Bearer {s['tokens']['accessToken']}"}
    org = requests.post(B + "/organizations", json={"name": "O1", "slug": "o-one", "billingEmail": "b@x.test"}, headers=H).json()["data"]["id"]
    # 1 stored XSS through a customer's SVG
    time.sleep(1.5)
    nums = requests.get(f"{B}/organizations/{org}/phone-numbers", headers=H).json()["data"]
    svg = b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'
    r = requests.post(B + "/netsim/_control/inbound", json={"phoneNumberId": nums[0]["phoneNumberId"], "from": "5215511112222", "type": "document",
        "document": {"filename": "x.svg"}, "media": {"contentBase64": base64.b64encode(svg).decode(), "mimeType": "image/svg+xml"}})
    time.sleep(2)
    conv = requests.get(f"{B}/organizations/{org}/conversations", headers=H).json()["data"]["items"][0]
    msgs = requests.get(f"{B}/organizations/{org}/conversations/{conv['id']}/messages", headers=H).json()["data"]["items"]
    m = requests.get(f"{B}/organizations/{org}/messages/{msgs[0]['id']}/media", headers=H)
    res["1 svg served as"] = (m.headers.get("Content-Type"), m.headers.get("Content-Disposition", "")[:10], m.headers.get("Content-Security-Policy"))
    # 2 streams: one key takes them all?
    key = requests.post(f"{B}/organizations/{org}/api-keys", json={"name": "k"}, headers=H).json()["data"]["secret"]
    streams, codes = [], []
    for _ in range(8):
        r = requests.get(f"{B}/organizations/{org}/events", headers={"X-Api-Key": key}, stream=True, timeout=5)
        codes.append(r.status_code)
        streams.append(r)
    res["2 streams with one key"] = codes
    for r in streams:
        r.close()
    t0 = time.time()
    while True:
        r = requests.get(f"{B}/organizations/{org}/events", headers={"X-Api-Key": key}, stream=True, timeout=5)
        if r.status_code == 200 or time.time() - t0 > 20:
            break
        r.close()
        time.sleep(0.1)
    res["2 slot back after close (s)"] = round(time.time() - t0, 2)
    r.close()
    # 3 deep JSON
    res["3 deep json /auth/login"] = requests.post(B + "/auth/login", data=b"[" * 1000 + b"]" * 1000, headers={"Content-Type": "application/json"}).json()["code"]
    # 4 control API webhook redirection
    acct = requests.get(f"{B}/organizations/{org}/wabas", headers=H).json()["data"][0]["wabaId"]
    res["4 webhook off the machine"] = requests.put(f"{B}/netsim/_control/accounts/{acct}/webhook", json={"url": "https://evil.example/x"}).status_code
    # 5 mail bodies in the database
    row = sqlite3.connect(DATA + "/appliance.db").execute("select body, length(body_sealed) from outgoing_mails").fetchone()
    res["5 mail body at rest"] = row
    res["5 modes"] = oct(stat.S_IMODE(os.stat(DATA).st_mode)), oct(stat.S_IMODE(os.stat(DATA + "/appliance.db").st_mode))
    # 6 token with non-latin-1
    res["6 token ñ"] = requests.post(f"{B}/organizations/{org}/wabas", json={"wabaId": "1", "accessToken": "EAAñ", "appSecret": "s"}, headers=H).status_code
    l1 = requests.post(f"{B}/organizations/{org}/contact-lists", json={"name": "Über"}, headers=H).status_code
    l2 = requests.post(f"{B}/organizations/{org}/contact-lists", json={"name": "Über"}, headers=H).status_code
    res["6 Über twice"] = (l1, l2)
    # 7 another org's membership
    s2 = requests.post(B + "/auth/signup", json={"email": "o2@x.test", "password": "correct horse battery", "name": "E"}).json()["data"]["tokens"]["accessToken"]
    mid = requests.get(f"{B}/organizations/{org}/memberships", headers=H).json()["data"][0]["id"]
    res["7 foreign membership"] = requests.patch(f"{B}/memberships/{mid}/suspension", json={"suspended": True}, headers={"Authorization": f"Bearer {s2}"}).status_code
    # 8 headers
    p = requests.get(B + "/sign-in")
    res["8 sign-in headers"] = (p.headers.get("X-Frame-Options"), "script-src 'self'" in p.headers.get("Content-Security-Policy", ""), p.headers.get("X-Content-Type-Options"))
    # 9 scope ids
    res["9 foreign scope id"] = requests.post(f"{B}/organizations/{org}/api-keys", json={"name": "z", "phoneNumberIds": ["01a20000-0000-7000-8000-000000000000"]}, headers=H).status_code
    # 10
    res["10 bidi name"] = requests.post(f"{B}/organizations/{org}/contacts", json={"waId": "573001112222", "name": "a\u202eb"}, headers=H).status_code
    res["10 1.9"] = requests.patch(f"{B}/organizations/{org}/phone-numbers/{nums[0]['id']}", json={"messagesPerSecond": 80.5}, headers=H).status_code
    res["10 mk_test_"] = requests.get(f"{B}/organizations/{org}", headers={"X-Api-Key": key.replace("mk_live_", "mk_test_")}).status_code
    res["10 preflight /oauth/token"] = requests.options(B + "/oauth/token", headers={"Origin": "https://spa.example", "Access-Control-Request-Method": "POST"}).status_code
    res["11 PUT /oauth/token"] = requests.put(B + "/oauth/token").status_code
    # Round 3 (issue 44). 1: an AI provider's address on the metadata service, the LAN, loopback or
    # the appliance itself (400 url_not_allowed, nothing fetched or echoed).
    for target in ("http://169.254.169.254/latest#", "http://10.0.0.5:11434", f"http://127.0.0.1:{port}",
                   "http://[::1]:22", "http://localhost:6379"):
        r = requests.put(f"{B}/organizations/{org}/bot/providers/LOCAL", json={"baseUrl": target}, headers=H)
        res[f"R3 1 LOCAL at {target}"] = (r.status_code, r.json().get("code"))
    # 3: an outbound webhook to loopback and link-local addresses.
    for target in (f"http://127.0.0.1:{port}/health/ready", "http://169.254.169.254/", "http://192.168.1.1/hook"):
        r = requests.post(f"{B}/organizations/{org}/webhooks-outbound", json={"url": target, "events": ["message.created"]},
                          headers=H)
        res[f"R3 3 webhook to {target}"] = (r.status_code, r.json().get("code"))
    # 11: ids that do not exist in bodies (were 500s).
    missing = "01a20000-0000-7000-8000-000000000000"
    r = requests.post(f"{B}/organizations/{org}/bot/rules", json={"name": "x", "keywords": ["x"], "reply": "y",
                                                                  "imageId": missing}, headers=H)
    res["R3 11 rule with an unknown imageId"] = (r.status_code, r.json().get("code"))
    r = requests.post(f"{B}/organizations/{org}/tasks", json={"title": "x", "conversationId": missing}, headers=H)
    res["R3 11 task with an unknown conversationId"] = (r.status_code, r.json().get("code"))
    # 17: PUT where only other methods are served, with a body the limits would refuse.
    r = requests.put(B + "/oauth/authorize", data="<x/>", headers={"Content-Type": "application/xml"})
    res["R3 17 PUT /oauth/authorize with XML"] = r.status_code
    # 4: a DOCX whose 150 KB expand to 60 MB of text (answered at once; the document fails in the background).
    import io
    import zipfile
    bomb = io.BytesIO()
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as docx:
        docx.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/'
                      'package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/>'
                      '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-'
                      'officedocument.wordprocessingml.document.main+xml"/></Types>')
        docx.writestr("word/document.xml", '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/'
                      '2006/main"><w:body><w:p><w:r><w:t>' + "a" * 60_000_000 + '</w:t></w:r></w:p></w:body></w:document>')
    t0 = time.time()
    r = requests.post(f"{B}/organizations/{org}/bot/knowledge", headers=H,
                      files={"file": ("bomb.docx", bomb.getvalue())}, data={"title": "bomb"})
    res["R3 4 zip-bomb DOCX answered in (s)"] = (r.status_code, round(time.time() - t0, 2), len(bomb.getvalue()))
    if r.status_code == 201:
        document = r.json()["data"]["id"]
        for _ in range(120):
            shown = requests.get(f"{B}/organizations/{org}/bot/knowledge/{document}", headers=H).json()["data"]
            if shown["status"] != "PROCESSING":
                break
            time.sleep(0.5)
        res["R3 4 zip-bomb DOCX ends"] = (shown["status"], (shown.get("error") or "")[:80])
    # 6: 110 sockets trickling headers, then a normal request.
    slow = []
    for _ in range(110):
        sock = socket.create_connection(("127.0.0.1", port))
        sock.sendall(b"GET /health/ready HTTP/1.1\r\nHost: x\r\n")
        slow.append(sock)
    t0 = time.time()
    ok = requests.get(B + "/health/ready", timeout=10).status_code
    res["R3 6 a request beside 110 slow sockets (status, s)"] = (ok, round(time.time() - t0, 2))
    for sock in slow:
        sock.close()
finally:
    proc.terminate()
    proc.wait(20)

# 9: the simulator's doubles on a production server (no --sandbox).
PROD = DATA + "-production"
proc = subprocess.Popen([sys.executable, "-m", "appliance", "--data-dir", PROD, "serve", "--port", str(port)],
                        stdout=open(PROD + ".log", "w"), stderr=subprocess.STDOUT)
for _ in range(100):
    try:
        if requests.get(B + "/health/ready", timeout=1).status_code == 200:
            break
    except requests.RequestException:
        time.sleep(0.2)
try:
    for path in ("/netsim/_control/sent", "/netsim/ai/openai/v1/models", "/netsim/google/o/oauth2/v2/auth?redirect_uri=https://evil.example",
                 "/netsim/google/token", "/netsim/v23.0/123/phone_numbers"):
        res[f"R3 9 production {path}"] = requests.get(B + path, allow_redirects=False).status_code
finally:
    proc.terminate()
    proc.wait(20)
for name, outcome in res.items():
    print(f"{name}: {outcome}")
