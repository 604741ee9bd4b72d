"""Domain-free building blocks. Nothing in this package imports flask."""
