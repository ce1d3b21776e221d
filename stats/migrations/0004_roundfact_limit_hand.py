"""RoundFact.limit_hand: whether a win was a limit hand, as the engine values it.

Until now the statistics counted ``han >= 13`` as a yakuman, which is right for riichi scoring
only (small mahjong's ``han`` is points, Ùzje's is fan in tenths). The rows already stored are
filled by that old rule for the riichi rule sets; re-verifying a game
(``manage.py reverify``) recomputes the flag from the engine's limit.
"""

from django.db import migrations, models
from django.db.models import Q

#: Rule sets whose ``han`` is not riichi han (small mahjong, Ùzje mahjong).
NOT_RIICHI_HAN = Q(game__ruleset__startswith="small-") | Q(game__ruleset__startswith="uzje-")


def fill_from_han(apps, schema_editor):  # type: ignore[no-untyped-def]
    RoundFact = apps.get_model("stats", "RoundFact")
    RoundFact.objects.filter(won=True, han__gte=13).exclude(NOT_RIICHI_HAN).update(limit_hand=True)


class Migration(migrations.Migration):
    dependencies = [("stats", "0003_rating_change")]

    operations = [
        migrations.AddField(
            model_name="roundfact",
            name="limit_hand",
            field=models.BooleanField(
                default=False,
                help_text="The win was a limit hand: a yakuman (counted ones too) or Ùzje.",
            ),
        ),
        migrations.RunPython(fill_from_han, migrations.RunPython.noop),
    ]
