"""The collector's settings for batch processes (engine.gc_settings), in fresh processes, and
its pause for one batch of work."""

from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path

import pytest

from engine.gc_settings import BATCH_THRESHOLDS, collector_paused

ROOT = Path(__file__).resolve().parents[2]

# A cycle of two objects no module holds, whose finaliser says whether a collection freed it.
UNREACHABLE_CYCLE = """
import os
class Noisy:
    def __del__(self):
        os.write(1, b"collected ")
a, b = Noisy(), Noisy()
a.other, b.other = b, a
del a, b
"""
SETTLED = "from engine.gc_settings import settle_for_batch_work\nsettle_for_batch_work()\n"


def python(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_python_m_engine_runs_with_the_batch_thresholds() -> None:
    # Registered first, this runs last: after the command, with the thresholds it ran with.
    shown = python(
        "import atexit, gc, runpy, sys\n"
        "atexit.register(lambda: print(gc.get_threshold()))\n"
        "sys.argv = ['engine', '--help']\n"
        "runpy.run_module('engine', run_name='__main__')\n"
    )
    assert shown.splitlines()[-1] == str(BATCH_THRESHOLDS)


def test_the_exit_skips_the_last_full_collection() -> None:
    # Python collects such a cycle as it exits; a batch process leaves it to the exit.
    assert python(UNREACHABLE_CYCLE) == "collected collected "
    assert python(SETTLED + UNREACHABLE_CYCLE) == ""


def test_a_collection_still_frees_cycles_while_the_process_runs() -> None:
    collected_now = SETTLED + UNREACHABLE_CYCLE + "import gc; gc.collect()\n"
    assert python(collected_now) == "collected collected "


def test_the_collector_is_paused_for_a_block_and_on_again_after() -> None:
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():  # nested: the outer block turns it on again, not this one
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_the_collector_is_on_again_after_a_block_that_failed() -> None:
    with pytest.raises(ZeroDivisionError), collector_paused():
        1 / 0  # noqa: B018
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off() -> None:
    gc.disable()
    try:
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_function_can_be_paused_whole() -> None:
    @collector_paused()
    def collecting() -> bool:
        return gc.isenabled()

    assert collecting() is False
    assert collecting() is False  # (each call pauses it anew)
    assert gc.isenabled()
