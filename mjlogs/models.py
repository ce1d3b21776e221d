"""Database models of the mjlogs app: games, the players in them and their seats.

A game is stored as its canonical document (``engine.formats.canonical``), with the raw file it
came from kept compressed beside it. Two identities tell records apart (``mjlogs.identity``):
``play_hash`` is what was played, the same for the game in any format and with any names, and
``content_hash`` is the record, its play and all it claims (names, final scores, date...). The
database keeps a record once among the public games and once among each uploader's private games,
so two uploads of it racing each other still store it once, and nobody's private game stops
anyone else's upload (docs/security.md). Records of one play that say more, or otherwise, are
*copies* of one game: each is stored, and one of them counts (``copy_of`` is null for it, and
names it for the others: ``mjlogs.copies``), again once among the public games and once among
each uploader's private ones. The ``source_id`` (a Tenhou log id) is the record's claim, indexed
but not unique.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from config.json_columns import JSONColumn, PackedJSONColumn


class PlayerKind(models.TextChoices):
    """What a player is (``mjlogs.provenance``)."""

    PERSON = "person", _("Person")
    #: One guest seat (Tenhou's NoName and its hidden names ``Aさん`` to ``Dさん``, an empty
    #: name): a player of its own, never ranked.
    ANONYMOUS = "anonymous", _("Anonymous seat")
    #: A program (our self-play): left out of leaderboards unless asked for.
    BOT = "bot", _("Bot")


class Player(models.Model):
    """A player: a name on one platform (see :class:`PlayerName`), or one anonymous seat."""

    name = models.CharField(max_length=200, help_text="The name shown on pages.")
    platform = models.CharField(
        max_length=32, blank=True, help_text="Where the name comes from (tenhou, majsoul, ...)."
    )
    kind = models.CharField(max_length=16, choices=PlayerKind.choices, default=PlayerKind.PERSON)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("name", "id")
        indexes = (models.Index(fields=("kind",), name="player_kind"),)

    def __str__(self) -> str:
        return self.name


class PlayerName(models.Model):
    """A player's name on one platform (``tenhou``, ``majsoul``, ``mjai``, ...)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="names")
    platform = models.CharField(max_length=32)
    name = models.CharField(max_length=200)

    class Meta:
        constraints = (
            models.UniqueConstraint(fields=("platform", "name"), name="player_name_per_platform"),
        )

    def __str__(self) -> str:
        return f"{self.name} ({self.platform})"


class Visibility(models.TextChoices):
    PUBLIC = "public", _("Public")
    PRIVATE = "private", _("Private: the uploader and staff only")


