"""Each seat's final points by the rule set, kept with the seat when its game is verified whole
(``replay.services``); the games verified before are filled from their verification's report."""

from typing import Any

from django.db import migrations, models


def points_from_reports(apps: Any, schema_editor: Any) -> None:
    Verification = apps.get_model("replay", "Verification")
    GameSeat = apps.get_model("mjlogs", "GameSeat")
    verified = Verification.objects.filter(verdict="verified", complete=True)
    for game_id, report in verified.values_list("game_id", "report").iterator():
        points = (report or {}).get("points")
        if not isinstance(points, list):
            continue
        for seat, value in enumerate(points):
            GameSeat.objects.filter(game_id=game_id, seat=seat).update(points=value)


class Migration(migrations.Migration):
    dependencies = [
        ("mjlogs", "0003_game_identity_by_visibility"),
        ("replay", "0003_verification_frames_index"),
    ]

    operations = [
        migrations.AddField(
            model_name="gameseat",
            name="points",
            field=models.FloatField(
                blank=True,
                help_text="Final points by the rule set (the score less the return, in "
                "thousands, with uma and oka), as the verification computed them; only for a "
                "game verified whole.",
                null=True,
            ),
        ),
        migrations.RunPython(points_from_reports, migrations.RunPython.noop),
    ]
