"""What several pages share: pagination."""

from __future__ import annotations

from typing import Any

from django.core.paginator import Page, Paginator
from django.http import HttpRequest

#: Rows per page of every list.
PAGE_SIZE = 50


def paginate(request: HttpRequest, items: Any) -> Page:
    """The page of ``items`` that ``?page=`` asks for (the last for a number past the end, the
    first for anything that is not a number)."""
    return Paginator(items, PAGE_SIZE).get_page(request.GET.get("page"))
