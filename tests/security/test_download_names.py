"""Downloads keep working whatever the file's name (issue 20, finding 5).

The name of a download comes from what an uploader chose: the record's own id (``source_id``,
the exports' name) or the uploaded file's name, an archive member's included (``/raw/``). A
newline in it made the answer a 500 (``BadHeaderError``); other names made a header that
browsers cannot read (Latin-1 bytes for ``é``, a MIME encoded-word for ``日本``), and an RTL
override (U+202E) was kept, so ``abc\u202egnp.exe`` showed as ``abcexe.png``. Every download now
says ``attachment; filename="<ASCII>"`` and, for any other name, ``filename*=UTF-8''<percent
encoded>`` (RFC 6266, RFC 5987), without control or format characters (Unicode Cc, Cf).
"""

from __future__ import annotations

import email.message
import email.utils
import io
import json
import re
import unicodedata
import zipfile
from typing import Any

import pytest
from django.http import HttpResponse
from django.test import Client

from mjlogs.archives import UploadedFile
from mjlogs.downloads import attachment_header
from mjlogs.importing import Status, import_file, import_files
from mjlogs.models import Game, Player
from tests.api.conftest import self_played_document

pytestmark = pytest.mark.django_db

#: Names an uploader may give, by what is odd in them.
NAMES = {
    "newline": "bad\nname",
    "carriage return and tab": "bad\r\tname",
    "accent": "café",
    "japanese": "日本の対局",
    "rtl override": "abc\u202egnp.exe",
    "zero width and bom": "a\u200bb\ufeffc",
    "quote and backslash": 'x"y\\z',
    "line separator": "one\u2028two",
}

#: The whole header: an ASCII ``filename`` (a quoted string, RFC 9110) and, when the name is
#: not that, ``filename*`` (RFC 5987's ext-value: a charset, no language, attr-chars and
#: percent-encoded octets).
DISPOSITION = re.compile(
    r"attachment; filename=\"(?:[ !#-\[\]-~]|\\[\"\\])*\""
    r"(?:; filename\*=(?i:utf-8)''(?:[A-Za-z0-9!#$&+.^_`|~-]|%[0-9A-F]{2})+)?"
)


def disposition_name(response: HttpResponse) -> str:
    """The file name a client reads from the answer's Content-Disposition, after checking the
    header's form; ``filename*`` wins over ``filename`` (RFC 6266, 4.3)."""
    header = response["Content-Disposition"]
    assert DISPOSITION.fullmatch(header), f"not an RFC 6266 attachment header: {header!r}"
    message = email.message.Message()
    message["Content-Disposition"] = header
    params = message.get_params(header="content-disposition") or []
    names = [value for key, value in params if key == "filename"]
    # ``filename*`` comes as (charset, language, text) (RFC 2231), ``filename`` as text.
    extended = [email.utils.collapse_rfc2231_value(v) for v in names if isinstance(v, tuple)]
    plain = [email.utils.unquote(v) for v in names if isinstance(v, str)]
    assert len(plain) == 1 and len(extended) <= 1, names
    name = (extended or plain)[0]
    assert not [ch for ch in name if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp")], (
        f"control or format characters in {name!r}"
    )
    return name


def visible(name: str) -> str:
    """The name as a download should carry it: without control and format characters (and
    path separators, which a file name cannot hold)."""
    kept = "".join(ch for ch in name if unicodedata.category(ch) not in ("Cc", "Cf", "Zl", "Zp"))
    return kept.replace("/", "_").replace("\\", "_")


def store(document: dict[str, Any], name: str) -> Game:
    (outcome,) = import_file(name, json.dumps(document).encode(), uploader=None)
    assert outcome.status is Status.IMPORTED, outcome.error
    return Game.objects.get(pk=outcome.game_id)


@pytest.mark.parametrize("odd", NAMES.values(), ids=NAMES.keys())
def test_exports_of_a_game_with_an_odd_source_id(odd: str) -> None:
    """The import refuses control characters in a record's id now; a game stored before, or
    an id with characters it lets through, still downloads."""
    game = store(self_played_document(11), "game.json")
    Game.objects.filter(pk=game.pk).update(source_id=f"{odd}-1")
    client = Client()
    for format_name, extension in (
        ("canonical", ".json"),
        ("tenhou6", ".json"),
        ("mjai", ".jsonl"),
    ):
        response = client.get(f"/api/games/{game.pk}/export/{format_name}/")
        assert response.status_code == 200, format_name
        assert disposition_name(response) == visible(f"{odd}-1") + extension


@pytest.mark.parametrize("odd", NAMES.values(), ids=NAMES.keys())
def test_the_original_file_of_an_upload_with_an_odd_name(odd: str) -> None:
    game = store(self_played_document(12), f"{odd}.json")
    response = Client().get(f"/api/games/{game.pk}/raw/")
    assert response.status_code == 200
    assert disposition_name(response) == visible(f"{odd}.json")


def test_the_original_file_of_an_archive_member_with_an_odd_name() -> None:
    members = {f"{odd}.json": self_played_document(20 + n) for n, odd in enumerate(NAMES.values())}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, document in members.items():
            archive.writestr(name, json.dumps(document))
    summary = import_files([UploadedFile("logs.zip", buffer.getvalue())])
    games = {outcome.game_id for outcome in summary.outcomes}
    assert [o.status for o in summary.outcomes] == [Status.IMPORTED] * len(members)
    client = Client()
    names = set()
    for game_id in games:
        response = client.get(f"/api/games/{game_id}/raw/")
        assert response.status_code == 200
        names.add(disposition_name(response))
    assert names == {visible(name) for name in members}


def test_the_facts_csv_is_an_attachment_of_the_same_form() -> None:
    store(self_played_document(13, ("Ann", "Ben", "Cat", "Dan")), "game.json")
    player = Player.objects.get(name="Ann")
    response = Client().get(f"/api/players/{player.pk}/stats/facts.csv")
    assert response.status_code == 200
    assert disposition_name(response) == f"player-{player.pk}-facts.csv"


@pytest.mark.parametrize(
    ("name", "header"),
    [
        ("game.json", 'attachment; filename="game.json"'),
        ('a"b\\c.json', 'attachment; filename="a\\"b_c.json"'),
        ("café.json", "attachment; filename=\"cafe.json\"; filename*=utf-8''caf%C3%A9.json"),
        (
            "日本.json",
            "attachment; filename=\"game.json\"; filename*=utf-8''%E6%97%A5%E6%9C%AC.json",
        ),
        ("abc\u202egnp.exe", 'attachment; filename="abcgnp.exe"'),
        ("\n\u202e", 'attachment; filename="game"'),
    ],
)
def test_the_header_for_a_name(name: str, header: str) -> None:
    """The ASCII ``filename`` keeps what it can of the name (accents dropped), and falls back to
    the download's plain name when nothing of it is left."""
    assert attachment_header(name, fallback="game") == header
