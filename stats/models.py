"""Database models of the stats app: the facts every statistic is computed from.

One :class:`RoundFact` per player per hand of a verified game: the replayer's per-player facts
(``engine.replay.RoundFact``) stored as a row. Statistics are sums and counts over these rows
(and over the seats' placements, ``mjlogs.GameSeat``), so a figure for any filtered set of games
is the figure computed from those games' rows; nothing is kept that the rows could contradict.
"""

from __future__ import annotations

from django.db import models

from config.json_columns import JSONColumn
from mjlogs.models import Game, Player


class RoundFact(models.Model):
    """What one player did in one hand of a game (see ``engine.replay.RoundFact``)."""

    # No index of their own: each leads a composite one (one_fact_a_seat_a_hand,
    # fact_player_game), which serves the look-ups and the cascades; two more indexes on the
    # table written most (a row a player a hand) cost every import.
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="round_facts", db_index=False
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="round_facts", db_index=False
    )
    seat = models.PositiveSmallIntegerField()
    round_index = models.PositiveSmallIntegerField(help_text="0 is the game's first hand.")
    round_name = models.CharField(max_length=8)
    dealer = models.BooleanField()
    turns = models.PositiveSmallIntegerField(help_text="Draws the player had in the hand.")
    outcome = models.CharField(
        max_length=20, help_text="win, exhaustive_draw, nagashi_mangan or abortive_draw."
    )
    won = models.BooleanField()
    tsumo = models.BooleanField()
    dealt_in = models.BooleanField()
    win_points = models.IntegerField(help_text="Points the win brought, honba and sticks in.")
    deal_in_points = models.IntegerField(help_text="Points the deal-in cost.")
    han = models.PositiveSmallIntegerField()
    fu = models.PositiveSmallIntegerField()
    #: ``han`` means han in riichi, points in small mahjong and fan tenths in Ùzje, so a limit
    #: hand is not ``han >= 13``: it is the engine's limit of the win (see stats.services).
    limit_hand = models.BooleanField(
        default=False, help_text="The win was a limit hand: a yakuman (counted ones too) or Ùzje."
    )
    yaku = JSONColumn(default=list, help_text="Names of the win's yaku.")
    ura = models.PositiveSmallIntegerField(help_text="Ura dora han of the win.")
    ippatsu = models.BooleanField()
    win_turn = models.PositiveSmallIntegerField()
    riichi = models.BooleanField()
    riichi_turn = models.PositiveSmallIntegerField()
    riichi_chasing = models.BooleanField(help_text="Another player declared riichi first.")
    riichi_wait_kinds = models.PositiveSmallIntegerField()
    calls = models.PositiveSmallIntegerField(help_text="Open melds called.")
    open_hand = models.BooleanField()
    tenpai_at_draw = models.BooleanField(null=True, help_text="Null unless an exhaustive draw.")
    #: The winner's hand when this player dealt in: riichi, open or dama.
    dealt_in_to = models.CharField(max_length=8, blank=True)
    delta = models.IntegerField(help_text="Score change over the hand, riichi stick included.")
    score_after = models.IntegerField()
    #: The study aids (``engine.study``, docs/stats.md "Tile acceptance"): written after the
    #: verification by their own catch-up (``stats.catch_up.study_catch_up``), never by the
    #: replay; null until then.
    decisions = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="Discards the player chose in the hand (null: not yet counted; 0 in Ùzje).",
    )
    best_discards = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Of those, discards that kept the most tile acceptance."
    )
    #: The defence of the study aids (docs/stats.md "Value and defence"), counted with them.
    riichi_decisions = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Of those, discards chosen facing another's riichi."
    )
    genbutsu_discards = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Of those, discards genbutsu against every riichi."
    )
    push_deal_ins = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="1 when the player dealt in on a discard that pushed a hand at two or more "
        "shanten against a riichi (not genbutsu), else 0.",
    )

    class Meta:
        ordering = ("game", "round_index", "seat")
        constraints = (
            models.UniqueConstraint(
                fields=("game", "round_index", "seat"), name="one_fact_a_seat_a_hand"
            ),
        )
        indexes = (
            models.Index(fields=("player", "game"), name="fact_player_game"),
            # The games whose study aids are still to count (stats.catch_up.study_catch_up).
            models.Index(
                fields=("game",),
                condition=models.Q(decisions__isnull=True),
                name="fact_study_pending",
            ),
        )

    def __str__(self) -> str:
        return f"{self.game} {self.round_name} seat {self.seat}"


