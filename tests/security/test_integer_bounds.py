"""Integers a request carries are bounded (issue 20, finding 6).

``last=9223372036854775808`` (2^63) made the player statistics, series, facts CSV and
head-to-head answer 500 (``bigint out of range`` on PostgreSQL: ``last`` becomes a LIMIT);
on SQLite ids past 2^63 in ``opponent`` and ``player_id`` did too (``OverflowError``), and a
5,000-digit player id on the compare page made Python refuse the conversion in words about its
own settings. Every integer parameter is now read against the database's bounds
(``config.limits``): the API answers 400 naming the parameter, a page shows the error on the
form, and an id past the bounds in a URL takes no route (404). Run on PostgreSQL too
(``DATABASE_URL``), where the bigint failures were.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client

from config.limits import DB_INT_MAX, DB_INT_MIN, IdConverter, parse_int
from mjlogs.importing import Status, import_file
from mjlogs.models import Game, Player
from tests.api.conftest import self_played_document

pytestmark = pytest.mark.django_db

#: Values past what the database holds, by name: 2^63, below -2^63, 20 digits, 5,000 digits.
HUGE = {
    "2^63": str(DB_INT_MAX + 1),
    "-2^63-1": str(DB_INT_MIN - 1),
    "20 digits": "9" * 20,
    "5000 digits": "9" * 5000,
}
#: Words of Python's own refusal of a long integer, which no answer may show.
PYTHON_INTERNALS = ("4300", "int_max_str_digits", "integer string conversion", "Traceback")


class Ids:
    def __init__(self, game: int, ann: int, ben: int) -> None:
        self.game, self.ann, self.ben = game, ann, ben


@pytest.fixture
def ids(django_capture_on_commit_callbacks: Any) -> Ids:
    """One verified public game of Ann, Ben, Cat and Dan."""
    document = self_played_document(11, ("Ann", "Ben", "Cat", "Dan"))
    with django_capture_on_commit_callbacks(execute=True):
        (outcome,) = import_file("g.json", json.dumps(document).encode(), uploader=None)
    assert outcome.status is Status.IMPORTED, outcome.error
    assert Game.objects.filter(pk=outcome.game_id).exists()
    names = dict(Player.objects.values_list("name", "pk"))
    return Ids(outcome.game_id, names["Ann"], names["Ben"])


def get(url: str) -> tuple[int, str]:
    client = Client(raise_request_exception=False)
    response = client.get(url)
    if response.streaming:
        body = b"".join(response.streaming_content).decode()  # type: ignore[arg-type]
    else:
        body = response.content.decode()
    for words in PYTHON_INTERNALS:
        assert words not in body, f"{url[:80]}: the answer shows {words!r}"
    return response.status_code, body


# -- the REST API: 400, naming the parameter --------------------------------------------------

API_PARAMETERS = [
    ("/api/players/{ann}/stats/", "last"),
    ("/api/players/{ann}/stats/", "opponent"),
    ("/api/players/{ann}/stats/", "player_id"),
    ("/api/players/{ann}/stats/series/", "last"),
    ("/api/players/{ann}/stats/series/", "window"),
    ("/api/players/{ann}/stats/facts.csv", "last"),
    ("/api/players/{ann}/stats/facts.csv", "opponent"),
    ("/api/stats/head-to-head/?b={ben}", "a"),
    ("/api/stats/head-to-head/?a={ann}", "b"),
    ("/api/stats/head-to-head/?a={ann}&b={ben}", "last"),
    ("/api/stats/leaderboard/", "min_games"),
    ("/api/games/", "player_id"),
]


@pytest.mark.parametrize("value", HUGE.values(), ids=HUGE.keys())
@pytest.mark.parametrize(("url", "parameter"), API_PARAMETERS)
def test_an_api_parameter_past_the_bounds_is_a_400_naming_it(
    ids: Ids, url: str, parameter: str, value: str
) -> None:
    path = url.format(ann=ids.ann, ben=ids.ben)
    joiner = "&" if "?" in path else "?"
    status, body = get(f"{path}{joiner}{parameter}={value}")
    assert status == 400, body[:300]
    errors = json.loads(body)
    assert parameter in errors, errors
    assert all(len(message) < 200 for message in errors[parameter]), errors


# -- the pages: the error on the form ------------------------------------------------------------

PAGE_PARAMETERS = [
    ("/stats/players/{ann}/", "last", 400),
    ("/stats/players/{ann}/", "opponent", 400),
    ("/stats/compare/?b={ben}", "a", 400),
    ("/stats/compare/?a={ann}", "b", 400),
    ("/stats/leaderboard/", "min_games", 400),
    # The game list shows a bad filter's error with 200 (tests/mjlogs/test_pages_games.py).
    ("/games/", "player_id", 200),
]
_ERROR_FIELD = re.compile(r'<div class="field has-error">(.*?)<div class="field-errors">', re.S)


@pytest.mark.parametrize("value", HUGE.values(), ids=HUGE.keys())
@pytest.mark.parametrize(("url", "parameter", "expected"), PAGE_PARAMETERS)
def test_a_page_parameter_past_the_bounds_is_a_form_error(
    ids: Ids, url: str, parameter: str, expected: int, value: str
) -> None:
    path = url.format(ann=ids.ann, ben=ids.ben)
    joiner = "&" if "?" in path else "?"
    status, body = get(f"{path}{joiner}{parameter}={value}")
    assert status == expected, body[:300]
    fields = _ERROR_FIELD.findall(body)
    assert any(f'name="{parameter}"' in field or "Player id" in field for field in fields), (
        f"no error shown on {parameter}"
    )


# -- ids in URLs: no route (404) ---------------------------------------------------------------

URL_IDS = [
    "/api/games/{huge}/",
    "/api/games/{huge}/document/",
    "/api/games/{huge}/export/canonical/",
    "/api/games/{huge}/raw/",
    "/api/games/{huge}/rounds/0/frames/",
    "/api/games/{game}/rounds/{huge}/frames/",
    "/api/games/{game}/rounds/0/frames/{huge}/",
    "/api/players/{huge}/",
    "/api/players/{huge}/stats/",
    "/api/verifications/{huge}/",
    "/games/{huge}/",
    "/players/{huge}/",
    "/replay/{huge}/",
    "/stats/players/{huge}/",
]


@pytest.mark.parametrize("value", [HUGE["2^63"], HUGE["20 digits"], HUGE["5000 digits"]])
@pytest.mark.parametrize("url", URL_IDS)
def test_an_id_past_the_bounds_in_a_url_is_not_found(ids: Ids, url: str, value: str) -> None:
    """Guards more than fixes: Django 5 already answers a lookup past an integer column's
    range as "no row"; ``<id:...>`` refuses such a URL before any view or query sees it."""
    status, _ = get(url.format(game=ids.game, huge=value))
    assert status == 404


@pytest.mark.parametrize("value", HUGE.values(), ids=HUGE.keys())
@pytest.mark.parametrize("url", ["/api/games/?page={huge}", "/games/?page={huge}"])
def test_a_page_number_past_the_bounds_is_no_error(ids: Ids, url: str, value: str) -> None:
    """The API says there is no such page (404), a page shows the last (Django's paginator
    reads the number itself)."""
    status, _ = get(url.format(huge=value))
    assert status in (200, 404)


def test_the_viewer_opens_at_the_start_for_a_round_past_the_bounds(ids: Ids) -> None:
    status, body = get(f"/replay/{ids.game}/?round={HUGE['5000 digits']}&step={HUGE['2^63']}")
    assert status == 200
    assert '"start": {"round": 0, "step": 0' in body


# -- the bounds themselves ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("42", 42),
        (" 7 ", 7),
        ("-3", -3),
        (str(DB_INT_MAX), DB_INT_MAX),
        (str(DB_INT_MIN), DB_INT_MIN),
        (str(DB_INT_MAX + 1), None),
        (str(DB_INT_MIN - 1), None),
        ("0" * 30 + "1", None),  # longer than any number in range is refused unread
        ("9" * 5000, None),
        ("١٢", None),  # Arabic-Indic digits: int() takes them, an id has none
        ("1.5", None),
        ("", None),
        (None, None),
    ],
)
def test_parse_int(text: str | None, expected: int | None) -> None:
    assert parse_int(text) == expected


def test_the_id_converter_refuses_what_the_database_cannot_hold() -> None:
    converter = IdConverter()
    assert converter.to_python(str(DB_INT_MAX)) == DB_INT_MAX
    for value in (str(DB_INT_MAX + 1), "9" * 5000):
        with pytest.raises(ValueError, match="not an id"):
            converter.to_python(value)
