"""A canonical record's source is a claim: its names are canonical players, it names no room
(``mjlogs.provenance``, issue 40).

Before, a canonical upload whose ``source`` said ``mjlog`` or ``tenhou6`` (or whose rule set was
Mahjong Soul's) seated that platform's players and took the room it claimed, so anyone could
write a game into a real Tenhou player's statistics. The data step gives each seat of a stored
canonical game that is not our self-play the canonical player of its name (a guest's NoName or
an empty name an anonymous seat of its own), and clears the room. Seats that change player take
their fact rows with them; the changed players' summaries are dropped and marked behind, the
ratings marked stale, so the next catch-up (or ``recompute_stats``) computes them again; players
left without a seat go.

One way: the reverse step leaves the seats as they are (the code of before reads them; seating
them on the claimed platform again would only bring the fault back).
"""

from typing import Any

from django.db import migrations

#: As ``mjlogs.provenance`` was when this was written.
CANONICAL = "canonical"
ANONYMOUS_NAMES = ("", "NoName")
UNNAMED = "(no name)"


def canonical_players(apps: Any, schema_editor: Any) -> None:
    Game = apps.get_model("mjlogs", "Game")
    GameSeat = apps.get_model("mjlogs", "GameSeat")
    PlayerModel = apps.get_model("mjlogs", "Player")
    PlayerName = apps.get_model("mjlogs", "PlayerName")
    RoundFact = apps.get_model("stats", "RoundFact")
    RatingChange = apps.get_model("stats", "RatingChange")
    PlayerSummary = apps.get_model("stats", "PlayerSummary")
    SummaryBacklog = apps.get_model("stats", "SummaryBacklog")
    RatingsBacklog = apps.get_model("stats", "RatingsBacklog")

    changed: set[int] = set()
    named = {
        entry.name: entry.player
        for entry in PlayerName.objects.filter(platform=CANONICAL).select_related("player")
    }
    games = Game.objects.filter(source_format=CANONICAL).only("pk", "document", "room")
    for game in games.iterator():
        document = game.document or {}
        if ((document.get("source") or {}).get("format")) == "sim":
            continue  # our self-play: bots, as the claim says
        if game.room:
            Game.objects.filter(pk=game.pk).update(room="")
        entries = document.get("players") or []
        for seat in GameSeat.objects.filter(game_id=game.pk).select_related("player"):
            if seat.player.platform == CANONICAL or seat.seat >= len(entries):
                continue
            name = str(entries[seat.seat].get("name", ""))
            if name.strip() in ANONYMOUS_NAMES:
                player = PlayerModel.objects.create(
                    name=name.strip() or UNNAMED, platform=CANONICAL, kind="anonymous"
                )
            else:
                player = named.get(name)
                if player is None:
                    player = PlayerModel.objects.create(
                        name=name.strip(), platform=CANONICAL, kind="person"
                    )
                    PlayerName.objects.create(player=player, platform=CANONICAL, name=name)
                    named[name] = player
            GameSeat.objects.filter(pk=seat.pk).update(player=player)
            RoundFact.objects.filter(game_id=game.pk, seat=seat.seat).update(player=player)
            changed.update((seat.player_id, player.pk))

    if not changed:
        return
    gone = PlayerModel.objects.filter(pk__in=changed, seats__isnull=True)
    PlayerName.objects.filter(player__in=gone).delete()
    gone.delete()
    RatingChange.objects.all().delete()
    PlayerSummary.objects.filter(player_id__in=changed).delete()
    for pk in PlayerModel.objects.filter(pk__in=changed).values_list("pk", flat=True):
        SummaryBacklog.objects.get_or_create(player_id=pk)
    RatingsBacklog.objects.update_or_create(pk=1, defaults={"stale": True, "since": None})


class Migration(migrations.Migration):
    dependencies = [
        ("mjlogs", "0011_rule_options_at_their_values"),
        ("stats", "0011_study_defence"),
    ]

    operations = [
        migrations.RunPython(canonical_players, migrations.RunPython.noop),
    ]
