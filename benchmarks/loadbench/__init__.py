"""The scale benchmark behind ``benchmarks/load.py``: generate, import, verify, serve, measure."""
