"""Players per platform, anonymous seats and bots, and what the record says of each seat
(``mjlogs.provenance``); Mahjong Soul rooms.

Before, a name was one player whatever the platform (a Mahjong Soul game converted to
tenhou.net/6 counted as Tenhou), and every ``NoName`` guest was one player. The data step gives
every stored seat the player it has now: a person or bot by (platform, name), an anonymous
seat a player of its own. Seats that change player take their fact rows with them; the changed
players' summaries and ratings are dropped and marked behind (``stats.summary_backlog``,
``stats.rating_backlog``), so the next catch-up or ``recompute_stats`` computes them again, and
players left without a seat are deleted.
"""

from typing import Any

from django.db import migrations, models

from engine.events import GameHeader, Source
from mjlogs.provenance import platform_of, room_of, seat_kind

UNNAMED = "(no name)"


def _header(game: Any) -> GameHeader:
    source = game.document.get("source") or {}
    extra = source.get("extra") or {}
    return GameHeader(
        ruleset=game.ruleset,
        rule_overrides={},
        players=(),
        source=Source(format=str(source.get("format", game.source_format)), extra=extra),
    )


def reidentify_seats(apps: Any, schema_editor: Any) -> None:
    Game = apps.get_model("mjlogs", "Game")
    GameSeat = apps.get_model("mjlogs", "GameSeat")
    PlayerModel = apps.get_model("mjlogs", "Player")
    PlayerName = apps.get_model("mjlogs", "PlayerName")
    RoundFact = apps.get_model("stats", "RoundFact")
    RatingChange = apps.get_model("stats", "RatingChange")
    PlayerSummary = apps.get_model("stats", "PlayerSummary")
    SummaryBacklog = apps.get_model("stats", "SummaryBacklog")
    RatingsBacklog = apps.get_model("stats", "RatingsBacklog")

    players: dict[tuple[str, str], Any] = {
        (entry.platform, entry.name): entry.player
        for entry in PlayerName.objects.select_related("player")
    }
    changed: set[int] = set()
    for game in Game.objects.order_by("pk").iterator():
        header = _header(game)
        platform = platform_of(header, game.source_format)
        room = room_of(game.ruleset, game.source_format, header.source.extra)
        if room != game.room:
            Game.objects.filter(pk=game.pk).update(room=room)
        entries = game.document.get("players") or []
        for seat in GameSeat.objects.filter(game=game).select_related("player"):
            entry = entries[seat.seat] if seat.seat < len(entries) else {}
            name = str(entry.get("name", seat.player.name))
            kind = seat_kind(platform, name)
            shown = name.strip() or UNNAMED
            if kind == "anonymous":
                player = PlayerModel.objects.create(name=shown, platform=platform, kind=kind)
            else:
                # A name already known on its platform keeps its player (and its id and
                # links); a name new to its platform (a Mahjong Soul name counted as Tenhou's
                # before) is a new player.
                player = players.get((platform, name))
                if player is None:
                    player = PlayerModel.objects.create(name=shown)
                    PlayerName.objects.create(player=player, platform=platform, name=name)
                    players[(platform, name)] = player
                PlayerModel.objects.filter(pk=player.pk).update(platform=platform, kind=kind)
            GameSeat.objects.filter(pk=seat.pk).update(
                player=player,
                recorded_rank=str(entry.get("rank") or ""),
                recorded_rating=entry.get("rating"),
            )
            if player.pk != seat.player_id:
                RoundFact.objects.filter(game=game, seat=seat.seat).update(player=player)
                changed |= {player.pk, seat.player_id}
    # Names whose player no longer sits anywhere under them (a guest's shared NoName).
    PlayerName.objects.filter(player__seats__isnull=True).delete()
    PlayerModel.objects.filter(seats__isnull=True).delete()
    if changed:
        RatingChange.objects.all().delete()
        PlayerSummary.objects.filter(player_id__in=changed).delete()
        for pk in PlayerModel.objects.filter(pk__in=changed).values_list("pk", flat=True):
            SummaryBacklog.objects.get_or_create(player_id=pk)
        RatingsBacklog.objects.update_or_create(pk=1, defaults={"stale": True, "since": None})


class Migration(migrations.Migration):
    dependencies = [
        ("mjlogs", "0005_game_room"),
        ("stats", "0008_queued_catch_up_changed_at"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="platform",
            field=models.CharField(
                blank=True,
                help_text="Where the name comes from (tenhou, majsoul, ...).",
                max_length=32,
            ),
        ),
        migrations.AddField(
            model_name="player",
            name="kind",
            field=models.CharField(
                choices=[
                    ("person", "Person"),
                    ("anonymous", "Anonymous seat"),
                    ("bot", "Bot"),
                ],
                default="person",
                max_length=16,
            ),
        ),
        migrations.AddIndex(
            model_name="player",
            index=models.Index(fields=["kind"], name="player_kind"),
        ),
        migrations.AddField(
            model_name="gameseat",
            name="recorded_rank",
            field=models.CharField(
                blank=True,
                help_text="The rank the record gives the player (Tenhou dan).",
                max_length=32,
            ),
        ),
        migrations.AddField(
            model_name="gameseat",
            name="recorded_rating",
            field=models.FloatField(
                blank=True,
                help_text="The rating the record gives the player (Tenhou R).",
                null=True,
            ),
        ),
        migrations.AlterField(
            model_name="game",
            name="room",
            field=models.CharField(
                blank=True,
                help_text="The room the record says it was played in: Tenhou's ippan, joukyuu, "
                "tokujou, houou (custom for a custom lobby), Mahjong Soul's bronze, silver, gold, "
                "jade, throne; empty when it does not say.",
                max_length=16,
            ),
        ),
        migrations.RunPython(reidentify_seats, migrations.RunPython.noop),
    ]
