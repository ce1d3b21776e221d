"""Copies of one game (issue 39): every stored game gets its play identity (``play_hash``) and its
record's identity (``content_hash``: the play and all the record claims), and the copies of one
game already stored are folded: one of them counts, the others name it (``copy_of``) and what they
claim otherwise (``copy_conflicts``), as ``mjlogs.copies`` chooses. Nothing is deleted.

Before, the identity was the play and the names: a game stored as an mjlog and as tenhou.net/6
with the names hidden was two games, counted twice (31 such pairs in the corpus); a copy with
other final scores or another date was a duplicate of the first stored, so a tampered copy
uploaded first kept the genuine record out.

Where two stored games of one scope turn out to be one record, the later keeps its old hash (as
0003 did): both stay, the later a copy. The games that stop counting have their players'
summaries dropped and marked behind, and the ratings marked stale.

Reversible: the reverse step gives every game its hash of before (``_identity_0003``), where no
game of its scope took it first, and marks the statistics of the copies' players behind, which
then count again, as they did before.
"""

from collections import Counter, defaultdict
from typing import Any

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def _mark_behind(apps: Any, game_ids: set[int]) -> None:
    """The statistics of these games' players are behind; the ratings are stale."""
    if not game_ids:
        return
    GameSeat = apps.get_model("mjlogs", "GameSeat")
    PlayerSummary = apps.get_model("stats", "PlayerSummary")
    SummaryBacklog = apps.get_model("stats", "SummaryBacklog")
    RatingsBacklog = apps.get_model("stats", "RatingsBacklog")
    RatingChange = apps.get_model("stats", "RatingChange")
    players = set(GameSeat.objects.filter(game_id__in=game_ids).values_list("player_id", flat=True))
    PlayerSummary.objects.filter(player_id__in=players).delete()
    for pk in players:
        SummaryBacklog.objects.get_or_create(player_id=pk)
    RatingChange.objects.all().delete()
    RatingsBacklog.objects.update_or_create(pk=1, defaults={"stale": True, "since": None})


def identify_and_fold(apps: Any, schema_editor: Any) -> None:
    from mjlogs.copies import AGREEING, FETCHED, Copy, placements
    from mjlogs.identity import identities

    Game = apps.get_model("mjlogs", "Game")
    GameSeat = apps.get_model("mjlogs", "GameSeat")
    LinkImport = apps.get_model("mjlogs", "LinkImport")
    Verification = apps.get_model("replay", "Verification")

    taken: set[tuple[str, str, object]] = set()
    plays: dict[str, list[int]] = defaultdict(list)
    games = Game.objects.order_by("pk").only(
        "pk", "document", "visibility", "uploader_id", "content_hash"
    )
    for game in games.iterator(chunk_size=200):
        try:
            play, record = identities(game.document)
        except (KeyError, TypeError, ValueError, AttributeError):
            # A document no identity can read (none is stored so, but a row may be made by
            # hand): its old hash, unique in its scope, is its play too, a game of its own.
            Game.objects.filter(pk=game.pk).update(play_hash=game.content_hash)
            continue
        values = {"play_hash": play}
        scope = (game.visibility, record, None if game.visibility == "public" else game.uploader_id)
        if scope not in taken:
            taken.add(scope)
            values["content_hash"] = record
        Game.objects.filter(pk=game.pk).update(**values)
        plays[play].append(game.pk)

    copied: set[int] = set()
    for ids in plays.values():
        if len(ids) < 2:
            continue
        verdicts = dict(
            Verification.objects.filter(game_id__in=ids).values_list("game_id", "verdict")
        )
        fetched = set(
            LinkImport.objects.filter(game_id__in=ids, status__in=FETCHED).values_list(
                "game_id", flat=True
            )
        )
        guests = Counter(
            GameSeat.objects.filter(game_id__in=ids, player__kind="anonymous").values_list(
                "game_id", flat=True
            )
        )
        rows = Game.objects.filter(pk__in=ids).values("pk", "visibility", "uploader_id", "document")
        copies = [
            Copy(
                pk=row["pk"],
                visibility=row["visibility"],
                uploader_id=row["uploader_id"],
                document=row["document"],
                agrees=verdicts.get(row["pk"]) in AGREEING,
                fetched=row["pk"] in fetched,
                guests=guests[row["pk"]],
            )
            for row in rows
        ]
        for pk, placement in placements(copies).items():
            Game.objects.filter(pk=pk).update(
                copy_of_id=placement.copy_of, copy_conflicts=list(placement.conflicts)
            )
            if placement.copy_of is not None:
                copied.add(pk)
    _mark_behind(apps, copied)


