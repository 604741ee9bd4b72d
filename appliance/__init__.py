"""The business messaging appliance: one process, one SQLite file, one installer."""

__version__ = "0.1.0"
