"""Tenhou's hidden names are guests, and self-play is bots under every rule set
(``mjlogs.provenance``, issue 39).

Before, a Tenhou record's placeholders for hidden names (``Aさん`` to ``Dさん``, mjx's tenhou.net/6
exports) were four people who sat at every such table and ranked on the leaderboard, and a
self-played game under Mahjong Soul's rules (the demo's) seated Mahjong Soul people. The data step
gives each such seat the player it has now: a guest seat a player of its own, a self-played seat
the bot of its name (platform ``sim``). Seats that change player take their fact rows with them;
the changed players' summaries are dropped and marked behind, the ratings marked stale, so the
next catch-up (or ``recompute_stats``) computes them again; players left without a seat go.

One way: the reverse step leaves the seats as they are. No column changed, so the code of before
reads them; seating the placeholders and the demo's bots as people again would only bring the
fault back.
"""

from typing import Any

from django.db import migrations

#: As ``mjlogs.provenance.TENHOU_HIDDEN_NAMES`` was when this was written.
TENHOU_HIDDEN_NAMES = ("Aさん", "Bさん", "Cさん", "Dさん")
UNNAMED = "(no name)"


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

    changed: set[int] = set()

    def reseat(seat: Any, player: Any) -> None:
        GameSeat.objects.filter(pk=seat.pk).update(player=player)
        RoundFact.objects.filter(game_id=seat.game_id, seat=seat.seat).update(player=player)
        changed.update((seat.player_id, player.pk))

    # Tenhou's hidden names: each seat a guest of its own.
    hidden = PlayerName.objects.filter(platform="tenhou", name__in=TENHOU_HIDDEN_NAMES)
    hidden_players = list(hidden.values_list("player_id", flat=True))
    for seat in GameSeat.objects.filter(player_id__in=hidden_players).select_related("player"):
        guest = PlayerModel.objects.create(
            name=seat.player.name, platform="tenhou", kind="anonymous"
        )
        reseat(seat, guest)
    hidden.delete()

    # Self-play under Mahjong Soul's rules: bots, as under every other rule set.
    bots = {entry.name: entry.player for entry in PlayerName.objects.filter(platform="sim")}
    for game in Game.objects.filter(ruleset__startswith="majsoul").only("pk", "document"):
        source = (game.document or {}).get("source") or {}
        if source.get("format") != "sim":
            continue
        entries = game.document.get("players") or []
        for seat in GameSeat.objects.filter(game=game).select_related("player"):
            if seat.player.platform == "sim" or seat.seat >= len(entries):
                continue
            name = str(entries[seat.seat].get("name", ""))
            bot = bots.get(name)
            if bot is None:
                bot = PlayerModel.objects.create(
                    name=name.strip() or UNNAMED, platform="sim", kind="bot"
                )
                PlayerName.objects.create(player=bot, platform="sim", name=name)
                bots[name] = bot
            reseat(seat, bot)

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
        ("mjlogs", "0007_link_import"),
        ("stats", "0010_study_discards"),
    ]

    operations = [
        migrations.RunPython(reidentify_seats, migrations.RunPython.noop),
    ]