class PlayerSummary(models.Model):
    """A player's statistics over all their public games, kept up to date by the stats tasks
    (for leaderboards and the player page's default view). Always what
    :func:`stats.selectors.player_stats` computes for an anonymous visitor without filters: the
    tasks recompute it from the rows, they never patch it."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="summary")
    games = models.PositiveIntegerField(help_text="Complete public games (placements known).")
    hands = models.PositiveIntegerField()
    counts = JSONColumn(help_text="Every count (stats.metrics.HAND_COUNTS, GAME_COUNTS).")
    metrics = JSONColumn(help_text="Every metric's value, null without a denominator.")
    #: The rest of what the player's statistics show, so that the unfiltered statistics are
    #: read from this row instead of computed from thousands of fact rows on every request.
    yaku = JSONColumn(default=list, help_text="[[yaku, wins], ...], most frequent first.")
    han = JSONColumn(default=list, help_text="[[han, wins], ...] of riichi-scored wins.")
    longest_dealer_streak = models.PositiveIntegerField(default=0)
    stable_dan = models.FloatField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("player",)
        indexes = (models.Index(fields=("games",), name="summary_games"),)

    def __str__(self) -> str:
        return f"{self.player}: {self.games} games"


class SummaryBacklog(models.Model):
    """A player whose :class:`PlayerSummary` is behind their games: marked in the same
    transaction as the change to one of their games (verified, deleted, made public or
    private), cleared when their summary has been recomputed (``stats.catch_up``).

    While a player is marked, their statistics are computed from the rows; a burst of games
    for one player costs one recomputation of their summary, not one per game."""

    player = models.OneToOneField(
        Player, on_delete=models.CASCADE, primary_key=True, related_name="summary_backlog"
    )
    #: Bumped by every mark: a recomputation that began before a mark does not clear it.
    version = models.PositiveBigIntegerField(default=1)

    def __str__(self) -> str:
        return f"summary of {self.player} behind (mark {self.version})"


class RatingChange(models.Model):
    """A player's Tenhou R rating before and after one verified public complete game (see
    ``stats.ratings``), in that game's mode (3 or 4 players)."""

    # No index of their own: each leads a composite one (one_rating_change_a_seat,
    # rating_player), as RoundFact's.
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="rating_changes", db_index=False
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="rating_changes", db_index=False
    )
    players_count = models.PositiveSmallIntegerField()
    #: The game's place in time (its start, else its upload), then its id: the rating order.
    played_at = models.DateTimeField()
    games_before = models.PositiveIntegerField()
    rating_before = models.FloatField()
    rating_after = models.FloatField()

    class Meta:
        ordering = ("played_at", "game_id")
        constraints = (
            models.UniqueConstraint(fields=("game", "player"), name="one_rating_change_a_seat"),
        )
        indexes = (
            models.Index(fields=("player", "players_count", "played_at"), name="rating_player"),
            models.Index(fields=("played_at", "game"), name="rating_order"),
        )

    def __str__(self) -> str:
        return f"{self.player} {self.rating_before:.0f} -> {self.rating_after:.0f}"


class RatingsBacklog(models.Model):
    """Whether the stored ratings are behind the games, and from when: one row (``pk`` 1).

    Every verification, deletion or visibility change marks the ratings stale from its game's
    time on; a recomputation clears the mark only if no new mark came while it ran
    (``version``). So a burst of a thousand verifications costs a few recomputations from the
    earliest time marked, not a thousand (``stats.catch_up``)."""

    id = models.PositiveSmallIntegerField(primary_key=True, default=1)
    stale = models.BooleanField(default=False)
    #: Recompute from this game time on; ``None`` while stale means every game.
    since = models.DateTimeField(null=True, blank=True)
    #: Bumped by every mark: a recomputation that began before a mark does not clear it.
    version = models.PositiveBigIntegerField(default=0)

    def __str__(self) -> str:
        if not self.stale:
            return "ratings up to date"
        return f"ratings stale since {self.since or 'the first game'}"


class QueuedCatchUp(models.Model):
    """A catch-up task (one row per task name): whether one is queued and has not started yet,
    and when the last one started (``stats.catch_up``). While one is waiting, a change
    queues no other, because the waiting one will see the change's marks when it starts."""

    task = models.CharField(max_length=200, primary_key=True)
    #: When the waiting task is due to start; ``None`` once it has started.
    queued_at = models.DateTimeField(null=True, blank=True)
    #: When the last one started and finished (a start after the finish: it is running), and
    #: how long the last finished one took: the next is spaced after them.
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    last_seconds = models.FloatField(null=True, blank=True)
    #: When a change last asked for this catch-up (queued it or found one waiting): a catch-up
    #: not yet due starts early once changes have stopped coming.
    changed_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        if self.queued_at is None:
            return f"{self.task}: none waiting"
        return f"{self.task}: queued at {self.queued_at:%Y-%m-%d %H:%M:%S}"
