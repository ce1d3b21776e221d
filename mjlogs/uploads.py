"""Turning an HTTP upload (a multipart form or a raw body) into the files the import service
takes. Shared by the upload page and the REST API.

The request's declared size is checked before its body is read, so an oversized upload costs
nothing but its headers; Django then streams larger files to disk while parsing
(``FILE_UPLOAD_MAX_MEMORY_SIZE``).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings
from django.core.files.uploadedfile import UploadedFile as DjangoUploadedFile
from django.http import HttpRequest

from mjlogs.archives import UploadedFile
from mjlogs.errors import ServiceError


class UploadRefused(ServiceError):
    """An upload refused on its headers, before its body is read; ``status`` is the HTTP
    answer."""

    status = 400
    #: How a page starts the message.
    title = "Refused"


class UploadTooLarge(UploadRefused):
    """The request is larger than ``MJLOGS_MAX_UPLOAD_BYTES``."""

    status = 413
    title = "Too large"


class LengthRequired(UploadRefused):
    """The request does not say how large it is (a chunked body)."""

    status = 411
    title = "Length required"


def check_upload_size(request: HttpRequest) -> None:
    """Check the size the request declares, before its body is read.

    :raises LengthRequired: a chunked body (``Transfer-Encoding``, no ``Content-Length``):
        Django reads a body only up to its declared length, so it would arrive empty.
    :raises UploadRefused: a ``Content-Length`` that is not a number of bytes.
    :raises UploadTooLarge: more bytes than the service accepts.
    """
    if request.method not in ("POST", "PUT", "PATCH"):
        return  # no body to check (an OPTIONS, a GET answered 405)
    limit = settings.MJLOGS_MAX_UPLOAD_BYTES
    if request.META.get("HTTP_TRANSFER_ENCODING", "").strip():
        raise LengthRequired(
            "a chunked upload (Transfer-Encoding) is not taken; send the file with its "
            f"Content-Length (at most {_megabytes(limit)})"
        )
    text = str(request.META.get("CONTENT_LENGTH") or "").strip()
    if not text:
        return  # neither header: no body (RFC 9112, 6.3); the view finds no file in it
    # ASCII digits only: str.isdigit() also takes "²" and other digits int() refuses.
    if not (text.isascii() and text.isdigit()):
        raise UploadRefused(f"Content-Length {text[:20]!r} is not a number of bytes")
    declared = int(text)
    if declared > limit:
        raise UploadTooLarge(
            f"the upload is {_megabytes(declared)}; at most {_megabytes(limit)} is accepted "
            "in one request (send the files in several requests, or as a smaller archive)"
        )


def files_from_form(files: Iterable[DjangoUploadedFile[bytes]]) -> list[UploadedFile]:
    """The uploaded files of a multipart form, read."""
    return [UploadedFile(_base_name(upload.name or "upload"), upload.read()) for upload in files]


def _base_name(name: str) -> str:
    # Browsers send a bare name, but some clients send a path: keep its last part.
    return name.replace("\\", "/").rsplit("/", 1)[-1] or "upload"


def file_name_from_headers(request: HttpRequest, default: str = "upload") -> str:
    """The file name of a raw-body upload: ``Content-Disposition: ...; filename="x.mjlog"``, or
    an ``X-File-Name`` header, or ``default``."""
    disposition = request.headers.get("Content-Disposition", "")
    for part in disposition.split(";"):
        key, _, value = part.strip().partition("=")
        if key.lower() == "filename" and value.strip('"'):
            return _base_name(value.strip('"'))
    named = request.headers.get("X-File-Name", "").strip()
    return _base_name(named) if named else default


def _megabytes(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MB"
