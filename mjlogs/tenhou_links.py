"""Tenhou replay links and log ids, read into the log id to fetch and the seat to show.

Pure: no Django, no network. What people paste:

- a bare log id, ``2019032206gm-00a9-0000-0b6b7592`` (``&tw=2`` after it is taken too);
- a replay link, ``https://tenhou.net/0/?log=ID&tw=2`` (also ``/3/``, ``/4/``, ``/5/``, ``/6/``,
  ``http://``, ``www.tenhou.net``, with or without the scheme, more parameters such as ``ts``);
- a download link, ``https://tenhou.net/0/log/?ID``, ``/3/mjlog2xml.cgi?ID``,
  ``/5/mjlog2json.cgi?ID``, ``/0/log/find.cgi?log=ID``.

A log id is ``YYYYMMDDHHgm-TTTT-LLLL-HHHHHHHH``: the date and hour (Japan time), ``gm``, the
game type (the GO type, 4 hex digits), the lobby (4 digits, or 5 for a tournament lobby such as
``12717``) and 8 hex digits. Replay links for some games carry the last part obfuscated: ``x``
and 12 hex digits (``2012090306gm-0089-0000-x666f4d41e26b``). Tenhou's own viewer decodes it
before it downloads the log, with a fixed table and the id's date (the viewer's script; the same
steps in several public log downloaders); :func:`deobfuscate` does the same.

``tw`` (0 to 3) is the seat whose view the link opens; it is kept so that our viewer can open
from that seat (``/replay/<id>/?seat=N``).

A tenhou.net/6 link ``#json=...`` carries a whole record, not a log id: it is refused with a
message saying to upload the record as a file. Mahjong Soul and Riichi City records need a
login to be fetched: their links are refused with a message saying so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

#: A log id as Tenhou's log server names it.
LOG_ID = re.compile(r"(?P<date>\d{10})gm-[0-9a-f]{4}-\d{4,5}-[0-9a-f]{8}")
#: A log id as some replay links carry it, its last part obfuscated (see :func:`deobfuscate`).
OBFUSCATED_LOG_ID = re.compile(
    r"(?P<head>(?P<date>\d{10})gm-[0-9a-f]{4}-\d{4,5}-)x(?P<code>[0-9a-f]{12})"
)
#: An example id, for messages.
EXAMPLE = "2019032206gm-00a9-0000-0b6b7592"

#: Host names of Tenhou's site and log server.
TENHOU_HOSTS = frozenset({"tenhou.net", "www.tenhou.net"})
#: Host names (and their subdomains) of services whose records need a login to be fetched.
LOGIN_ONLY = {
    "mahjongsoul.com": "Mahjong Soul",
    "maj-soul.com": "Mahjong Soul",
    "mahjongsoul.game.yo-star.com": "Mahjong Soul",
    "yo-star.com": "Mahjong Soul",
    "riichicity.com": "Riichi City",
    "mahjong-jp.net": "Riichi City",
}

#: Tenhou's viewer's table for obfuscated ids.
_TABLE = (
    22136, 52719, 55146, 42104, 59591, 46934, 9248, 28891, 49597, 52974, 62844, 4015,
    18311, 50730, 43056, 17939, 64838, 38145, 27008, 39128, 35652, 63407, 65535, 23473,
    35164, 55230, 27536, 4386, 64920, 29075, 42617, 17294, 18868, 2081,
)  # fmt: skip
#: Ids from this hour on pick their row of the table by their date; earlier ones take the first.
_TABLE_BY_DATE_FROM = "2010041111gm"
#: A link is read only up to this length: no Tenhou link is near it.
MAX_LINK_LENGTH = 2000


@dataclass(frozen=True)
class LinkRef:
    """What a link names: a game on a source, and the seat the link shows (``None``: none)."""

    log_id: str
    seat: int | None = None
    source: str = "tenhou"


def log_id_from_link(text: str) -> LinkRef:
    """The Tenhou log a replay link, a download link or a bare log id names.

    :raises ValueError: anything else; the message says what was wrong, starting "not a Tenhou
        log link or id" unless the text is empty, too long, or a link of a service whose records
        need a login (Mahjong Soul, Riichi City).
    """
    text = text.strip()
    if not text:
        raise ValueError(f"give a Tenhou replay link or log id, such as {EXAMPLE}")
    if len(text) > MAX_LINK_LENGTH:
        raise ValueError(f"that is {len(text):,} characters; a Tenhou link is far shorter")
    if _looks_like_id(text):
        log_id, _, rest = text.partition("&")
        return LinkRef(_log_id(log_id), _seat(parse_qs(rest, keep_blank_values=True)))
    return _from_url(text)


def _looks_like_id(text: str) -> bool:
    """Whether the text starts like a log id (its date and ``gm``), not like a link."""
    return re.match(r"\d{10}gm", text) is not None


def _from_url(text: str) -> LinkRef:
    has_scheme = re.match(r"[a-zA-Z][a-zA-Z0-9+.-]*://", text) is not None
    try:
        parts = urlsplit(text if has_scheme else f"https://{text}")
        host = (parts.hostname or "").lower()
    except ValueError:  # a bracketed host that is no IPv6 address
        parts, host = urlsplit(""), ""
    is_link = bool(host) and (has_scheme or "." in host) and not any(c.isspace() for c in text)
    if not is_link or parts.scheme.lower() not in ("http", "https"):
        raise ValueError(
            f"not a Tenhou log link or id: {_shown(text)} is neither a link nor a log id "
            f"(a log id looks like {EXAMPLE})"
        )
    for domain, service in LOGIN_ONLY.items():
        if host == domain or host.endswith("." + domain):
            raise ValueError(
                f"{service} records can only be fetched with a {service} login, which this "
                f"service does not have: export the game (for example as tenhou.net/6 JSON) and "
                f"upload the file"
            )
    if host not in TENHOU_HOSTS:
        raise ValueError(f"not a Tenhou log link or id: the link is to {host}, not tenhou.net")
    if parts.fragment.startswith("json="):
        raise ValueError(
            "not a Tenhou log link or id: this tenhou.net/6 link carries the game record itself "
            "(#json=...), not a log id; save the record as a file and upload it"
        )
    query = parse_qs(parts.query, keep_blank_values=True)
    # Some viewers keep their options after '#' (tenhou.net/6 ``#log=...&tw=1``).
    if not query.get("log") and "=" in parts.fragment:
        query = parse_qs(parts.fragment, keep_blank_values=True)
    logs = query.get("log")
    if logs:
        return LinkRef(_log_id(logs[-1]), _seat(query))
    # Download links: the query is the id itself (``/0/log/?ID``, ``mjlog2xml.cgi?ID``).
    first = parts.query.split("&", 1)[0]
    if first and "=" not in first:
        return LinkRef(_log_id(first), _seat(query))
    raise ValueError(
        f"not a Tenhou log link or id: {_shown(text)} names no game log (no log= in it); "
        f"copy the link of the game's replay"
    )


def _log_id(text: str) -> str:
    """The log id to fetch: ``text`` checked, and decoded when obfuscated."""
    candidate = text.strip().lower()
    if LOG_ID.fullmatch(candidate):
        return candidate
    if OBFUSCATED_LOG_ID.fullmatch(candidate):
        return deobfuscate(candidate)
    raise ValueError(
        f"not a Tenhou log link or id: {_shown(text)} is not a log id "
        f"(a log id looks like {EXAMPLE})"
    )


def _seat(query: dict[str, list[str]]) -> int | None:
    values = query.get("tw")
    if not values:
        return None
    value = values[-1].strip()
    if value not in ("0", "1", "2", "3"):
        raise ValueError(f"not a Tenhou log link or id: tw={_shown(value)} is not a seat (0 to 3)")
    return int(value)


def deobfuscate(log_id: str) -> str:
    """The log id an obfuscated one stands for, as Tenhou's viewer decodes it before fetching
    the log: ``2012090306gm-0089-0000-x666f4d41e26b`` is ``2012090306gm-0089-0000-dc81a77a``.
    An id that is not obfuscated is returned as it is.

    :raises ValueError: an id ending in ``x`` but not 12 hex digits after it.
    """
    if LOG_ID.fullmatch(log_id):
        return log_id
    found = OBFUSCATED_LOG_ID.fullmatch(log_id)
    if found is None:
        raise ValueError(f"not a Tenhou log id: {_shown(log_id)}")
    code = found["code"]
    a, b, c = (int(code[i : i + 4], 16) for i in (0, 4, 8))
    head = found["head"]
    index = 0
    if head[:12] >= _TABLE_BY_DATE_FROM:
        date = found["date"]
        index = int("3" + date[4:10]) % (33 - int(date[9]))
    first = a ^ b ^ _TABLE[index]
    second = b ^ c ^ _TABLE[index] ^ _TABLE[index + 1]
    return f"{head}{first:04x}{second:04x}"


def _shown(text: str) -> str:
    """Text quoted for a message, cut short when long."""
    return repr(text if len(text) <= 60 else text[:57] + "...")
