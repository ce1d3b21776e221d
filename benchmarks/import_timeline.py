"""Where an ``import_logs`` spends its time: a timeline of one import, and its phases.

Usage, from the repository root::

    python benchmarks/import_timeline.py [PATH ...] [--jobs N]

Runs ``manage.py import_logs PATH --quiet --jobs N`` in this process, into a new SQLite database
on the default setup (Celery eager), and prints, in seconds since this process started: when
Django and the command's modules were loaded, when the first file was handed to the reader,
when the first and the last file's games came back, each batch's storing, and the end. Then
the time spent in each phase in this process (the engine's reading and replay, the canonical
document, the identity, the raw file's compression, the storable check, storing the games,
writing the verdicts and facts, the statistics' catch-up), each without the phases inside it.
With ``--jobs`` over 1 the reading phases run in the worker processes and are not counted here.
Last, the CPU seconds the import took in this process and in its workers.
PATH defaults to ``../shared/corpus``; ``--jobs`` to 1.
"""

from __future__ import annotations

START = __import__("time").perf_counter()

import argparse  # noqa: E402
import functools  # noqa: E402
import os  # noqa: E402
import resource  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402
from types import ModuleType  # noqa: E402
from typing import Any  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.import_vs_verify import DEFAULT_PATHS, default_setup_env  # noqa: E402


def since_start() -> float:
    return time.perf_counter() - START


class Phases:
    """Seconds spent in wrapped functions, each without the wrapped functions it calls."""

    def __init__(self) -> None:
        self.seconds: Counter[str] = Counter()
        self._inner: list[float] = []

    def wrap(self, module: ModuleType, name: str, label: str) -> None:
        function = getattr(module, name)

        @functools.wraps(function)
        def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            self._inner.append(0.0)
            try:
                return function(*args, **kwargs)
            finally:
                inner = self._inner.pop()
                took = time.perf_counter() - start
                self.seconds[label] += took - inner
                if self._inner:
                    self._inner[-1] += took

        setattr(module, name, timed)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("paths", nargs="*", type=Path, default=DEFAULT_PATHS)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        # The default setup, as benchmarks/import_vs_verify.py runs it: no broker, no cache.
        env = default_setup_env(Path(folder) / "db.sqlite3", dict(os.environ))
        os.environ.clear()
        os.environ.update(env)
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
        os.chdir(ROOT)
        return timeline([str(path.resolve()) for path in args.paths], args.jobs)


def timeline(paths: list[str], jobs: int) -> int:
    import logging

    import django

    django.setup()
    logging.disable(logging.WARNING)
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    migrated = since_start()

    import mjlogs.importing as services
    import mjlogs.reading as reading
    import replay.services as replay_services
    import stats.catch_up as catch_up
    import stats.management.commands.import_logs  # noqa: F401  (loaded as the command loads it)

    marks: list[tuple[float, str]] = [(migrated, "Django set up, tables made (not in an import)")]
    loaded = since_start()
    marks.append((loaded, "the command's modules loaded"))
    phases = Phases()
    phases.wrap(reading, "read_games", "engine: read")
    phases.wrap(replay_services, "replayed", "engine: replay, report, facts")
    phases.wrap(reading.canonical, "game_to_json", "canonical document")
    phases.wrap(reading, "identities", "identity")
    phases.wrap(reading.compression, "compress", "raw file compressed")
    phases.wrap(reading, "check_storable", "storable check")
    phases.wrap(replay_services, "_save", "verdicts and facts written")
    phases.wrap(catch_up, "player_summaries_catch_up", "catch-up: summaries")
    phases.wrap(catch_up, "ratings_catch_up", "catch-up: ratings")

    came_back: list[float] = []
    submitted: list[float] = []
    for reader in (reading.FileReader, reading.PooledFileReader):
        submit = reader.submit

        def noted(self: Any, name: str, data: bytes, _submit: Callable[..., Any] = submit) -> Any:
            submitted.append(since_start())
            result = _submit(self, name, data)

            def wait() -> Any:
                read = result()
                came_back.append(since_start())
                return read

            return wait

        reader.submit = noted  # type: ignore[method-assign]

    store = services.games_store

    def stored(games: Any, **kwargs: Any) -> Any:
        start = since_start()
        try:
            return store(games, **kwargs)
        finally:
            marks.append(
                (
                    start,
                    f"storing {len(games)} games and what their commit starts, to "
                    f"{since_start():.2f}",
                )
            )

    services.games_store = stored
    phases.wrap(services, "games_store", "games stored")
    cpu_before, workers_before = time.process_time(), _children_cpu()
    with open(os.devnull, "w") as quiet:
        call_command("import_logs", *paths, "--quiet", "--jobs", str(jobs), stdout=quiet)
    end = since_start()
    cpu, workers_cpu = time.process_time() - cpu_before, _children_cpu() - workers_before
    if submitted:
        marks.append((submitted[0], "first file handed to the reader"))
    if came_back:
        marks.append((came_back[0], "first file's games back"))
        marks.append((came_back[-1], f"last file's games back ({len(came_back)} files)"))
    marks.append((end, "import done"))
    print(f"import_logs --jobs {jobs} of {', '.join(paths)}: the timeline (s since start)")
    for moment, what in sorted(marks):
        print(f"{moment:7.2f}  {what}")
    print(f"in this process, from {loaded:.2f} to {end:.2f} s ({end - loaded:.2f} s):")
    for label, seconds in phases.seconds.most_common():
        print(f"  {label:32} {seconds:6.3f} s")
    print(
        f"CPU during the import: this process {cpu:.3f} s, its workers {workers_cpu:.3f} s "
        "(the start before it not counted: time an empty import for that)"
    )
    return 0


def _children_cpu() -> float:
    """CPU seconds of this process's children that have ended (the import's workers)."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


if __name__ == "__main__":
    sys.exit(main())
