"""The site in English or Japanese (issue 24): chosen by the browser's Accept-Language, or by the
header's switch (Django's set_language, remembered in a cookie), which wins over the browser;
yaku in Japanese from the engine's yaku table; and the catalogue itself: every string marked for
translation has its Japanese, and the compiled django.mo says exactly what django.po says.

The viewer's own strings (replay/static/replay/viewer/strings.js) are checked in the browser:
tests/browser/test_translations.py.
"""

from __future__ import annotations

import ast
import gettext
import re
import shutil
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client
from django.utils import translation

from engine.replay import replay
from engine.rules.yaku import YAKU
from mjlogs import terms
from tests.mjlogs.conftest import Store
from tests.mjlogs.pages import engine_game, plain, rows, text

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "locale" / "ja" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")
#: The folders whose strings are translated (docs/development.md, "Translations").
SOURCES = ("config", "mjlogs", "replay", "stats", "templates")
LANGUAGE_COOKIE = settings.LANGUAGE_COOKIE_NAME


# -- The catalogue ------------------------------------------------------------------------------


def read_po(path: Path) -> dict[tuple[str | None, str], list[str]]:
    """Every entry of a .po file, read with the standard library only: ``(context, msgid)``
    to its msgstr, a list of one for a singular entry, one per form (``msgstr[n]``) for a
    plural one (a tuple then, to tell them apart). The header (msgid "") is left out."""
    entries: dict[tuple[str | None, str], list[str]] = {}
    fields: dict[str, list[str]] = {}
    current = ""

    def join(name: str) -> str:
        return "".join(ast.literal_eval(part) for part in fields[name])

    def flush() -> None:
        if "msgid" in fields and join("msgid"):
            context = join("msgctxt") if "msgctxt" in fields else None
            if "msgid_plural" in fields:
                forms = sorted(name for name in fields if name.startswith("msgstr["))
                entries[context, join("msgid")] = tuple(join(name) for name in forms)  # type: ignore[assignment]
            else:
                entries[context, join("msgid")] = [join("msgstr")]
        fields.clear()

    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            flush()
            continue
        if line.startswith("#"):
            continue
        keyword = re.match(r"^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?) (\".*\")$", line)
        if keyword:
            current = keyword.group(1)
            fields[current] = [keyword.group(2)]
        else:
            assert line.startswith('"'), line
            fields[current].append(line)
    flush()
    return entries


def test_every_string_of_the_catalogue_has_its_japanese() -> None:
    entries = read_po(PO)
    assert len(entries) > 400
    untranslated = [key for key, forms in entries.items() if not all(forms)]
    assert untranslated == []
    assert "#, fuzzy" not in PO.read_text(encoding="utf-8")


def test_the_compiled_catalogue_is_the_po_file() -> None:
    """The .mo in the repository (the site does not compile it: CI and servers need no gettext)
    holds exactly the .po's translations: recompile (manage.py compilemessages) after every
    change to the .po."""
    with MO.open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    catalog = {key: value for key, value in compiled._catalog.items() if key != ""}  # type: ignore[attr-defined]
    expected: dict[object, str] = {}
    for (context, msgid), forms in read_po(PO).items():
        key = msgid if context is None else f"{context}\x04{msgid}"
        if isinstance(forms, tuple):
            expected.update({(key, index): form for index, form in enumerate(forms)})
        else:
            expected[key] = forms[0]
    assert catalog == expected, "django.mo is not django.po: run manage.py compilemessages"
    # And it is what the site reads.
    with translation.override("ja"):
        assert translation.gettext("Leaderboard") == "ランキング"
        assert translation.pgettext("hand name", "E%(number)s") == "東%(number)s局"


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="GNU gettext is not installed")
def test_every_marked_string_is_in_the_catalogue(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, settings: object
) -> None:
    """makemessages finds no string the .po lacks (nor one it no longer needs): a string marked
    in a template or in Python needs its Japanese in the same change. Run on a copy of the
    sources, so that the repository's catalogue is left alone."""
    for folder in SOURCES:
        shutil.copytree(
            ROOT / folder,
            tmp_path / folder,
            ignore=shutil.ignore_patterns("static", "__pycache__", "locale"),
        )
    monkeypatch.chdir(tmp_path)
    settings.LOCALE_PATHS = [tmp_path / "locale"]  # type: ignore[attr-defined]
    call_command("makemessages", locale=["ja"], extensions=["html", "txt", "py"], verbosity=0)
    extracted = set(read_po(tmp_path / "locale" / "ja" / "LC_MESSAGES" / "django.po"))
    catalogue = set(read_po(PO))
    assert sorted(extracted - catalogue, key=str) == [], "marked, but not in django.po"
    assert sorted(catalogue - extracted, key=str) == [], "in django.po, but marked nowhere"


