"""What several pages share: pagination (counting up to ``mjlogs.pagination.COUNT_CAP``)."""

from __future__ import annotations

from typing import Any

from django.core.paginator import Page
from django.http import HttpRequest

from mjlogs.pagination import CappedPaginator

#: Rows per page of every list.
PAGE_SIZE = 50


def paginate(request: HttpRequest, items: Any) -> Page:
    """The page of ``items`` that ``?page=`` asks for (the last for a number past the end, or
    past the counted rows; the first for anything that is not a number)."""
    return CappedPaginator(items, PAGE_SIZE).get_page(request.GET.get("page"))
