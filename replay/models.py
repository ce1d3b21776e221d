"""Database models of the replay app: what the rules engine said about each game."""

from __future__ import annotations

from django.db import models

from config.json_columns import JSONColumn
from mjlogs.models import Game
from mjlogs.verdicts import AGREEING, Verdict

__all__ = ["AGREEING", "Verdict", "Verification"]


class Verification(models.Model):
    """The latest verification of a game. Re-verifying replaces it (the service is idempotent:
    the same engine on the same game gives the same row)."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="verification")
    verdict = models.CharField(max_length=20, choices=Verdict.choices, default=Verdict.PENDING)
    engine_version = models.CharField(max_length=32, blank=True)
    #: The first discrepancy (round, event, what, expected, found, message), or null.
    discrepancy = JSONColumn(null=True, blank=True)
    message = models.TextField(blank=True, help_text="The first discrepancy in words.")
    complete = models.BooleanField(default=False, help_text="The replay reached the game's end.")
    events = models.PositiveIntegerField(default=0, help_text="Events replayed.")
    duration_ms = models.FloatField(null=True, blank=True)
    #: The replay report (``ReplayReport.to_json``: rounds with their results, final scores and
    #: placements by the engine's count), or null when the document could not be read.
    report = JSONColumn(null=True, blank=True)
    verified_at = models.DateTimeField(null=True, blank=True)
    #: What the frames API reads besides the hand it is asked for, so that a request replays
    #: that hand alone (``replay.selectors.frames_index_of``): the hands as the viewer's
    #: selector lists them (``rounds``, each replayed on its own from its deal by
    #: ``engine.frames.round_list``), the document's header and the first dealer; or
    #: ``{"error": message}`` for a game the engine cannot replay (the frames API's 404). Null
    #: for a verification made before it was kept: the frames API then computes it once.
    frames_index = JSONColumn(null=True, blank=True)

    class Meta:
        indexes = (models.Index(fields=("verdict",), name="verification_verdict"),)

    def __str__(self) -> str:
        return f"{self.game}: {self.verdict}"
