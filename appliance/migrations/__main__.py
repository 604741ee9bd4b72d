"""`python -m appliance.migrations "message"`: autogenerate a revision against a scratch database."""

import sys
import tempfile
from pathlib import Path

from appliance import migrations
from appliance.core.db import Database

if len(sys.argv) != 2:
    raise SystemExit('usage: python -m appliance.migrations "what changed"')
with tempfile.TemporaryDirectory() as scratch:
    database = Database(Path(scratch) / "scratch.db")
    migrations.upgrade(database)
    migrations.autogenerate(database, sys.argv[1])
