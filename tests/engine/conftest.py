"""The engine tests' header line: which engine they ran, pure Python or compiled with mypyc
(``python -m engine.compile``; CI runs the tests against both)."""

from __future__ import annotations

import os

import pytest

import engine

#: Set by ``python -m engine.compile --test``: a run meant for the compiled engine that finds the
#: pure one (a build that left no extension modules) must fail, not pass on the wrong engine.
EXPECT_COMPILED = "ENGINE_EXPECT_COMPILED"


def pytest_report_header() -> str:
    return f"engine: {'compiled (mypyc)' if engine.is_compiled() else 'pure Python'}"


def pytest_sessionstart(session: pytest.Session) -> None:
    if os.environ.get(EXPECT_COMPILED) and not engine.is_compiled():
        raise pytest.UsageError(f"{EXPECT_COMPILED} is set but the engine runs as pure Python")
