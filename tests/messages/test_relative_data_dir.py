"""A newcomer's `make run` keeps data in ./data, a relative path: media stored there is served (it
answered 500 when Flask resolved the relative path against the package instead)."""

import io

import pytest

from tests.messages.test_rich_and_lifecycle import PNG


@pytest.fixture
def settings(settings, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the conftest's data directory is tmp_path/data: name it relatively
    relative = settings.replace(data_dir="data")
    assert relative.data_dir == tmp_path / "data" and relative.data_dir.is_absolute()
    return relative


def test_media_under_a_relative_data_directory_is_served(outbox, tmp_path, monkeypatch):
    uploaded = outbox.call("POST", f"/upload?phoneNumberId={outbox.line.number['id']}",
                           data={"file": (io.BytesIO(PNG), "hogaza.png", "image/png")},
                           content_type="multipart/form-data")
    created = outbox.send(type="image", payload={"id": uploaded.json["data"]["mediaId"]})
    monkeypatch.chdir("/")  # wherever the process is now, the directory was resolved at start
    served = outbox.call("GET", f"/{created.json['data']['id']}/media")
    assert served.status_code == 200 and served.data == PNG
