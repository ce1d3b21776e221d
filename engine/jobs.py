"""How many processes a command runs: its ``--jobs`` option, every core by default.

Apart from the commands (``engine verify``, ``manage.py import_logs``), so that a command of the
service can take the option without importing the engine's command line.
"""

from __future__ import annotations

import argparse
import os
import sys


def all_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system tells it), at
    least 1."""
    if sys.version_info >= (3, 13):
        return os.process_cpu_count() or 1
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


#: Processes a core at most: each job is a process of its own replaying games, which use the
#: core all the time; more than a few a core only adds processes and memory (a mistyped
#: ``--jobs 1000`` forked a thousand).
JOBS_PER_CORE = 4


def job_count(text: str) -> int:
    """The value of ``--jobs``: a whole number, 1 or more, and at most :data:`JOBS_PER_CORE`
    times the cores this process may run on."""
    try:
        jobs = int(text)
    except ValueError:
        jobs = 0
    if jobs < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of 1 or more")
    cores = all_cores()
    if jobs > JOBS_PER_CORE * cores:
        raise argparse.ArgumentTypeError(
            f"{jobs} is more than {JOBS_PER_CORE} a core ({JOBS_PER_CORE * cores} for the "
            f"{cores} this process may run on): each job is a process of its own"
        )
    return jobs
