"""Judging one game: export it, read it back, and hand it to every peer that can play its rules."""

from __future__ import annotations

from collections.abc import Callable

from benchmarks.referee import (
    judge_game_flow,
    judge_jansou,
    judge_libriichi,
    judge_mahjong,
    judge_ours,
    judge_riichienv,
)
from benchmarks.referee.choices import Key
from benchmarks.referee.choices import our_choices as choices_of
from benchmarks.referee.findings import Finding, Verdicts
from benchmarks.referee.mjai_lines import kita_dialect, mjai_lines, text_of
from benchmarks.referee.peers import JUDGES
from engine.events import Game
from engine.replay import ReplayReport, replay
from engine.rules.presets import get_ruleset

#: Every judge, in the order of the report.
PEERS = JUDGES


def judge_game(game: Game, peers: frozenset[str] = frozenset(PEERS)) -> Verdicts:
    """Every finding of every peer (of ``peers``) on one game, and the checks made. A peer that
    raises is a finding of its own (``<peer> crashed: <error>``); the others still judge."""
    verdicts = Verdicts()
    texts = judge_ours.exports(game, verdicts)
    if "mjai" not in texts:
        return verdicts  # nothing for the peers to read (the writer's refusal is the finding)
    lines = mjai_lines(game, texts["mjai"])
    mjai_text = text_of(lines)
    # mjai carries no sanma standard: each peer gets the North-extraction event it reads.
    peer_text = kita_dialect(mjai_text)
    reports: list[ReplayReport] = []
    choices: list[dict[tuple[int, int], set[Key]]] = []

    def our_choices() -> list[dict[tuple[int, int], set[Key]]]:
        """Our legal actions at every decision of every round, worked out once for both
        peers that compare them."""
        if not choices:
            rules = get_ruleset(game.header.ruleset)
            first_dealer = game.rounds[0].dealer if game.rounds else 0
            choices.extend(choices_of(round_, rules, first_dealer) for round_ in game.rounds)
        return choices

    def ours() -> None:
        reports.append(judge_ours.judge(game, texts, verdicts))

    def whole_game() -> None:
        report = reports[0] if reports else replay(game)
        judge_game_flow.judge(game, report, verdicts)

    calls: list[tuple[str, Callable[[], None]]] = [
        ("ours", ours),
        ("riichienv", lambda: judge_riichienv.judge(game, peer_text, verdicts, our_choices())),
        ("jansou", lambda: judge_jansou.judge(game, "mjai", peer_text, verdicts)),
        ("mahjong", lambda: judge_mahjong.judge(game, verdicts)),
    ]
    if game.players == 4:  # libriichi plays 4-player games only
        calls.insert(
            1, ("libriichi", lambda: judge_libriichi.judge(lines, verdicts, game, our_choices()))
        )
    if "tenhou6" in texts:
        text = texts["tenhou6"]
        calls.append(("jansou", lambda: judge_jansou.judge(game, "tenhou6", text, verdicts)))
    calls.append(("game", whole_game))
    for peer, call in calls:
        if peer not in peers:
            continue
        try:
            call()
        except Exception as error:  # the peer's own failure: a finding, not the end of the run
            verdicts.findings.append(
                Finding(
                    peer, f"{peer} crashed: {type(error).__name__}", "", None, "", str(error)[:300]
                )
            )
    return verdicts