def unfold(apps: Any, schema_editor: Any) -> None:
    from mjlogs.migrations._identity_0003 import identity_hash_0003

    Game = apps.get_model("mjlogs", "Game")
    copied = set(Game.objects.filter(copy_of__isnull=False).values_list("pk", flat=True))
    Game.objects.update(copy_of=None, copy_conflicts=[])
    taken: set[tuple[str, str, object]] = set()
    games = Game.objects.order_by("pk").only("pk", "document", "visibility", "uploader_id")
    for game in games.iterator(chunk_size=200):
        try:
            digest = identity_hash_0003(game.document)
        except (KeyError, TypeError, ValueError, AttributeError):
            continue  # (as above) its hash stays
        scope = (game.visibility, digest, None if game.visibility == "public" else game.uploader_id)
        if scope in taken:
            continue
        taken.add(scope)
        Game.objects.filter(pk=game.pk).update(content_hash=digest)
    _mark_behind(apps, copied)


class Migration(migrations.Migration):
    dependencies = [
        ("mjlogs", "0008_hidden_names_and_bots"),
        ("replay", "0004_game_end_from_reports"),
        ("stats", "0010_study_discards"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="copy_conflicts",
            field=models.JSONField(
                blank=True,
                default=list,
                help_text="What this record claims otherwise than another copy of the game (names, final scores, date, ...; mjlogs.identity.CLAIM_LABELS); empty when they agree.",
            ),
        ),
        migrations.AddField(
            model_name="game",
            name="copy_of",
            field=models.ForeignKey(
                blank=True,
                help_text="The copy of this game that counts, when this record is another copy of it; null for the copy that counts (mjlogs.copies).",
                null=True,
                on_delete=django.db.models.deletion.RESTRICT,
                related_name="copies",
                to="mjlogs.game",
            ),
        ),
        migrations.AddField(
            model_name="game",
            name="play_hash",
            field=models.CharField(
                default="",
                help_text="SHA-256 of what was played, the same for every copy of the game (engine.identity).",
                max_length=64,
            ),
        ),
        migrations.AlterField(
            model_name="game",
            name="content_hash",
            field=models.CharField(
                help_text="SHA-256 of the record: what was played and all it claims (mjlogs.identity).",
                max_length=64,
            ),
        ),
        migrations.RunPython(identify_and_fold, unfold),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(fields=["play_hash"], name="game_play_hash"),
        ),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.UniqueConstraint(
                condition=models.Q(("copy_of__isnull", True), ("visibility", "public")),
                fields=("play_hash",),
                name="game_counted_public",
            ),
        ),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.UniqueConstraint(
                condition=models.Q(
                    ("copy_of__isnull", True),
                    ("uploader__isnull", False),
                    ("visibility", "private"),
                ),
                fields=("play_hash", "uploader"),
                name="game_counted_private_per_uploader",
            ),
        ),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.UniqueConstraint(
                condition=models.Q(
                    ("copy_of__isnull", True), ("uploader__isnull", True), ("visibility", "private")
                ),
                fields=("play_hash",),
                name="game_counted_private_no_uploader",
            ),
        ),
    ]
