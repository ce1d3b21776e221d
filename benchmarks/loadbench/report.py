"""Step 4: the summary as a table for the terminal (the JSON holds the same figures)."""

from __future__ import annotations

from typing import Any


def summary_table(summary: dict[str, Any]) -> str:
    lines = [f"Load benchmark: {summary['games']:,} games, {summary['machine']['cores']} cores"]
    imported = summary.get("import")
    if imported:
        lines.append(
            f"  import (1 process, workers stopped): {imported['games_per_second']:8.1f} games/s"
            f"  ({imported['seconds']:.0f} s)"
        )
    self_played = summary.get("self_played", summary["games"])
    if self_played < summary["games"]:
        lines.append(
            f"  self-played {self_played:,} games; the other {summary['games'] - self_played:,}"
            " replay them as new records"
        )
    ingest = summary.get("ingest")
    if ingest:
        stats = ingest["stats_seconds"]
        stats_text = (
            f"{stats:.0f} s" if stats is not None else f"cut off, {ingest['stats_tasks_left']} left"
        )
        how = (
            f"queued for K={ingest['workers']} workers to import and verify: queued"
            if ingest.get("on_workers")
            else f"import while K={ingest['workers']} verify: import"
        )
        lines.append(
            f"  {how} "
            f"{ingest['import_games_per_second']:.1f} games/s ({ingest['import_seconds']:.0f} s),"
            f" every verdict {ingest['verify_games_per_second']:.1f} games/s"
            f" ({ingest['verify_seconds']:.0f} s); statistics current {stats_text} later"
            + (
                f" (the workers idle {ingest['idle_seconds']:.0f} s later)"
                if ingest.get("idle_seconds") is not None
                else ""
            )
        )
    lines += _production_path(summary)
    workers = summary.get("workers") or []
    for figures in workers:
        incremental = figures["incremental_stats_seconds"]
        incremental_text = (
            f"{incremental:.0f} s"
            if incremental is not None
            else f"cut off, {figures['incremental_stats_tasks_left']} tasks left"
        )
        lines.append(
            f"  verify, K={figures['workers']}: {figures['verify_games_per_second']:8.1f} games/s"
            f"  ({figures['verify_seconds']:.0f} s); incremental stats {incremental_text};"
            f" recompute_stats ({figures['players']} players) {figures['recompute_seconds']:.1f} s"
        )
    if len(workers) >= 2:
        first, last = workers[0], workers[-1]
        ratio = last["verify_games_per_second"] / first["verify_games_per_second"]
        lines.append(
            f"  verification K={last['workers']}/K={first['workers']}: {ratio:.2f}x "
            f"(on {summary['machine']['cores']} cores)"
        )
    storage = summary.get("storage")
    if storage:
        per_game = storage["database_bytes"] / summary["games"]
        lines.append(
            f"  database: {storage['database_bytes'] / 1e6:,.0f} MB, {per_game / 1e3:.1f} kB/game"
        )
    replicated = summary.get("replicated")
    if replicated:
        lines.append(
            f"  served database grown {replicated['factor']}x by SQL copies: "
            f"{replicated['games']:,} games (query costs only)"
        )
        caught_up = replicated.get("statistics")
        if caught_up:
            lines.append(
                f"    statistics brought up to date in one process: {caught_up['players']} "
                f"summaries {caught_up['summaries_seconds']:.0f} s, every rating "
                f"{caught_up['ratings_seconds']:.0f} s"
            )
    queries = summary.get("queries")
    if queries:
        lines.append("  one request each (queries, ms alone):")
        for name, figures in queries.items():
            lines.append(
                f"    {name:38} {figures['status']}  {figures['queries']:3} queries "
                f"{figures['ms']:8.1f} ms"
            )
    load = summary.get("load")
    if load:
        header = f"{'under load':38} {'req':>6} {'fail':>5} {'p50':>6} {'p95':>6} {'req/s':>6}"
        lines.append(f"  {header}")
        for name, figures in load.items():
            lines.append(
                f"    {name:36} {figures['requests']:6} {figures['failures']:5} "
                f"{figures['p50_ms']:6.0f} {figures['p95_ms']:6.0f} "
                f"{figures['requests_per_second']:6.1f}"
            )
    return "\n".join(lines)


#: The goals of issue 42, as ratios: the service's path from upload to every figure current
#: against the engine alone with as many processes, and the study aids against the replay.
END_TO_END_GOAL = 0.5
STUDY_GOAL = 1.0


