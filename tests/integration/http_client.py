"""Plain HTTP requests to a site the test started (its own process or pytest-django's live
server), answered whatever their status."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def text(self) -> str:
        return self.body.decode(errors="replace")


def request(
    url: str,
    *,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
    method: str | None = None,
) -> Answer:
    """GET (``body`` is ``None``) or POST ``body`` to ``url``, unless ``method`` says."""
    sent = urllib.request.Request(url, data=body, headers=headers or {}, method=method)
    try:
        with urllib.request.urlopen(sent, timeout=60) as response:
            return Answer(response.status, dict(response.headers), response.read())
    except urllib.error.HTTPError as error:
        return Answer(error.code, dict(error.headers), error.read())


def upload(base_url: str, token: str, name: str, data: bytes) -> Answer:
    """Upload one file as the raw body of ``POST /api/uploads/``, authenticated by ``token``."""
    return request(
        f"{base_url}/api/uploads/",
        body=data,
        headers={
            "Authorization": f"Token {token}",
            "Content-Type": "application/octet-stream",
            "X-File-Name": name,
        },
    )
