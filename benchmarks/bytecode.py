"""The environment of a benchmark's child processes, with or without byte-compiled modules.

This machine sets ``PYTHONDONTWRITEBYTECODE=1``: a fresh process compiles every module of the
repository again (the packages installed by pip keep the ``.pyc`` files pip wrote), which a user's
machine does once. ``--bytecode`` in the cold benchmarks measures that user's case: the children
write and read ``.pyc`` files under a temporary ``PYTHONPYCACHEPREFIX`` (the working tree stays
clean), after one untimed pass of each side has written them.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def child_env(bytecode: bool, base: dict[str, str] | None = None) -> Iterator[dict[str, str]]:
    """``base`` (default: this process's environment) as is, or with byte-compiled modules
    written to and read from a temporary folder."""
    env = dict(os.environ if base is None else base)
    if not bytecode:
        yield env
        return
    with tempfile.TemporaryDirectory(prefix="pycache-") as folder:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = folder
        yield env
