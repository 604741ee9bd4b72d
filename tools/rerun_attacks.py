"""Issue 17's attacks again, as an attacker would try them, against a real `appliance serve
--sandbox` on loopback (a scratch data directory); prints what each one met. Every line should read
as refused or harmless: see the closing note of issue 17 for the expected answers.

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
finally:
    proc.terminate()
    proc.wait(20)
for name, outcome in res.items():
    print(f"{name}: {outcome}")
