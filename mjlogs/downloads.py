"""The ``Content-Disposition`` of a download, from a name an uploader chose.

A download's name comes from the upload: the record's own id (``Game.source_id``) names the
exports, the uploaded file's name (an archive member's too) the original. Such a name may hold
anything: a newline (Django refuses the header: a 500), characters outside Latin-1 (Django
MIME-encodes the header, which no browser reads in ``Content-Disposition``), or an RTL override
(U+202E) that shows ``abc\u202egnp.exe`` as ``abcexe.png``. :func:`attachment_header` removes
control and format characters (Unicode categories Cc and Cf, line and paragraph separators,
lone surrogates) and path separators, then says ``attachment; filename="<ASCII>"`` and, when
the name is not plain ASCII, ``filename*=utf-8''<percent-encoded UTF-8>`` (RFC 6266, RFC 5987):
browsers take ``filename*``, older clients the ASCII ``filename``.
"""

from __future__ import annotations

import unicodedata

from django.http import HttpResponse
from django.utils.http import content_disposition_header

#: Unicode categories no file name keeps: controls (newline, tab, DEL), format characters
#: (bidi overrides and isolates, zero-width characters, the BOM), lone surrogates, and line and
#: paragraph separators (U+2028, U+2029).
_DROPPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


def clean_file_name(name: str) -> str:
    """The name without control and format characters, path separators made ``_``, and
    surrounding spaces and dots trimmed (``""`` when nothing is left)."""
    kept = "".join(ch for ch in name if unicodedata.category(ch) not in _DROPPED_CATEGORIES)
    return kept.replace("/", "_").replace("\\", "_").strip(" .")


def _ascii_name(name: str, fallback: str) -> str:
    """What of ``name`` is plain ASCII (accents dropped: ``café`` is ``cafe``); ``fallback``
    with the name's extension when nothing of its stem is left (``日本.json``: ``game.json``)."""
    decomposed = unicodedata.normalize("NFKD", name)
    ascii_name = "".join(ch for ch in decomposed if " " <= ch <= "~").strip()
    stem, dot, extension = ascii_name.rpartition(".")
    if not dot:
        stem, extension = ascii_name, ""
    if not any(ch.isalnum() for ch in stem):
        return fallback + (f".{extension}" if extension else "")
    return ascii_name


def attachment_header(name: str, *, fallback: str) -> str:
    """The ``Content-Disposition`` of a download named ``name`` (see the module's docstring).
    ``fallback``, a plain ASCII name (``game-12``), stands for a name of which nothing is left,
    and for the ASCII name of one whose stem has no ASCII letter or digit."""
    cleaned = clean_file_name(name) or fallback
    header = content_disposition_header(True, _ascii_name(cleaned, fallback))
    assert header is not None  # a name is given
    if not cleaned.isascii():
        # Django writes a non-ASCII name as ``filename*=utf-8''...`` alone: add it after the
        # ASCII one.
        extended = content_disposition_header(True, cleaned)
        assert extended is not None
        header += "; " + extended.split("; ", 1)[1]
    return header


def attachment(content: bytes, content_type: str, name: str, *, fallback: str) -> HttpResponse:
    """A download of ``content`` named ``name`` (:func:`attachment_header`)."""
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = attachment_header(name, fallback=fallback)
    return response
