"""Filling the server-rendered forms as a browser would, over the Flask test client."""

import re
from urllib.parse import urlencode

PASSWORD = "correct horse battery"
BROWSER = "TestBrowser/1.0"


def csrf_of(page) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)


def sign_in(client, email="ana@example.com", password=PASSWORD, code=None, next_path=None):
    query = f"?{urlencode({'next': next_path})}" if next_path else ""
    form = client.get(f"/sign-in{query}")
    data = {"csrf": csrf_of(form), "email": email, "password": password}
    if code:
        data["code"] = code
    return client.post(f"/sign-in{query}", data=data, headers={"User-Agent": BROWSER})
