"""Pagination that counts at most :data:`COUNT_CAP` rows, for the pages and the REST API.

An exact count of a list costs a scan of every row it holds: ~1 ms at 3,700 games, 20-45 ms
at 100,000, and it keeps growing with the table, on every page of every list. Nobody pages
through a hundred thousand games, so a list counts up to the cap (an index-only scan that
stops there) and says "10,000+" beyond it; the pages go as far as the cap, and the filters
(date, player, rule set) reach older games. Django's admin and most search engines do the
same.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Any

from django.core.paginator import Paginator
from django.db.models import QuerySet
from rest_framework.pagination import PageNumberPagination
from rest_framework.response import Response

#: Rows a list counts at most; past it, the count says "at least" and the pages stop there.
COUNT_CAP = 10_000

if TYPE_CHECKING:
    # Generic in django-stubs only: subscripting it at run time would take
    # django_stubs_ext.monkeypatch(), which imports half of django.contrib into every process.
    PaginatorBase = Paginator[Any]
else:
    PaginatorBase = Paginator


class CappedPaginator(PaginatorBase):
    """A :class:`~django.core.paginator.Paginator` whose ``count`` stops at ``cap``;
    ``count_is_exact`` says whether it stopped there."""

    def __init__(self, object_list: Any, per_page: int, *args: Any, **kwargs: Any) -> None:
        self.cap = kwargs.pop("cap", COUNT_CAP)
        super().__init__(object_list, per_page, *args, **kwargs)

    @cached_property
    def _capped_count(self) -> tuple[int, bool]:
        items = self.object_list
        # A queryset counts in SQL, COUNT(*) over a subquery with LIMIT cap + 1: the scan stops
        # at the cap. Unordered: which rows make up the cap does not change the count, and the
        # order would cost a sort or an index walk.
        if isinstance(items, QuerySet):
            counted = items.order_by()[: self.cap + 1].count()
        else:
            counted = len(items)
        return min(counted, self.cap), counted <= self.cap

    @cached_property
    def count(self) -> int:
        return self._capped_count[0]

    @property
    def count_is_exact(self) -> bool:
        return self._capped_count[1]


class CappedPageNumberPagination(PageNumberPagination):
    """DRF's page-number pagination over a :class:`CappedPaginator`: ``count`` stops at
    :data:`COUNT_CAP`, and ``count_exact`` says whether it did."""

    django_paginator_class = CappedPaginator

    def get_paginated_response(self, data: Any) -> Response:
        assert self.page is not None
        paginator = self.page.paginator
        assert isinstance(paginator, CappedPaginator)
        return Response(
            {
                "count": paginator.count,
                "count_exact": paginator.count_is_exact,
                "next": self.get_next_link(),
                "previous": self.get_previous_link(),
                "results": data,
            }
        )

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        paginated = super().get_paginated_response_schema(schema)
        properties = paginated["properties"]
        properties["count"]["description"] = (
            f"Rows in the list, counted up to {COUNT_CAP:,}: when there are more, this is "
            f"{COUNT_CAP:,}, count_exact is false, and the pages stop there (the filters reach "
            "the rest)."
        )
        properties["count_exact"] = {
            "type": "boolean",
            "description": f"False when the list holds more than {COUNT_CAP:,} rows.",
        }
        paginated["required"] = [*paginated.get("required", []), "count_exact"]
        return paginated
