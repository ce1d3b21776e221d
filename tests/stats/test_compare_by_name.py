"""The compare page takes players by name (issue 22): a name, ``name@platform`` or an id (the
links of before give the same page); an ambiguous name lists its players as links, an unknown
one the close matches; only players the visitor may see, never anonymous seats. The world is
``tests/stats/names_data.py``'s."""

from __future__ import annotations

import re
from html import unescape
from typing import Any
from urllib.parse import quote

import pytest
from django.test import Client

from mjlogs.provenance import platform_label as _label
from tests.stats.names_data import NamesWorld, build_names_world

pytestmark = pytest.mark.django_db


@pytest.fixture
def names(django_capture_on_commit_callbacks: Any) -> NamesWorld:
    return build_names_world(django_capture_on_commit_callbacks)


def page(url: str, status: int = 200, client: Client | None = None) -> str:
    response = (client or Client()).get(url)
    assert response.status_code == status, response.content[:3000]
    return response.content.decode()


def after_form(html: str) -> str:
    """What the page shows below its form (the form repeats what was typed; the header's
    language switch, a form too, names the page's address)."""
    return html.split('class="filters compare-players"', 1)[1].split("</form>", 1)[1]


def field_errors(html: str, name: str) -> str:
    found = re.search(
        rf'<div class="field has-error">\s*<label for="id_{name}">.*?'
        r'<div class="field-errors">(.*?)</div>',
        html,
        re.S,
    )
    assert found, f"no error on {name}"
    return unescape(re.sub(r"<[^>]+>", "", found.group(1))).strip()


def choices(html: str, name: str) -> list[tuple[str, str]]:
    """The players an error offers: each link's query and text."""
    found = re.search(rf'<ul class="player-choices" data-choices="{name}">(.*?)</ul>', html, re.S)
    if found is None:
        return []
    links = re.findall(r'<a href="\?([^"]*)" data-ref="[^"]*">([^<]*)</a>', found.group(1))
    return [(unescape(query), unescape(text)) for query, text in links]


def options(html: str, name: str) -> list[tuple[str, str]]:
    found = re.search(rf'<datalist id="id_{name}_players">(.*?)</datalist>', html, re.S)
    assert found, name
    return [
        (unescape(value), unescape(text))
        for value, text in re.findall(r'<option value="([^"]*)">([^<]*)</option>', found.group(1))
    ]


def test_names_give_the_page_that_ids_give(names: NamesWorld) -> None:
    ann, cat = names.id("Ann"), names.id("Cat")
    by_id = page(f"/stats/compare/?a={ann}&b={cat}")
    by_name = page("/stats/compare/?a=Ann&b=Cat")
    assert after_form(by_name) == after_form(by_id)
    # g1, g2 (Ann 1st and 3rd, Cat 3rd and 2nd) and g4 (Ann 4th, Cat 1st).
    assert 'data-h2h="shared">3<' in by_name and 'data-h2h="a_above">1 ' in by_name
    assert "<title>Ann and Cat · Compare players" in by_name
    # A name in another case, and an id beside a name, find the same players.
    assert after_form(page(f"/stats/compare/?a=aNN&b={cat}")) == after_form(by_id)
    assert after_form(page("/stats/compare/?a=+Ann+&b=cat")) == after_form(by_id)
    # The fields are text fields completing names, with what was typed kept.
    assert 'name="a" value="Ann"' in by_name and 'list="id_a_players"' in by_name
    assert 'type="module" src="/static/stats/compare.js"' in by_name


def test_old_links_by_id_still_work_and_unknown_ids_are_not_found(names: NamesWorld) -> None:
    ann, ben = names.id("Ann"), names.id("Ben", names.platform)
    html = page(f"/stats/compare/?a={ann}&b={ben}")
    assert 'data-h2h="shared">3<' in html and 'data-h2h="a_above">2 ' in html
    page(f"/stats/compare/?a={ann}&b=99999", status=404)
    page(f"/stats/compare/?a={names.id('Zed')}&b={ann}", status=404)  # private: alice's
    alice = Client()
    alice.force_login(names.world.alice)
    page(f"/stats/compare/?a={names.id('Zed')}&b={ann}", client=alice)
    # An anonymous seat is reached by its id (never by its name).
    page(f"/stats/compare/?a={names.id('NoName')}&b={names.id('Kim', 'tenhou')}")


