"""A game the rules engine verified whole is complete, with every seat's final score and place
(``mjlogs.game_end``, issue 39): the games verified before whose records state no end (a
tenhou.net/6 record split into one hand per JSON object) get them from their verification's
report, as a verification now stores them."""

from typing import Any

from django.db import migrations


def game_ends_from_reports(apps: Any, schema_editor: Any) -> None:
    Verification = apps.get_model("replay", "Verification")
    Game = apps.get_model("mjlogs", "Game")
    GameSeat = apps.get_model("mjlogs", "GameSeat")
    verified = Verification.objects.filter(verdict="verified", game__complete=False)
    for game_id, report in verified.values_list("game_id", "report").iterator():
        report = report or {}
        if report.get("complete") is not True:
            continue
        Game.objects.filter(pk=game_id).update(complete=True)
        scores, places = report.get("final_scores"), report.get("placements")
        if not isinstance(scores, list) or not isinstance(places, list):
            continue
        seats = GameSeat.objects.filter(game_id=game_id, final_score__isnull=True)
        for seat in seats:
            if seat.seat < min(len(scores), len(places)):
                seat.final_score, seat.placement = scores[seat.seat], places[seat.seat]
                seat.save(update_fields=["final_score", "placement"])


class Migration(migrations.Migration):
    dependencies = [
        ("mjlogs", "0007_link_import"),
        ("replay", "0003_verification_frames_index"),
    ]

    operations = [migrations.RunPython(game_ends_from_reports, migrations.RunPython.noop)]
