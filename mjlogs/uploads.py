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


class UploadTooLarge(ValueError):
    """The request is larger than ``MJLOGS_MAX_UPLOAD_BYTES``."""


def check_upload_size(request: HttpRequest) -> None:
    """:raises UploadTooLarge: the request declares more bytes than the service accepts."""
    limit = settings.MJLOGS_MAX_UPLOAD_BYTES
    try:
        declared = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        declared = 0
    if declared > limit:
        raise UploadTooLarge(
            f"the upload is {_megabytes(declared)}; at most {_megabytes(limit)} is accepted "
            "in one request (send the files in several requests, or as a smaller archive)"
        )


def files_from_form(files: Iterable[DjangoUploadedFile]) -> list[UploadedFile]:
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
