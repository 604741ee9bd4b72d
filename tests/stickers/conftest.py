"""The library through the API, as an integration would use it: multipart uploads with the owner's
token, and (for sending) the business on the simulated network with the customer's window open."""

import io

import pytest


class Library:
    def __init__(self, line):
        self.line = line
        self.base = f"/organizations/{line.org_id}/stickers"
        self.auth = {"Authorization": f"Bearer {line.owner['token']}"}

    def upload(self, content: bytes, name: str | None = None, filename: str = "sticker.png",
               content_type: str = "image/png", token: str | None = None):
        data = {"file": (io.BytesIO(content), filename, content_type)}
        if name is not None:
            data["name"] = name
        headers = {"Authorization": f"Bearer {token}"} if token else self.auth
        return self.line.client.post(self.base, data=data, headers=headers, content_type="multipart/form-data")

    def added(self, content: bytes, **fields) -> dict:
        answer = self.upload(content, **fields)
        assert answer.status_code == 201, answer.get_json()
        return answer.get_json()["data"]

    def get(self, path: str = "", token: str | None = None, base: str | None = None):
        headers = {"Authorization": f"Bearer {token}"} if token else self.auth
        return self.line.client.get((base or self.base) + path, headers=headers)

    def delete(self, path: str, token: str | None = None):
        headers = {"Authorization": f"Bearer {token}"} if token else self.auth
        return self.line.client.delete(self.base + path, headers=headers)


@pytest.fixture
def library(line):
    return Library(line)