# -- Choosing the language ----------------------------------------------------------------------


def test_the_browser_language_chooses_the_pages_language(client: Client) -> None:
    japanese = text(client.get("/", HTTP_ACCEPT_LANGUAGE="ja,en;q=0.5"))
    assert '<html lang="ja">' in japanese
    assert "麻雀の対局を記録・再生・検証" in japanese and "ランキング" in japanese
    assert "Record, replay and verify mahjong games" not in japanese
    assert ">Leaderboard<" not in japanese
    english = text(client.get("/", HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.8"))
    assert '<html lang="en">' in english
    assert "Record, replay and verify mahjong games" in english and ">Leaderboard<" in english
    assert "麻雀の対局" not in english and "ランキング" not in english
    # A language the site does not have: English, the default.
    assert '<html lang="en">' in text(client.get("/", HTTP_ACCEPT_LANGUAGE="fr"))


@pytest.mark.django_db
def test_the_switch_posts_to_set_language_with_this_page_as_next(client: Client) -> None:
    page = text(client.get("/players/?q=a", HTTP_ACCEPT_LANGUAGE="en"))
    form = page.split('class="inline language-switch"', 1)[1].split("</form>", 1)[0]
    assert page.count('action="/i18n/setlang/"') == 1
    assert 'name="next" value="/players/?q=a"' in form
    assert 'name="csrfmiddlewaretoken"' in form
    # A button per language, each named in its own language; the current one is marked.
    assert re.search(r'value="en" lang="en"[^>]*aria-current="true" disabled>English<', form)
    assert re.search(r'value="ja" lang="ja" class="link-button">日本語<', form)


@pytest.mark.django_db
def test_the_switch_remembers_the_choice_over_the_browsers_language(client: Client) -> None:
    answer = client.post(
        "/i18n/setlang/", {"language": "ja", "next": "/games/"}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert answer.status_code == 302 and answer["Location"] == "/games/"
    assert answer.cookies[LANGUAGE_COOKIE].value == "ja"
    # The browser asks for English; the choice wins.
    page = text(client.get("/games/", HTTP_ACCEPT_LANGUAGE="en"))
    assert '<html lang="ja">' in page and "<h1>対局</h1>" in page
    assert "<h1>Games</h1>" not in page
    # And back to English, although the browser asks for Japanese.
    client.post("/i18n/setlang/", {"language": "en", "next": "/games/"})
    assert client.cookies[LANGUAGE_COOKIE].value == "en"
    page = text(client.get("/games/", HTTP_ACCEPT_LANGUAGE="ja"))
    assert '<html lang="en">' in page and "<h1>Games</h1>" in page
    assert "<h1>対局</h1>" not in page


@pytest.mark.django_db
def test_no_address_has_a_language_prefix(client: Client) -> None:
    assert client.get("/ja/games/").status_code == 404
    assert client.get("/games/", HTTP_ACCEPT_LANGUAGE="ja").status_code == 200


# -- Pages in Japanese ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_game_list_in_japanese(client: Client, store: Store) -> None:
    store(engine_game(names=("Ann", "Ben", "Cho", "Dai")))
    page = text(client.get("/games/", HTTP_ACCEPT_LANGUAGE="ja"))
    (row,) = rows(page, "games")
    assert '<span class="badge badge-verified">検証済み</span>' in row
    assert ">再生<" in row and ">詳細<" in row and "1位" in row
    assert "Verified" not in row and ">Replay<" not in row and "1st" not in row
    assert "1件の対局" in page and '<th scope="col">判定</th>' in page
    # The table's cache is per language: English afterwards is English again.
    english = rows(text(client.get("/games/", HTTP_ACCEPT_LANGUAGE="en")), "games")[0]
    assert '<span class="badge badge-verified">Verified</span>' in english
    assert "検証済み" not in english


@pytest.mark.django_db
def test_the_game_page_in_japanese_names_hands_and_yaku_in_japanese(
    client: Client, store: Store
) -> None:
    played = engine_game(names=("Ann", "Ben", "Cho", "Dai"))
    game = store(played)
    report = replay(played)
    page = text(client.get(f"/games/{game.pk}/", HTTP_ACCEPT_LANGUAGE="ja"))
    assert "判定：" in page and "検証済み" in page and "この牌譜について" in page  # noqa: RUF001
    table = rows(page, "rounds")
    wins = 0
    for row, summary in zip(table, report.rounds, strict=True):
        words = plain(row)
        wind, number = summary.name[0], summary.name[1:]
        assert words.startswith(f"{'東南西北'['ESWN'.index(wind)]}{number}局")
        for win in summary.wins:
            wins += 1
            assert f"{win.han}翻" in words and (not win.fu or f"{win.fu}符" in words)
            for yaku, han in win.yaku:
                assert f"{YAKU[yaku].japanese} {han}" in words
                assert f"{yaku.replace('_', ' ')} {han}" not in words
            assert "ツモ和了" in words or "からロン和了" in words
        assert " han" not in words and " fu" not in words
    assert wins > 0
    players = rows(page, "players")
    assert plain(players[0]).startswith("東 ")  # the first dealer's seat wind
    english = text(client.get(f"/games/{game.pk}/", HTTP_ACCEPT_LANGUAGE="en"))
    assert "東1局" not in english and "Verdict:" in english


@pytest.mark.django_db
def test_the_statistics_page_in_japanese_names_the_yaku_in_japanese(client: Client) -> None:
    from tests.stats.stats_data import build_world

    world = build_world()
    ann = world.players["Ann"]
    page = text(client.get(f"/stats/players/{ann.pk}/", HTTP_ACCEPT_LANGUAGE="ja"))
    assert "<td>断幺九</td>" in page and "<td>平和</td>" in page
    assert "<td>tanyao</td>" not in page
    assert "<caption>順位</caption>" in page and "和了率" in page
    assert 'data-yaku="tanyao">2<' in page  # the data attributes stay the engine's names
    english = text(client.get(f"/stats/players/{ann.pk}/", HTTP_ACCEPT_LANGUAGE="en"))
    assert "<td>tanyao</td>" in english and "断幺九" not in english


@pytest.mark.django_db
def test_the_viewer_page_gives_the_script_its_language_and_yaku_names(
    client: Client, store: Store
) -> None:
    game = store(engine_game(names=("Ann", "Ben", "Cho", "Dai")))
    page = text(client.get(f"/replay/{game.pk}/", HTTP_ACCEPT_LANGUAGE="ja"))
    assert '<html lang="ja">' in page
    assert '"yaku_names": {' in page and '"riichi": "\\u7acb\\u76f4"' in page  # 立直
    assert "キーボード操作" in page and "Keyboard shortcuts" not in page
    english = text(client.get(f"/replay/{game.pk}/", HTTP_ACCEPT_LANGUAGE="en"))
    assert '"yaku_names": {}' in english and "Keyboard shortcuts" in english


# -- The game's words ---------------------------------------------------------------------------


def test_hand_names_counters_places_and_limits_in_each_language() -> None:
    with translation.override("ja"):
        assert [terms.hand_name(name) for name in ("E1", "S4", "W2", "N3")] == [
            "東1局",
            "南4局",
            "西2局",
            "北3局",
        ]
        assert terms.honba(2) == " 2本場"
        assert [terms.ordinal(n) for n in (1, 2, 3, 4, 5, 6)] == [f"{n}位" for n in range(1, 7)]
        assert terms.limit_name("haneman") == "跳満"
        assert terms.limit_name("double_yakuman") == "ダブル役満"
        assert terms.yaku_name("round_wind_east") == "場風 東"
        assert terms.yaku_name("some_uzje_pattern") == "some uzje pattern"
        assert terms.seat_wind(0) == "東"
    with translation.override("en"):
        assert terms.hand_name("E1") == "E1" and terms.honba(2) == "-2"
        assert [terms.ordinal(n) for n in (1, 2, 3, 4, 11)] == ["1st", "2nd", "3rd", "4th", "11th"]
        assert terms.limit_name("double_yakuman") == "double yakuman"
        assert terms.yaku_name("round_wind_east") == "round wind east"
        assert terms.seat_wind(0) == "East"
