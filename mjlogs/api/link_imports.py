"""REST endpoints for games brought in by their Tenhou link or log id (docs/api.md, "Bringing
a game in by its Tenhou link"). Thin: validate, call one service or read, serialize."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
)
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle

from config.limits import DB_INT_MAX, parse_int
from config.openapi import ERROR_COMPONENT
from mjlogs.link_imports import (
    link_import_get,
    link_import_request,
    link_imports_visible_to,
)
from mjlogs.models import Game, LinkImport, Visibility
from mjlogs.tenhou_links import EXAMPLE, MAX_LINK_LENGTH
from mjlogs.throttling import UploadRateThrottle


class NewLinkImportSerializer(serializers.Serializer[dict[str, Any]]):
    """What a client sends to bring a game in by its link."""

    link = serializers.CharField(
        max_length=MAX_LINK_LENGTH,
        help_text=f"A Tenhou replay link (https://tenhou.net/0/?log={EXAMPLE}&tw=2) or a log "
        f"id ({EXAMPLE}).",
    )
    visibility = serializers.ChoiceField(choices=Visibility.choices, default=Visibility.PUBLIC)


class LinkImportSerializer(serializers.ModelSerializer[LinkImport]):
    """A link import: what was asked, where it stands, and the game once it is here."""

    url = serializers.HyperlinkedIdentityField(view_name="api:link-import-detail")
    game: serializers.PrimaryKeyRelatedField[Game] = serializers.PrimaryKeyRelatedField(
        read_only=True,
        help_text="The stored game (imported, or already here), once there is one you may see.",
    )
    game_url = serializers.SerializerMethodField(help_text="The game in the API.")
    viewer_url = serializers.SerializerMethodField(
        help_text="The game's replay page, from the seat the link showed (tw) if it said."
    )

    class Meta:
        model = LinkImport
        fields = (
            "id", "url", "link", "source", "log_id", "seat", "visibility", "status", "error",
            "attempts", "game", "game_url", "viewer_url", "created_at", "finished_at",
        )  # fmt: skip
        read_only_fields = fields

    @extend_schema_field(serializers.URLField(allow_null=True))
    def get_game_url(self, row: LinkImport) -> str | None:
        if row.game_id is None:
            return None
        request: Request = self.context["request"]
        return request.build_absolute_uri(reverse("api:game-detail", args=(row.game_id,)))

    @extend_schema_field(serializers.URLField(allow_null=True))
    def get_viewer_url(self, row: LinkImport) -> str | None:
        if row.game_id is None:
            return None
        page = reverse("replay:viewer", args=(row.game_id,))
        if row.seat is not None:
            page += f"?seat={row.seat}"
        request: Request = self.context["request"]
        return request.build_absolute_uri(page)


_ERROR_SCHEMA = {"$ref": f"#/components/schemas/{ERROR_COMPONENT}"}


class LinkImportViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet[LinkImport]):
    """Bring a game in by its Tenhou replay link or log id: Tenhou's log server is asked for
    the record by a background task, which then imports it like an upload. A private one is
    seen by its requester and staff only (404 to anyone else)."""

    serializer_class = LinkImportSerializer
    filterset_class = None

    def get_queryset(self) -> Any:
        return link_imports_visible_to(self.request.user)

    def get_throttles(self) -> list[BaseThrottle]:
        # One budget with uploads (the page and the API): each request may cost a fetch.
        return [UploadRateThrottle()] if self.action == "create" else super().get_throttles()

    def get_object(self) -> LinkImport:
        pk = parse_int(str(self.kwargs["pk"]), 0, DB_INT_MAX)
        try:
            if pk is None:
                raise LinkImport.DoesNotExist
            return link_import_get(self.request.user, pk)
        except LinkImport.DoesNotExist:
            raise Http404("no such link import") from None

    @extend_schema(
        request=NewLinkImportSerializer,
        parameters=[
            OpenApiParameter(
                "Location",
                OpenApiTypes.URI,
                OpenApiParameter.HEADER,
                response=[202],
                description="The link import's own URL, to follow it.",
            )
        ],
        responses={
            202: LinkImportSerializer,
            400: OpenApiResponse(
                response=_ERROR_SCHEMA,
                description="Not a Tenhou log link or id (`link` says what is wrong), or a bad "
                "visibility.",
            ),
            429: OpenApiResponse(
                response=_ERROR_SCHEMA,
                description="Over MJLOGS_UPLOAD_RATE (one budget with uploads); Retry-After says "
                "when to try again. Or MJLOGS_FETCH_PENDING_PER_USER link imports of yours are "
                "already waiting: ask again once one of them has ended.",
            ),
        },
    )
    def create(self, request: Request) -> Response:
        """Ask for the game a Tenhou link or log id names. Answers 202 with the link import:
        ``queued`` (the task runs in the background; GET its ``url`` to follow it), or already
        ended when tasks run in-process or the log id was brought in before (``duplicate``)."""
        given = NewLinkImportSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        try:
            row = link_import_request(
                user=request.user,
                link=given.validated_data["link"],
                visibility=given.validated_data["visibility"],
            )
        except ValueError as error:
            raise ValidationError({"link": [str(error)]}) from None
        row = link_import_get(request.user, row.pk)
        body = LinkImportSerializer(row, context=self.get_serializer_context()).data
        # Its url is DRF's Hyperlink, a subclass of str: a WSGI server may take header values
        # of type str alone (runserver's does, and answered 500), so it goes as plain text.
        location = str(body["url"])
        return Response(body, status=status.HTTP_202_ACCEPTED, headers={"Location": location})
