"""The Tenhou room of each game (engine.rules.tenhou.tenhou_room), for showing and filtering;
the games stored before get theirs from their documents' source."""

from typing import Any

from django.db import migrations, models

from engine.rules.tenhou import tenhou_room


def rooms_from_documents(apps: Any, schema_editor: Any) -> None:
    Game = apps.get_model("mjlogs", "Game")
    games = Game.objects.filter(source_format__in=("mjlog", "tenhou6"))
    for pk, document in games.values_list("pk", "document").iterator():
        extra = ((document or {}).get("source") or {}).get("extra") or {}
        room = tenhou_room(extra) if isinstance(extra, dict) else ""
        if room:
            Game.objects.filter(pk=pk).update(room=room)


class Migration(migrations.Migration):
    dependencies = [
        ("mjlogs", "0004_seat_points"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="room",
            field=models.CharField(
                blank=True,
                help_text="The Tenhou room the record says it was played in (ippan, joukyuu, "
                "tokujou, houou, or custom for a custom lobby); empty when it does not say.",
                max_length=16,
            ),
        ),
        migrations.RunPython(rooms_from_documents, migrations.RunPython.noop),
    ]
