# sqlite-vec ships its loadable extension (vec0.so / vec0.dll / vec0.dylib) beside the package and
# loads it by path at run time. PyInstaller's collect_dynamic_libs only matches lib*.so names, so the
# file is listed here explicitly.
from pathlib import Path

import sqlite_vec

_package_dir = Path(sqlite_vec.__file__).parent
binaries = [(str(path), "sqlite_vec") for path in _package_dir.glob("vec0.*")]
assert binaries, f"sqlite-vec's vec0 library not found in {_package_dir}"
