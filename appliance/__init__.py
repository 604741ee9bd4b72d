"""The business messaging appliance: one process, one SQLite file, one installer."""

import os

__version__ = "0.1.0"

# numpy's OpenBLAS starts a thread per core for the embedding model's small products, and its
# threads spin while they wait for work. On a two-core machine that tripled the CPU of each
# question's embedding (4.3 -> 12.7 ms; 18 ms and a doubled p95 when the other core was busy) for
# documents embedded 5% sooner at twice the CPU: the appliance's other threads need that core more.
# Set here, before anything loads numpy; a value from the environment wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
