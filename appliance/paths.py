"""Where shipped files live, in a source checkout and in the PyInstaller bundle alike."""

import sys
from pathlib import Path

# In the bundle, PyInstaller unpacks data next to the package under sys._MEIPASS.
ROOT = Path(getattr(sys, "_MEIPASS", Path(__file__).resolve().parent.parent))
WEB_DIR = ROOT / "web"
SHIPPED_DATA_DIR = ROOT / "data"
MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
# The gettext catalogs (core/i18n.py), package data beside the code.
TRANSLATIONS_DIR = Path(__file__).resolve().parent / "translations"

# The files of data/ the product ships (the ones git tracks: see .gitignore). In a checkout, data/ is
# also the default data directory, holding the database, queue, media and secret.key: never shipped.
SHIPPED_DATA_PATTERNS = ("*.json", "*.csv", "*.md")


def shipped_data_files(data_dir: Path = SHIPPED_DATA_DIR) -> list[Path]:
    return sorted(path for pattern in SHIPPED_DATA_PATTERNS for path in data_dir.glob(pattern) if path.is_file())
