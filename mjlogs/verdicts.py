"""The verdicts a game's verification gives (``engine.replay.Verdict``), and ``pending`` before
the first. Kept in the records app, below the replay app that writes them (``replay.models``),
so that the game lists, filters and copies of this app can name them without importing an app
above it (the apps' layers: docs/development.md)."""

from __future__ import annotations

from typing import Final

from django.db import models
from django.utils.translation import gettext_lazy as _


class Verdict(models.TextChoices):
    """The replayer's verdicts, and ``pending`` before the first."""

    PENDING = "pending", _("Not verified yet")
    VERIFIED = "verified", _("Verified")
    #: The record holds part of a game (it starts after the first hand or stops before the
    #: end): all of it agrees, but the whole game was not checked.
    VERIFIED_FRAGMENT = "verified_fragment", _("Verified (part of a game)")
    SCORE_MISMATCH = "score_mismatch", _("Score mismatch")
    ILLEGAL_ACTION = "illegal_action", _("Illegal action")
    UNSUPPORTED = "unsupported", _("Unsupported")
    MALFORMED = "malformed", _("Malformed")


#: The verdicts of games the rules engine agrees with, as far as their records go.
AGREEING: Final = (Verdict.VERIFIED.value, Verdict.VERIFIED_FRAGMENT.value)
