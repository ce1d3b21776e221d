"""The game page tells of the game's other records (issue 39, mjlogs.copies), in English and in
Japanese: a copy that does not count says whose copy it is, that it is not counted in the
statistics, and what it claims otherwise; the copy that counts lists its other copies (format,
upload date, what each claims otherwise). The corpus's Tenhou game as mjlog (real names) and as
mjx's tenhou.net/6 export (names hidden): the mjlog counts, the export is its copy."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from mjlogs import terms
from mjlogs.identity import CLAIM_LABELS
from mjlogs.importing import Status, import_file
from mjlogs.models import Game
from tests.engine.corpus import corpus_dir
from tests.mjlogs.conftest import Users
from tests.mjlogs.pages import EAST_4P, engine_game, plain, text
from tests.mjlogs.test_copies import LOG_ID, NAMES, document, upload

pytestmark = pytest.mark.django_db

#: The corpus pair of issue 39: one Tenhou game in two formats (MANIFEST.tsv).
PAIR = (
    f"mjlog_xml/mjx-project__mjx/{LOG_ID}.mjlog",
    f"tenhou6_json/mjx-project__mjx/{LOG_ID}.json",
)


def copies_section(client: Client, game_id: int, language: str) -> str:
    """The words of the game page's "Other records of this game" ("" when it has none)."""
    page = text(client.get(f"/games/{game_id}/", HTTP_ACCEPT_LANGUAGE=language))
    assert f'<html lang="{language}">' in page
    found = re.search(r'<section class="copies".*?</section>', page, re.DOTALL)
    # (plain() leaves a space where a tag ended before punctuation: "game 2 :")
    return re.sub(r" ([:;.,)])", r"\1", plain(found.group(0))) if found else ""


def compact(words: str) -> str:
    """Words without their spaces: Japanese has none between words, but the page's markup
    (a link, a ``<strong>``) leaves some in :func:`plain`'s text."""
    return "".join(words.split())


def links(client: Client, game_id: int) -> set[int]:
    """The games the copies section links to."""
    page = text(client.get(f"/games/{game_id}/", HTTP_ACCEPT_LANGUAGE="en"))
    section = re.search(r'<section class="copies".*?</section>', page, re.DOTALL)
    assert section is not None
    return {int(found) for found in re.findall(r'href="/games/(\d+)/"', section.group(0))}


def store_pair(run: Any) -> tuple[Game, Game]:
    """The corpus game as its mjlog and as its tenhou.net/6 export, verified: the export
    first (stored after the mjlog, it would add nothing to it, a duplicate not stored)."""
    corpus = corpus_dir()
    stored = []
    for path in reversed(PAIR):
        with run(execute=True):
            (outcome,) = import_file(Path(path).name, (corpus / path).read_bytes())
        assert outcome.status is Status.IMPORTED, outcome
        stored.append(outcome.game_id)
    return Game.objects.get(pk=stored[1]), Game.objects.get(pk=stored[0])