class Game(models.Model):
    """One game: its canonical record, where it came from, and who uploaded it."""

    ruleset = models.CharField(max_length=64, help_text="Preset name (engine.rules.presets).")
    rule_overrides = JSONColumn(default=dict, blank=True)
    players_count = models.PositiveSmallIntegerField()
    rounds_count = models.PositiveSmallIntegerField()
    complete = models.BooleanField(help_text="Whether the record reaches the game's end.")
    source_format = models.CharField(max_length=32, help_text="mjlog, tenhou6, mjai, ...")
    # Null, not "", when the source has no id: the unique constraint skips nulls only.
    source_id = models.CharField(max_length=200, null=True, blank=True)  # noqa: DJ001
    content_hash = models.CharField(
        max_length=64,
        help_text="SHA-256 of the record: what was played and all it claims (mjlogs.identity).",
    )
    play_hash = models.CharField(
        max_length=64,
        default="",
        help_text="SHA-256 of what was played, the same for every copy of the game "
        "(engine.identity).",
    )
    copy_of = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        # Deleting the copy that counts first makes another count (mjlogs.copies); a
        # deletion of both together (a queryset's) goes through.
        on_delete=models.RESTRICT,
        related_name="copies",
        help_text="The copy of this game that counts, when this record is another copy of it; "
        "null for the copy that counts (mjlogs.copies).",
    )
    copy_conflicts = JSONColumn(
        default=list,
        blank=True,
        help_text="What this record claims otherwise than another copy of the game (names, "
        "final scores, date, ...; mjlogs.identity.CLAIM_LABELS); empty when they agree.",
    )
    started_at = models.DateTimeField(null=True, blank=True)
    uploaded_at = models.DateTimeField(auto_now_add=True)
    uploader = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="games",
    )
    visibility = models.CharField(
        max_length=16, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    document = PackedJSONColumn(help_text="The canonical record (docs/format.md), packed.")
    raw = models.BinaryField(
        help_text="The original file's bytes, compressed (config.compression: zstd; gzip before)."
    )
    raw_name = models.CharField(max_length=255, blank=True)
    raw_size = models.PositiveIntegerField(help_text="Size of the original, uncompressed.")
    room = models.CharField(
        max_length=16,
        blank=True,
        help_text="The room the record says it was played in: Tenhou's ippan, joukyuu, "
        "tokujou, houou (custom for a custom lobby), Mahjong Soul's bronze, silver, gold, "
        "jade, throne; empty when it does not say.",
    )

    class Meta:
        ordering = ("-started_at", "-id")
        constraints = (
            models.UniqueConstraint(
                fields=("content_hash",),
                condition=Q(visibility="public"),
                name="game_unique_public",
            ),
            models.UniqueConstraint(
                fields=("content_hash", "uploader"),
                condition=Q(visibility="private", uploader__isnull=False),
                name="game_unique_private_per_uploader",
            ),
            # Private games imported with no uploader (``import_logs`` run by an administrator).
            models.UniqueConstraint(
                fields=("content_hash",),
                condition=Q(visibility="private", uploader__isnull=True),
                name="game_unique_private_no_uploader",
            ),
            # One copy of a game counts, in each scope (mjlogs.copies).
            models.UniqueConstraint(
                fields=("play_hash",),
                condition=Q(visibility="public", copy_of__isnull=True),
                name="game_counted_public",
            ),
            models.UniqueConstraint(
                fields=("play_hash", "uploader"),
                condition=Q(visibility="private", uploader__isnull=False, copy_of__isnull=True),
                name="game_counted_private_per_uploader",
            ),
            models.UniqueConstraint(
                fields=("play_hash",),
                condition=Q(visibility="private", uploader__isnull=True, copy_of__isnull=True),
                name="game_counted_private_no_uploader",
            ),
        )
        indexes = (
            # The game list's order (Meta.ordering): without it, every page sorts every game.
            models.Index(fields=("-started_at", "-id"), name="game_started_id"),
            models.Index(fields=("ruleset", "-started_at"), name="game_ruleset_started"),
            models.Index(fields=("source_format",), name="game_source_format"),
            models.Index(fields=("source_id",), name="game_source_id"),
            models.Index(fields=("content_hash",), name="game_content_hash"),
            models.Index(fields=("play_hash",), name="game_play_hash"),
        )

    def __str__(self) -> str:
        return self.source_id or f"game {self.pk}"

    @property
    def original_name(self) -> str:
        """The original file's own name, without the folders it was imported from (a path
        given to ``import_logs``, an archive's folders): what a page or a download shows. (A
        backslash is a character of the name: uploads from anywhere may hold one.)"""
        return self.raw_name.rsplit("/", 1)[-1]


class GameSeat(models.Model):
    """A player's seat in a game, with the start and (when recorded) final score and place."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField(help_text="0 is the first dealer.")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    start_score = models.IntegerField()
    final_score = models.IntegerField(null=True, blank=True)
    placement = models.PositiveSmallIntegerField(null=True, blank=True, help_text="1 is first.")
    points = models.FloatField(
        null=True,
        blank=True,
        help_text="Final points by the rule set (the score less the return, in thousands, with "
        "uma and oka), as the verification computed them; only for a game verified whole.",
    )
    recorded_rank = models.CharField(
        max_length=32, blank=True, help_text="The rank the record gives the player (Tenhou dan)."
    )
    recorded_rating = models.FloatField(
        null=True, blank=True, help_text="The rating the record gives the player (Tenhou R)."
    )

    class Meta:
        ordering = ("game", "seat")
        constraints = (models.UniqueConstraint(fields=("game", "seat"), name="one_player_a_seat"),)

    def __str__(self) -> str:
        return f"{self.game} seat {self.seat}: {self.player}"


class LinkImportStatus(models.TextChoices):
    """Where a game brought in by its link stands (``mjlogs.link_imports``)."""

    QUEUED = "queued", _("Queued")
    FETCHING = "fetching", _("Fetching")
    IMPORTED = "imported", _("Imported")
    #: The game was already here: ``game`` is the stored one.
    DUPLICATE = "duplicate", _("Already here")
    FAILED = "failed", _("Failed")


class LinkImport(models.Model):
    """A request to bring a game in by its Tenhou replay link or log id: fetched from Tenhou's
    log server by a Celery task, then imported like an upload (``mjlogs.link_imports``)."""

    link = models.CharField(max_length=2000, help_text="What the user gave: a link or a log id.")
    source = models.CharField(max_length=16, default="tenhou")
    log_id = models.CharField(max_length=64, help_text="The log id the link names.")
    seat = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The seat the link shows (Tenhou's tw), if it says."
    )
    status = models.CharField(
        max_length=16, choices=LinkImportStatus.choices, default=LinkImportStatus.QUEUED
    )
    error = models.TextField(blank=True, help_text="Why it failed, or the last failed try.")
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="link_imports"
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="link_imports",
    )
    visibility = models.CharField(
        max_length=16, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(
        default=0, help_text="Requests made to the log server for it."
    )

    class Meta:
        ordering = ("-created_at", "-id")
        indexes = (models.Index(fields=("log_id", "status"), name="link_import_log_status"),)

    def __str__(self) -> str:
        return f"{self.source} {self.log_id}: {self.status}"

    @property
    def finished(self) -> bool:
        """Whether it has come to an end (imported, already here, or failed)."""
        return self.status not in (LinkImportStatus.QUEUED, LinkImportStatus.FETCHING)


class QueuedImport(models.Model):
    """A bulk import the workers do (``mjlogs.queued_imports``): its files wait in
    :class:`QueuedFile` rows, a batch a task, and each batch's outcomes are added here when
    its task ends."""

    uploader = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="queued_imports",
    )
    visibility = models.CharField(
        max_length=16, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    skip_non_records = models.BooleanField(
        default=False, help_text="A file that is no game record is skipped, not failed."
    )
    modifiers = JSONColumn(
        default=list, blank=True, help_text="The rule modifiers the games were played with."
    )
    files = models.PositiveIntegerField(default=0, help_text="Files queued.")
    files_done = models.PositiveIntegerField(default=0, help_text="Files imported.")
    batches = models.PositiveIntegerField(default=0, help_text="Batches queued.")
    batches_done = models.PositiveIntegerField(default=0)
    all_queued = models.BooleanField(default=False, help_text="Whether every file is queued.")
    imported = models.PositiveIntegerField(default=0)
    duplicates = models.PositiveIntegerField(default=0)
    failed = models.PositiveIntegerField(default=0)
    skipped = models.PositiveIntegerField(default=0)
    problems = JSONColumn(
        default=list, help_text="The files that failed or were skipped: file, status, error."
    )
    verdicts = JSONColumn(
        default=dict,
        blank=True,
        help_text="How many of the games imported or found stored have each verdict.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at", "-id")

    def __str__(self) -> str:
        return f"queued import {self.pk}: {self.batches_done}/{self.batches} batches"

    @property
    def finished(self) -> bool:
        return self.finished_at is not None


class QueuedFile(models.Model):
    """One file of a :class:`QueuedImport`, waiting for its batch's task; deleted once the
    batch is imported."""

    queued_import = models.ForeignKey(QueuedImport, on_delete=models.CASCADE, related_name="+")
    batch = models.PositiveIntegerField()
    name = models.TextField(help_text="The file's name, as the import names it.")
    data = models.BinaryField(
        help_text="The file's bytes, compressed (config.compression: zstd; zlib before)."
    )
    skipped = models.TextField(blank=True, help_text="Why the file is passed over, if it is.")
    problem = models.TextField(blank=True, help_text="Why the file cannot be imported, if so.")

    class Meta:
        indexes = (models.Index(fields=("queued_import", "batch"), name="queued_file_batch"),)

    def __str__(self) -> str:
        return f"{self.name} (batch {self.batch} of queued import {self.queued_import_id})"
