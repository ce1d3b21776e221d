"""REST endpoints for games, players and uploads. Thin: each validates its input, calls one
selector or service, and serializes (see docs/api.md for the whole API)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.core.exceptions import TooManyFilesSent
from django.http import Http404, HttpResponse
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import APIException, ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.parsers import BaseParser, MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.middleware import DATABASE_ERRORS, DATABASE_RETRY_AFTER
from config.openapi import ERROR_COMPONENT
from engine.errors import EngineError
from engine.formats import get_format
from mjlogs import game_changes, importing, selectors
from mjlogs.api.serializers import (
    EXPORT_FORMATS,
    ExportFormatSerializer,
    GameDetailSerializer,
    GameSerializer,
    PlayerListQuerySerializer,
    PlayerSerializer,
    UploadOptionsSerializer,
    UploadResultSerializer,
    VisibilitySerializer,
)
from mjlogs.archives import UploadedFile
from mjlogs.downloads import attachment
from mjlogs.filters import GameFilter
from mjlogs.models import Game, Player
from mjlogs.throttling import UploadRateThrottle
from mjlogs.uploads import (
    check_upload_size,
    file_name_from_headers,
    files_from_form,
)
from mjlogs.verdicts import Verdict
from mjlogs.views.uploads import DATABASE_UNAVAILABLE

logger = logging.getLogger(__name__)

#: Content types of the exports, by format name.
EXPORT_CONTENT_TYPES = {
    "canonical": "application/json",
    "tenhou6": "application/json",
    "mjai": "application/x-ndjson",
}


#: Game columns the list writes as they are stored.
LISTED_AS_IS = (
    "ruleset", "rule_overrides", "players_count", "rounds_count", "complete", "source_format",
    "source_id", "room",
)  # fmt: skip
_DATETIME = serializers.DateTimeField()


class GameViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet[Game],
):
    """Games: list (filtered, paginated), one game, its record, exports and verdict.

    A private game is visible only to its uploader and staff; to anyone else it does not exist
    (404). Deleting a game or changing its visibility is for its uploader and staff (403).
    """

    filterset_class = GameFilter
    http_method_names = ("get", "patch", "delete", "head", "options")

    def get_queryset(self) -> Any:
        return selectors.games_listed(self.request.user)

    def get_serializer_class(self) -> Any:
        return GameSerializer if self.action == "list" else GameDetailSerializer

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        # The page of ids first (filtered, in the list's order), then the games as plain
        # values (selectors.game_rows): what GameSerializer would write, without building
        # 50 games and 200 seats as model instances and serializer fields.
        games = self.filter_queryset(self.get_queryset())
        ids = self.paginate_queryset(games.prefetch_related(None).values_list("pk", flat=True))
        assert ids is not None  # the list is always paginated
        rows = selectors.game_rows(list(ids))
        return self.get_paginated_response([self._listed(row) for row in rows])

    def _listed(self, row: dict[str, Any]) -> dict[str, Any]:
        """A game row as GameSerializer writes a game (tests/api check they agree)."""
        url = self.request.build_absolute_uri(reverse("api:game-detail", args=(row["id"],)))
        return {
            "id": row["id"],
            "url": url,
            **{name: row[name] for name in LISTED_AS_IS},
            "started_at": _DATETIME.to_representation(row["started_at"]),
            "uploaded_at": _DATETIME.to_representation(row["uploaded_at"]),
            "uploader": row["uploader"],
            "visibility": row["visibility"],
            "seats": [
                {
                    "seat": seat["seat"],
                    "player": {"id": seat["player_id"], "name": seat["player__name"]},
                    "start_score": seat["start_score"],
                    "final_score": seat["final_score"],
                    "placement": seat["placement"],
                    "points": seat["points"],
                }
                for seat in row["seats"]
            ],
            "verdict": row["verdict"] or Verdict.PENDING.value,
        }

    def get_object(self) -> Game:
        try:
            return selectors.game_get(self.request.user, int(self.kwargs["pk"]))
        except (Game.DoesNotExist, ValueError):
            raise Http404("no such game") from None

    def perform_destroy(self, instance: Game) -> None:
        game_changes.game_delete(user=self.request.user, game=instance)

    @extend_schema(
        request=VisibilitySerializer,
        responses={
            200: GameDetailSerializer,
            409: OpenApiResponse(
                description=(
                    "The same game already has that visibility in another copy (public, or "
                    "private to the same uploader); `detail` names it."
                )
            ),
        },
    )
    def partial_update(self, request: Request, pk: str) -> Response:
        """Change who may see the game (``public`` or ``private``)."""
        game = self.get_object()
        options = VisibilitySerializer(data=request.data, partial=True)
        options.is_valid(raise_exception=True)
        # A PATCH changes what it sends: without ``visibility``, nothing (who may manage the
        # game is checked all the same).
        visibility = options.validated_data.get("visibility", game.visibility)
        # A conflict (the same game already public) is a 409: mjlogs.errors.
        game = game_changes.game_visibility_set(user=request.user, game=game, visibility=visibility)
        return Response(GameDetailSerializer(game, context=self.get_serializer_context()).data)

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    @action(detail=True, filterset_class=None)
    def document(self, request: Request, pk: str) -> Response:
        """The game's canonical record (docs/format.md)."""
        return Response(self.get_object().document)

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "format_name",
                str,
                OpenApiParameter.PATH,
                enum=EXPORT_FORMATS,
                description="canonical JSON, tenhou6 (tenhou.net/6 JSON) or mjai JSON lines",
            )
        ],
        responses={
            (200, "application/octet-stream"): OpenApiTypes.BINARY,
            400: OpenApiResponse(description="An unknown format, or one the game cannot take."),
        },
    )
    @action(detail=True, url_path=r"export/(?P<format_name>[^/.]+)", filterset_class=None)
    def export(self, request: Request, pk: str, format_name: str) -> HttpResponse:
        """The game written as ``canonical`` JSON, ``tenhou6`` (tenhou.net/6 JSON) or ``mjai``
        JSON lines, as a download."""
        query = ExportFormatSerializer(data={"format": format_name})
        query.is_valid(raise_exception=True)
        game = self.get_object()
        try:
            content = selectors.game_export(game, format_name)
        except EngineError as error:
            message = f"cannot export as {format_name}: {error}"
            raise ValidationError({"format": [message]}) from None
        extension = get_format(format_name).extensions[0]
        return _download(game, content, EXPORT_CONTENT_TYPES[format_name], _stem(game) + extension)

    @extend_schema(responses={(200, "application/octet-stream"): OpenApiTypes.BINARY})
    @action(detail=True, filterset_class=None)
    def raw(self, request: Request, pk: str) -> HttpResponse:
        """The file the game was imported from, byte for byte."""
        game = self.get_object()
        name, content = selectors.game_original(game)
        return _download(game, content, "application/octet-stream", name or _stem(game))