@pytest.mark.corpus
def test_both_records_of_a_corpus_game_say_which_counts(
    client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    mjlog, export = store_pair(django_capture_on_commit_callbacks)
    assert (mjlog.source_format, export.source_format) == ("mjlog", "tenhou6")
    assert mjlog.copy_of_id is None and export.copy_of_id == mjlog.pk
    uploaded = export.uploaded_at.strftime("%Y-%m-%d")

    english = copies_section(client, export.pk, "en")
    assert english.startswith("Other records of this game")
    assert f"This record is a copy of game {mjlog.pk}" in english
    assert f"It is not counted in the statistics; game {mjlog.pk} is." in english
    assert f"Nothing it says contradicts game {mjlog.pk}" in english
    assert links(client, export.pk) == {mjlog.pk}
    japanese = copies_section(client, export.pk, "ja")
    assert japanese.startswith("この対局の他の記録")
    assert compact(f"この記録は対局 {mjlog.pk} の写しです。") in compact(japanese)
    assert compact(f"統計には数えません。数えるのは対局 {mjlog.pk} です。") in compact(japanese)
    assert f"対局 {mjlog.pk} と食い違う点はありません" in japanese
    assert "copy" not in japanese and "counted" not in japanese

    english = copies_section(client, mjlog.pk, "en")
    assert "This record is the one counted in the statistics" in english
    assert (
        f"game {export.pk} (tenhou6, uploaded {uploaded}) — not counted; "
        "nothing it says contradicts this record."
    ) in english
    assert links(client, mjlog.pk) == {export.pk}
    japanese = copies_section(client, mjlog.pk, "ja")
    assert "統計に数えるのはこの記録です" in japanese
    assert compact(
        f"対局 {export.pk}（tenhou6、{uploaded} アップロード）— 統計には数えません。"  # noqa: RUF001
        "この記録と食い違う点はありません。"
    ) in compact(japanese)


def test_a_copy_that_says_otherwise_says_what_in_both_languages(
    client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    """Altered final scores uploaded first, the genuine record next: the genuine one counts,
    and both pages name what the other record claims otherwise (the final scores)."""
    run = django_capture_on_commit_callbacks
    genuine = document(engine_game(EAST_4P, 2, names=NAMES))
    tampered = copy.deepcopy(genuine)
    tampered["final"]["scores"][0] += 8000
    tampered["final"]["scores"][1] -= 8000
    first = upload(tampered, "tampered.json", run).game_id
    second = upload(genuine, "genuine.json", run).game_id
    assert Game.objects.get(pk=first).copy_of_id == second

    english = copies_section(client, first, "en")
    assert f"Where it says otherwise than game {second}: the final scores." in english
    japanese = copies_section(client, first, "ja")
    assert f"対局 {second} と食い違う点：最終持ち点。" in japanese  # noqa: RUF001

    english = copies_section(client, second, "en")
    assert (
        f"game {first} (canonical, uploaded {Game.objects.get(pk=first).uploaded_at:%Y-%m-%d}) "
        "— not counted; where it says otherwise: the final scores."
    ) in english
    assert "The records say otherwise about the final scores: the statistics go by this one." in (
        english
    )
    japanese = copies_section(client, second, "ja")
    assert "— 統計には数えません。食い違う点：最終持ち点。" in japanese  # noqa: RUF001
    assert "最終持ち点について記録どうしが食い違っています。統計はこの記録に従います。" in japanese


def test_a_game_with_no_other_record_has_no_section(client: Client, store: Any) -> None:
    game = store(engine_game(EAST_4P, 7, names=NAMES))
    page = text(client.get(f"/games/{game.pk}/"))
    assert 'class="copies"' not in page and "Other records of this game" not in page


def test_a_private_copy_is_marked_so_for_its_uploader_only(
    client: Client, users: Users, django_capture_on_commit_callbacks: Any
) -> None:
    run = django_capture_on_commit_callbacks
    public = upload(document(engine_game(EAST_4P, 6, names=NAMES)), "p.json", run).game_id
    names = ("Ann", "Ben", "Cat", "Eve")
    private = upload(
        document(engine_game(EAST_4P, 6, names=names)),
        "mine.json",
        run,
        uploader=users.alice,
        visibility="private",
    ).game_id
    assert copies_section(client, public, "en") == ""  # a stranger sees no private copy
    client.force_login(users.alice)
    english = copies_section(client, public, "en")
    assert f"game {private} (canonical, uploaded " in english and ", private) —" in english
    assert "where it says otherwise: the players' names." in english
    assert "非公開" in copies_section(client, public, "ja")
    assert f"Where it says otherwise than game {public}: the players' names." in (
        copies_section(client, private, "en")
    )


def test_every_claim_a_copy_may_conflict_in_has_its_words() -> None:
    """A new claim (``mjlogs.identity.CLAIM_LABELS``) needs its words on the pages."""
    assert set(terms.CLAIMS) == set(CLAIM_LABELS.values())
    with_words = terms.claims_words(["final scores", "date"])
    assert with_words == "the final scores, the date"