def test_a_name_on_two_platforms_lists_both_and_name_at_platform_picks_one(
    names: NamesWorld,
) -> None:
    world_ben, tenhou_ben = names.id("Ben", names.platform), names.id("Ben", "tenhou")
    html = page("/stats/compare/?a=Ben&b=Kim%40tenhou", status=400)
    error = field_errors(html, "a")
    assert error.startswith("“Ben” is more than one player:")
    assert f"Ben@tenhou (Tenhou, id {tenhou_ben})" in error
    assert f"Ben@{names.platform} (" in error and f"id {world_ben})" in error
    offered = choices(html, "a")
    assert sorted(offered) == sorted(
        [
            (f"a={quote('Ben@tenhou')}&b={quote('Kim@tenhou')}", "Ben · Tenhou"),
            (
                f"a={quote('Ben@' + names.platform)}&b={quote('Kim@tenhou')}",
                f"Ben · {_label(names.platform)}",
            ),
        ]
    )
    # Each offered link is the page of that player.
    for query, _ in offered:
        assert "data-h2h" in page(f"/stats/compare/?{query}")
    # name@platform, the platform by its key or its label in any case, or the id.
    tenhou_pair = page("/stats/compare/?a=Ben@tenhou&b=Kim@tenhou")
    assert 'data-h2h="shared">1<' in tenhou_pair
    assert after_form(page("/stats/compare/?a=Ben@Tenhou&b=Kim@TENHOU")) == after_form(tenhou_pair)
    assert after_form(
        page(f"/stats/compare/?a={tenhou_ben}&b={names.id('Kim', 'tenhou')}")
    ) == after_form(tenhou_pair)
    # The world's Ben and Ann: three games.
    assert 'data-h2h="shared">3<' in page(f"/stats/compare/?a=Ann&b=Ben@{names.platform}")


def test_an_unknown_name_is_an_error_with_close_matches(names: NamesWorld) -> None:
    html = page("/stats/compare/?a=an&b=Cat", status=400)
    # "an" is no one's whole name (not even in another case), but Ann's and Dan's hold it.
    error = field_errors(html, "a")
    assert error.startswith("No player named “an”. Close matches: ")
    assert f"Ann ({_label(names.platform)}, id {names.id('Ann')})" in error
    assert [text for _, text in choices(html, "a")] == [
        f"Ann · {_label(names.platform)}",  # 5 games
        f"Dan · {_label(names.platform)}",
    ]
    html = page("/stats/compare/?a=Ann&b=Xavier", status=400)
    assert field_errors(html, "b") == "No player named “Xavier”."
    assert choices(html, "b") == []
    # A platform no one of that name plays on: the name on the others is offered.
    html = page("/stats/compare/?a=Ann@tenhou&b=Cat", status=400)
    assert field_errors(html, "a").startswith("No player named “Ann@tenhou”. Close matches: Ann")
    # A long text is cut in the message, not repeated whole.
    html = page(f"/stats/compare/?a={'x' * 200}&b=Cat", status=400)
    assert "x" * 100 not in field_errors(html, "a")


def test_private_players_are_found_only_by_who_may_see_them(names: NamesWorld) -> None:
    html = page("/stats/compare/?a=Zed&b=Ann", status=400)
    assert field_errors(html, "a") == "No player named “Zed”."
    assert "Zed" not in [text for _, text in choices(page("/stats/compare/?a=Ze&b=Ann", 400), "a")]
    # Moe plays on Mahjong Soul in public, and on Tenhou only in alice's private game: one
    # player to anyone else, two to alice.
    assert "data-h2h" in page("/stats/compare/?a=Moe&b=Kim@majsoul")
    alice = Client()
    alice.force_login(names.world.alice)
    assert "data-h2h" in page("/stats/compare/?a=Zed&b=Kim@tenhou", client=alice)
    html = page("/stats/compare/?a=Moe&b=Kim@majsoul", status=400, client=alice)
    assert field_errors(html, "a").startswith("“Moe” is more than one player")


def test_anonymous_seats_are_never_found_by_name(names: NamesWorld) -> None:
    html = page("/stats/compare/?a=NoName&b=Ann", status=400)
    assert field_errors(html, "a") == "No player named “NoName”."
    html = page("/stats/compare/?a=Name&b=Ann", status=400)
    assert choices(html, "a") == []


def test_the_second_list_offers_the_first_players_opponents(names: NamesWorld) -> None:
    html = page("/stats/compare/?a=Ann")
    # Ben is on two platforms, so his choice names the world's; most shared games first.
    label = _label(names.platform)
    assert options(html, "b") == [
        ("Dan", f"Dan · {label} · 4 together"),
        (f"Ben@{names.platform}", f"Ben · {label} · 3 together"),
        ("Cat", f"Cat · {label} · 3 together"),
        ("Eve", f"Eve · {label} · 2 together"),
    ]
    assert options(html, "a") == []
    # A bot is marked, a guest seat is one too (by its id: it has no name to type).
    html = page("/stats/compare/?a=Kim@tenhou")
    offered = dict(options(html, "b"))
    assert offered["Lee@tenhou"] == "Lee · Tenhou (bot) · 1 together"
    assert offered[str(names.id("NoName"))] == "NoName · Tenhou (guest) · 1 together"
    # Typed, the second player needs no list: without script the form takes the name.
    assert 'data-h2h="shared">1<' in page("/stats/compare/?a=Kim@tenhou&b=Lee@tenhou")


def test_two_ways_to_one_player_are_refused(names: NamesWorld) -> None:
    html = page(f"/stats/compare/?a=Ann&b={names.id('Ann')}", status=400)
    assert field_errors(html, "b") == "Choose two different players."
    html = page("/stats/compare/?a=Cat&b=cat", status=400)
    assert field_errors(html, "b") == "Choose two different players."
