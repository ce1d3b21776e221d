"""How many processes a command runs: its ``--jobs`` option, every core by default.

Apart from the commands (``engine verify``, ``manage.py import_logs``), so that a command of the
service can take the option without importing the engine's command line.
"""

from __future__ import annotations

import argparse
import os
import sys


def all_cores() -> int:
    """The cores this process may run on (its CPU affinity, from Python 3.13), at least 1."""
    if sys.version_info >= (3, 13):
        return os.process_cpu_count() or 1
    return os.cpu_count() or 1


def job_count(text: str) -> int:
    """The value of ``--jobs``: a whole number, 1 or more."""
    try:
        jobs = int(text)
    except ValueError:
        jobs = 0
    if jobs < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of 1 or more")
    return jobs