def _production_path(summary: dict[str, Any]) -> list[str]:
    """The import with K workers verifying against ``engine verify --jobs K`` on the same
    games, and what each step costs a game in CPU."""
    ingest, engine = summary.get("ingest"), summary.get("engine_verify")
    if not ingest or not engine:
        return []
    games = ingest["games"]
    lines = []
    end_to_end = ingest.get("end_to_end_seconds")
    if end_to_end:
        ratio = engine["seconds"] / end_to_end
        lines.append(
            f"  end to end (upload to every figure current), K={ingest['workers']}: "
            f"{games / end_to_end:.1f} games/s ({end_to_end:.0f} s); engine verify "
            f"--jobs {engine['jobs']}: {engine['games_per_second']:.1f} games/s "
            f"({engine['seconds']:.1f} s); ratio {ratio:.3f} (goal {END_TO_END_GOAL})"
        )
    lines.append("  CPU a game, by step (ms):")
    uploading = (
        "queue (the uploading process)"
        if ingest.get("on_workers")
        else ("import (the importing process)")
    )
    lines.append(f"    {uploading:44} {_ms(ingest['import_cpu_seconds'], games)}")
    worker_total = 0.0
    for name, figures in sorted(ingest.get("task_cpu", {}).items()):
        worker_total += figures["seconds"]
        runs = f"{int(figures['runs'])} runs"
        lines.append(f"    {name:44} {_ms(figures['seconds'], games)}  ({runs})")
    lines.append(f"    {'workers, every task':44} {_ms(worker_total, games)}")
    for server, seconds in sorted(ingest.get("server_cpu", {}).items()):
        lines.append(f"    {server + ' (its processes on this machine)':44} {_ms(seconds, games)}")
    lines.append(f"    {'engine verify (its processes)':44} {_ms(engine['cpu_seconds'], games)}")
    service = (
        ingest["import_cpu_seconds"] + worker_total + sum(ingest.get("server_cpu", {}).values())
    )
    if engine["cpu_seconds"]:
        # Steadier than the wall-clock ratio on a busy machine, and a bound on it: with every
        # part overlapped on as many cores as the engine had, end to end is at best its inverse.
        lines.append(
            f"  the service's CPU a game (queue, workers, servers) over the engine's: "
            f"{service / engine['cpu_seconds']:.2f}x"
        )
    study = summary.get("study")
    bounds = _bounds(summary, games, worker_total)
    if bounds is not None:
        lines.append(
            f"  the ratio at best from the CPU a game, every part overlapped on "
            f"{summary['machine']['cores']} cores: {bounds[0]:.2f} as measured; {bounds[1]:.2f} "
            f"were the service's own code free (the engine's work, the study aids and the "
            f"servers alone)"
        )
    if study:
        games = study["games"]
        lines.append(
            f"  study aids / replay, {games} of the games (goal {STUDY_GOAL}x): "
            f"warm {study['study_over_replay']:.2f}x (replay "
            f"{_ms(study['replay_cpu_seconds'], games).strip()} ms, study "
            f"{_ms(study['study_cpu_seconds'], games).strip()} ms a game); "
            f"cold {study['cold_study_over_replay']:.2f}x (replay "
            f"{_ms(study['cold_replay_cpu_seconds'], games).strip()} ms, study "
            f"{_ms(study['cold_study_cpu_seconds'], games).strip()} ms)"
        )
    return lines


def _bounds(summary: dict[str, Any], games: int, worker_cpu: float) -> tuple[float, float] | None:
    """The end-to-end ratio this run could reach at best from its CPU alone: end to end takes
    at least the longer of the K workers' share of their CPU and every core's share of the
    service's whole CPU. First as measured; then were the service's own code (Django, Celery,
    the documents and rows it builds) free: the workers doing only the engine's work a game
    (``engine verify``'s CPU) and the study aids (the sample's, warm), the servers (PostgreSQL,
    Redis) what they did. What separates the measured ratio from the first is waiting (round
    trips, the head and tail of the run); from the second, the service's code. ``None``
    without the figures."""
    ingest, engine, study = (
        summary.get("ingest"),
        summary.get("engine_verify"),
        summary.get("study"),
    )
    cores = summary.get("machine", {}).get("cores")
    if not ingest or not engine or not study or not cores or not engine["cpu_seconds"]:
        return None
    workers = ingest["workers"]
    servers = sum(ingest.get("server_cpu", {}).values())
    engine_wall = engine["seconds"]

    def bound(worker_seconds: float, whole_seconds: float) -> float:
        return float(engine_wall / max(worker_seconds / workers, whole_seconds / cores))

    measured = bound(worker_cpu, ingest["import_cpu_seconds"] + worker_cpu + servers)
    free = engine["cpu_seconds"] + study["study_cpu_seconds"] / study["games"] * games
    return measured, bound(free, free + servers)


def _ms(seconds: float, games: int) -> str:
    return f"{seconds / games * 1000:8.1f}"
