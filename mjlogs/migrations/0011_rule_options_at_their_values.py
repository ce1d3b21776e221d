"""An option stated at the value its rule set has anyway is no claim (issue 40, item 3).

A record's identity (``content_hash``) now leaves out of the rule set it claims the options that
change nothing (``kuitan: true`` where the preset has open tanyao, ``modifiers: []``: see
``mjlogs.identity.stated_options``). The games stored with such options get their new identity,
and what their copies claim otherwise is marked again (a copy that differed only so no longer
claims another rule set). Which copy counts does not change: it does not rest on the rule set.

Where a game's new identity is already another game's of its scope (the same record, stored
twice before), it keeps its old one, as 0009 did: both stay, the later a copy.

Not reversed: the identities of before are those of one record spelt two ways.
"""

from collections import Counter, defaultdict
from typing import Any

from django.db import migrations


def rehash(apps: Any, schema_editor: Any) -> None:
    from engine.rules.tenhou import DATED_OPTIONS
    from mjlogs.copies import AGREEING, FETCHED, Copy, placements
    from mjlogs.identity import identities, stated_options

    Game = apps.get_model("mjlogs", "Game")
    GameSeat = apps.get_model("mjlogs", "GameSeat")
    LinkImport = apps.get_model("mjlogs", "LinkImport")
    Verification = apps.get_model("replay", "Verification")

    changed: list[int] = []
    for pk, ruleset, overrides in Game.objects.order_by("pk").values_list(
        "pk", "ruleset", "rule_overrides"
    ):
        stated = {k: v for k, v in (overrides or {}).items() if k not in DATED_OPTIONS}
        if stated and stated_options(ruleset, stated) != stated:
            changed.append(pk)
    plays: set[str] = set()
    for game in Game.objects.filter(pk__in=changed).order_by("pk"):
        try:
            play, record = identities(game.document)
        except (KeyError, TypeError, ValueError, AttributeError):
            continue  # a document no identity reads keeps its hashes (0009)
        plays.add(game.play_hash)
        if record == game.content_hash:
            continue
        same = Game.objects.filter(content_hash=record, visibility=game.visibility)
        if game.visibility != "public":
            same = same.filter(uploader_id=game.uploader_id)
        if not same.exists():
            Game.objects.filter(pk=game.pk).update(content_hash=record)

    for play in sorted(plays):
        rows = list(
            Game.objects.filter(play_hash=play).values(
                "pk", "visibility", "uploader_id", "document", "copy_conflicts"
            )
        )
        if len(rows) < 2:
            continue
        ids = [row["pk"] for row in rows]
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
        marked = defaultdict(list, {row["pk"]: list(row["copy_conflicts"] or []) for row in rows})
        for pk, placement in placements(copies).items():
            if list(placement.conflicts) != marked[pk]:
                Game.objects.filter(pk=pk).update(copy_conflicts=list(placement.conflicts))


class Migration(migrations.Migration):
    dependencies = [
        ("mjlogs", "0010_start_times_in_range"),
        ("replay", "0004_game_end_from_reports"),
    ]

    operations = [migrations.RunPython(rehash, migrations.RunPython.noop)]
