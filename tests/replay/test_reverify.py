"""``manage.py reverify``: all games, or only those verified by an older engine or never."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

import engine
from engine.formats import canonical
from engine.sim.selfplay import simulate
from mjlogs.importing import import_file
from replay.models import Verdict, Verification

pytestmark = pytest.mark.django_db(transaction=True)


def reverify(*args: str) -> str:
    out = io.StringIO()
    call_command("reverify", *args, "--quiet", stdout=out)
    return out.getvalue()


def test_outdated_reverifies_older_and_missing_verdicts_only() -> None:
    ids = []
    for index, game in enumerate(simulate("tenhou-4p-east", 3, 17)):
        (outcome,) = import_file(f"{index}.json", canonical.write([game]))
        assert outcome.game_id is not None
        ids.append(outcome.game_id)
    old, missing, current = ids
    Verification.objects.filter(game_id=old).update(engine_version="0.0.1", verdict="pending")
    Verification.objects.filter(game_id=missing).delete()
    untouched = Verification.objects.get(game_id=current).verified_at

    assert reverify("--outdated") == "2 games verified: 2 verified\n"
    rows = {row.game_id: row for row in Verification.objects.all()}
    assert {row.engine_version for row in rows.values()} == {engine.__version__}
    assert rows[old].verdict == rows[missing].verdict == Verdict.VERIFIED
    assert rows[current].verified_at == untouched

    assert reverify("--outdated") == "0 games verified\n"
    assert reverify() == "3 games verified: 3 verified\n"
    assert Verification.objects.get(game_id=current).verified_at != untouched
