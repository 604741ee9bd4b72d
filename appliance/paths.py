"""Where shipped files live, in a source checkout and in the PyInstaller bundle alike."""

import sys
from pathlib import Path

# In the bundle, PyInstaller unpacks data next to the package under sys._MEIPASS.
ROOT = Path(getattr(sys, "_MEIPASS", Path(__file__).resolve().parent.parent))
WEB_DIR = ROOT / "web"
SHIPPED_DATA_DIR = ROOT / "data"
MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
