"""Issue 17, finding 5: data files were 0644 (the database, with customers' messages, readable by any
user of the machine). The data directory is 0700 and what the appliance writes in it 0600."""

import os
import stat

import pytest

from appliance import bootstrap
from appliance.core import runtime
from appliance.settings import load_settings


@pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX's (Windows keeps ACLs)")
def test_the_data_directory_is_its_users_alone(tmp_path):
    data_dir = tmp_path / "data"
    data_dir.mkdir(mode=0o755)
    (data_dir / "old.db").write_text("from an earlier version")
    os.chmod(data_dir / "old.db", 0o644)
    umask = os.umask(0o022)
    try:
        bootstrap.start(load_settings({}, data_dir=data_dir), migrate=True, queue_immediate=True)
        runtime.get().db.dispose()
        assert stat.S_IMODE(data_dir.stat().st_mode) == 0o700
        for entry in data_dir.iterdir():
            assert stat.S_IMODE(entry.stat().st_mode) == (0o700 if entry.is_dir() else 0o600), entry
    finally:
        os.umask(umask)
