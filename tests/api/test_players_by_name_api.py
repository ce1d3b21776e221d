"""Players by name in the API (issue 22): head-to-head takes ``a`` and ``b`` as an id, a name
or ``name@platform`` (a 400 listing the players of an ambiguous name, or the close matches of
an unknown one, each with its id), and the player search that completes names: the most
games first, with the platform and kind, never anonymous seats, only the players you may see.
The world is ``tests/stats/names_data.py``'s."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.conftest import client_for
from tests.stats.names_data import NamesWorld, build_names_world

pytestmark = pytest.mark.django_db

H2H = "/api/stats/head-to-head/"


@pytest.fixture
def names(django_capture_on_commit_callbacks: Any) -> NamesWorld:
    return build_names_world(django_capture_on_commit_callbacks)


def get(url: str, user: Any = None, status: int = 200, **params: Any) -> Any:
    response = client_for(user).get(url, params)
    assert response.status_code == status, response.content[:2000]
    return response.json()


# --- Head-to-head by name -------------------------------------------------------------------


def test_head_to_head_takes_names_as_it_takes_ids(names: NamesWorld) -> None:
    ann, cat = names.id("Ann"), names.id("Cat")
    by_id = get(H2H, a=ann, b=cat)
    assert get(H2H, a="Ann", b="Cat") == by_id
    assert get(H2H, a="ann", b=str(cat)) == by_id  # any case; an id beside a name
    assert (by_id["a"]["id"], by_id["b"]["id"], by_id["shared_games"]) == (ann, cat, 3)
    tenhou = get(H2H, a="Ben@tenhou", b="Kim@Tenhou")
    assert tenhou["a"]["id"] == names.id("Ben", "tenhou")
    assert tenhou["b"]["id"] == names.id("Kim", "tenhou")
    assert tenhou["shared_games"] == 1
    # Filters still narrow the shared games.
    assert get(H2H, a="Ann", b="Cat", since="2024-03-15")["shared_games"] == 1


def test_an_ambiguous_name_is_a_400_listing_the_players_with_their_ids(
    names: NamesWorld,
) -> None:
    body = get(H2H, status=400, a="Kim", b="Ann")
    assert set(body) == {"a"}
    (message,) = body["a"]
    assert message.startswith("“Kim” is more than one player: ")
    assert f"Kim@tenhou (Tenhou, id {names.id('Kim', 'tenhou')})" in message
    assert f"Kim@majsoul (Mahjong Soul, id {names.id('Kim', 'majsoul')})" in message
    assert message.endswith("Say which with name@platform or the id.")
    # Lee is a bot on both platforms: marked so.
    (message,) = get(H2H, status=400, a="Ann", b="Lee")["b"]
    assert f"Lee@tenhou (Tenhou, bot, id {names.id('Lee', 'tenhou')})" in message


def test_an_unknown_name_is_a_400_with_close_matches(names: NamesWorld) -> None:
    (message,) = get(H2H, status=400, a="Ann", b="e")["b"]
    # Names holding "e" (any case), the most games first: Ben (world), Eve, then one game each.
    assert message.startswith("No player named “e”. Close matches: ")
    listed = message.removeprefix("No player named “e”. Close matches: ").rstrip(".")
    refs = [choice.split(" (")[0] for choice in listed.split("), ")]
    assert refs[:2] == [f"Ben@{names.platform}", "Eve"]
    assert set(refs[2:]) <= {"Ben@tenhou", "Lee@tenhou", "Lee@majsoul", "Moe"}
    assert len(refs) == 5
    (message,) = get(H2H, status=400, a="Nobody", b="Ann")["a"]
    assert message == "No player named “Nobody”."


def test_hidden_and_anonymous_players_are_no_name(names: NamesWorld) -> None:
    assert get(H2H, status=400, a="Zed", b="Ann")["a"] == ["No player named “Zed”."]
    assert get(H2H, status=400, a="NoName", b="Ann")["a"] == ["No player named “NoName”."]
    alice = names.world.alice
    assert get(H2H, user=alice, a="Zed", b="Kim@tenhou")["a"]["id"] == names.id("Zed")
    # Moe: one public player (Mahjong Soul), a second one in alice's private game.
    assert get(H2H, a="Moe", b="Nia")["a"]["id"] == names.id("Moe", "majsoul")
    assert "more than one player" in get(H2H, user=alice, status=400, a="Moe", b="Nia")["a"][0]
    # Ids keep their 404, for a hidden player as for a missing one.
    get(H2H, status=404, a=names.id("Zed"), b="Ann")
    get(H2H, status=404, a=99999, b="Ann")


@pytest.mark.parametrize(
    ("a", "b", "field", "words"),
    [
        ("Ann", "Ann", "b", "Choose two different players."),
        ("Ann", "{Ann}", "b", "Choose two different players."),
        ("0", "Ann", "a", "Not a player id"),
        ("-3", "Ann", "a", "Not a player id"),
        ("Ann", "x" * 241, "b", "no more than 240 characters"),
    ],
)
def test_head_to_head_refuses_what_is_no_pair_of_players(
    names: NamesWorld, a: str, b: str, field: str, words: str
) -> None:
    body = get(H2H, status=400, a=a, b=b.format(Ann=names.id("Ann")))
    assert set(body) == {field} and words in body[field][0]


# --- The player search (the completion) -----------------------------------------------------


def search(text: str, user: Any = None, **params: Any) -> list[dict[str, Any]]:
    return list(get("/api/players/", user=user, search=text, **params)["results"])


def test_the_search_puts_the_most_games_first_with_platform_and_kind(names: NamesWorld) -> None:
    found = search("e")
    assert [(p["name"], p["platform"]) for p in found[:2]] == [
        ("Ben", names.platform),  # 4 public games: g1, g2, g3, g6
        ("Eve", names.platform),  # 2
    ]
    assert [p["name"] for p in found[2:]] == ["Ben", "Lee", "Lee", "Moe"]  # 1 game each
    lee = [p for p in found if p["name"] == "Lee"]
    assert {(p["platform"], p["platform_label"], p["kind"]) for p in lee} == {
        ("tenhou", "Tenhou", "bot"),
        ("majsoul", "Mahjong Soul", "bot"),
    }
    assert found[0]["kind"] == "person" and found[0]["id"] == names.id("Ben", names.platform)
    # A few at a time for a completion, the rest on the next page.
    page = get("/api/players/", search="e", page_size=2)
    assert [p["name"] for p in page["results"]] == ["Ben", "Eve"]
    assert page["count"] == 6 and "page_size=2" in page["next"]
    # Any case, any part of the name.
    assert [p["name"] for p in search("AN")] == ["Ann", "Dan"]


def test_the_search_leaves_out_anonymous_seats_and_hidden_players(names: NamesWorld) -> None:
    assert search("NoName") == [] and search("nam") == []
    assert search("Zed") == []
    assert [p["name"] for p in search("Zed", user=names.world.alice)] == ["Zed"]
    # Moe's private Tenhou seat counts for alice only.
    assert [p["platform"] for p in search("Moe")] == ["majsoul"]
    assert sorted(p["platform"] for p in search("Moe", user=names.world.alice)) == [
        "majsoul",
        "tenhou",
    ]


@pytest.mark.parametrize("page_size", ["0", "51", "x", "-1"])
def test_a_bad_page_size_is_refused(names: NamesWorld, page_size: str) -> None:
    assert set(get("/api/players/", status=400, page_size=page_size)) == {"page_size"}


def test_a_broad_search_lists_by_name(names: NamesWorld, monkeypatch: pytest.MonkeyPatch) -> None:
    # Past FEW_MATCHES players (a letter or two on a large site) the games are not counted:
    # by name, still only players you may see, never anonymous seats.
    monkeypatch.setattr("mjlogs.selectors.FEW_MATCHES", 1)
    found = search("e")
    assert [p["name"] for p in found] == ["Ben", "Ben", "Eve", "Lee", "Lee", "Moe"]
    assert [p["name"] for p in search("o")] == ["Moe"]  # not NoName, not alice's Moe
    assert [p["name"] for p in search("e", user=names.world.alice)].count("Moe") == 2
