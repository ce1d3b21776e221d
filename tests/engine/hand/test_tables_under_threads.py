"""The decomposition tables are built on first use; threads that ask at once (eager tasks in a
threaded web server) all get whole tables. Before, a thread could see the honours' table filled
and the suits' still empty, and found no decomposition of a complete hand."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def test_threads_asking_at_first_use_all_see_whole_tables() -> None:
    # A fresh interpreter: the tables must not be built yet when the threads start.
    program = textwrap.dedent(
        """
        import threading
        from engine.hand import decompose
        from engine.tiles import parse_tiles, to_counts

        assert not decompose._TABLES_READY
        hand = to_counts(parse_tiles("123m456p789s11122z"))
        start = threading.Barrier(16)
        answers = []

        def ask():
            start.wait()
            answers.append(decompose.is_agari(hand))

        threads = [threading.Thread(target=ask) for _ in range(16)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        print(sorted(answers))
        """
    )
    for _ in range(3):
        done = subprocess.run(
            [sys.executable, "-c", program], capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == str([True] * 16)
