"""The appliance's own backups archive the SQLite database file: these tests run their installation
on SQLite whichever engine the suite runs on (on PostgreSQL the backups are refused:
test_by_postgresql.py, which makes its own PostgreSQL installation)."""

from tests.fixtures import engines, sqlite_installation

if engines.ON_POSTGRES:  # on SQLite the suite's own fixtures are these already
    database_url, template_data_dir = sqlite_installation.database_url, sqlite_installation.template_data_dir