def _stem(game: Game) -> str:
    return game.source_id or f"game-{game.pk}"


def _download(game: Game, content: bytes, content_type: str, file_name: str) -> HttpResponse:
    """A download named by what the uploader chose (``mjlogs.downloads``: control and bidi
    characters dropped, RFC 6266), ``game-<id>`` where nothing of the name is left."""
    return attachment(content, content_type, file_name, fallback=f"game-{game.pk}")


class PlayerViewSet(viewsets.ReadOnlyModelViewSet[Player]):
    """Players seen in the games you may see, and their games."""

    serializer_class = PlayerSerializer
    filterset_class = None

    @extend_schema(parameters=[PlayerListQuerySerializer])
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Every player you may see, by name; or, with ``search``, the players whose names
        hold it, the most games first (a name completion: ``?search=an&page_size=15``)."""
        query = PlayerListQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        self.query = query.validated_data
        if "page_size" in self.query and isinstance(self.paginator, PageNumberPagination):
            self.paginator.page_size = self.query["page_size"]
        return super().list(request, *args, **kwargs)

    def get_queryset(self) -> Any:
        search = getattr(self, "query", {}).get("search", "").strip()
        if search:
            return selectors.player_search(self.request.user, search)
        return selectors.player_list(self.request.user)

    def get_object(self) -> Player:
        try:
            return selectors.player_get(self.request.user, int(self.kwargs["pk"]))
        except (Player.DoesNotExist, ValueError):
            raise Http404("no such player") from None


class RawBodyParser(BaseParser):
    """Any other body is one game file, taken as it is (its name from the Content-Disposition
    or X-File-Name header)."""

    media_type = "*/*"

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        return stream.read() if stream is not None else b""


def error_response(description: str) -> OpenApiResponse:
    return OpenApiResponse(response=_ERROR_SCHEMA, description=description)


#: DRF's error body (config/openapi.py documents it for every operation).
_ERROR_SCHEMA = {"$ref": f"#/components/schemas/{ERROR_COMPONENT}"}
#: An upload's 400: the outcomes when no file gave a game, else refused input (no file, a bad
#: option).
_UPLOAD_REFUSED_SCHEMA = {
    "anyOf": [{"$ref": "#/components/schemas/UploadResult"}, _ERROR_SCHEMA],
}


#: What an upload sends (``UploadRequest``): files in a multipart form, or one raw body.
UPLOAD_REQUEST_BODY: dict[str, Any] = {
    "multipart/form-data": {
        "type": "object",
        "properties": {
            "files": {
                "type": "array",
                "items": {"type": "string", "format": "binary"},
                "minItems": 1,
            }
        },
        "required": ["files"],
    },
    "application/octet-stream": OpenApiTypes.BINARY,
}
#: How an upload is refused before it is read (``UploadRequest``), and over the rate.
UPLOAD_REFUSALS = {
    411: error_response("No Content-Length (a chunked body)."),
    413: error_response("Larger than MJLOGS_MAX_UPLOAD_BYTES; not read."),
    429: error_response("Over MJLOGS_UPLOAD_RATE; Retry-After says when to try again."),
}


class UploadRequest:
    """What every view taking an upload does: the request's size is checked before anything
    reads its body, the files are taken from a multipart form (field ``files``) or the raw
    body, and a database that cannot be used is answered 503 in JSON."""

    parser_classes: Sequence[type[BaseParser]] = (MultiPartParser, RawBodyParser)

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        # Before anything reads the body (CSRF checks on session auth read a form's fields).
        if request.method == "POST":
            check_upload_size(request._request)  # a refusal: mjlogs.errors.api_exception_handler
        super().initial(request, *args, **kwargs)  # type: ignore[misc]

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, TooManyFilesSent):  # (Django's would be a bare HTML 400)
            exc = ValidationError(
                {
                    "files": [
                        f"too many files in one request: at most "
                        f"{settings.DATA_UPLOAD_MAX_NUMBER_FILES}; put them in a zip or tar "
                        "archive, or send them in several requests"
                    ]
                }
            )
        # Also for the token or session look-up in initial(): it needs the database too.
        if isinstance(exc, DATABASE_ERRORS):
            logger.error("Upload refused, the database is not available: %s", exc)
            exc = _DatabaseUnavailable()
            # In JSON whatever was asked: the browsable API's page shows the user, whom only
            # the database knows.
            request = self.request  # type: ignore[attr-defined]
            request.accepted_renderer = JSONRenderer()
            request.accepted_media_type = JSONRenderer.media_type
        return super().handle_exception(exc)  # type: ignore[misc,no-any-return]

    @staticmethod
    def uploaded_files(request: Request) -> list[UploadedFile]:
        if isinstance(request.data, bytes):
            if not request.data:
                return []
            name = file_name_from_headers(request._request)
            return [UploadedFile(name, request.data)]
        return files_from_form(request.FILES.getlist("files"))


class UploadView(UploadRequest, APIView):
    """Upload game records: one or more files in a multipart form (field ``files``), or one file
    as the raw request body. Archives (zip, tar) are opened; formats are sniffed.

    Answers 201 when at least one game was stored, 200 when nothing new was stored but some
    games were already there, and 400 when no file gave a game; the body lists what became of
    every game and every file. 413 when the request is larger than the service accepts, 411
    when it does not say its length (a chunked body); 503 when the database cannot be used
    (nothing of the upload was stored: it is all or nothing).
    """

    permission_classes = (IsAuthenticated,)
    throttle_classes = (UploadRateThrottle,)  # one budget with the upload page

    @extend_schema(
        parameters=[UploadOptionsSerializer],
        request=UPLOAD_REQUEST_BODY,
        responses={
            201: UploadResultSerializer,
            200: UploadResultSerializer,
            400: OpenApiResponse(
                response=_UPLOAD_REFUSED_SCHEMA,
                description="No file gave a game (what became of each), or refused input.",
            ),
            **UPLOAD_REFUSALS,
            503: OpenApiResponse(description="The database is not available; nothing stored."),
        },
    )
    def post(self, request: Request) -> Response:
        options = UploadOptionsSerializer(data=request.query_params)
        options.is_valid(raise_exception=True)
        files = self.uploaded_files(request)
        if not files:
            raise ValidationError({"files": ["no file was sent"]})
        user = request.user
        assert user.is_authenticated  # (permission_classes)
        summary = importing.upload_import(
            files,
            uploader=user,
            visibility=options.validated_data["visibility"],
            modifiers=options.validated_data["modifiers"],
        )
        counts = summary.counts
        answer: int
        if counts["imported"]:
            answer = status.HTTP_201_CREATED
        elif counts["duplicate"]:
            answer = status.HTTP_200_OK
        else:
            answer = status.HTTP_400_BAD_REQUEST
        body = {"outcomes": [o.to_json() for o in summary.outcomes], "counts": counts}
        return Response(body, status=answer)


class _DatabaseUnavailable(APIException):
    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_code = "database_unavailable"
    default_detail = DATABASE_UNAVAILABLE
    #: DRF's exception handler sends it as ``Retry-After``.
    wait = DATABASE_RETRY_AFTER
