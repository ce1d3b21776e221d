"""REST endpoints of the replay app: what the rules engine said about each game."""

from __future__ import annotations

from typing import Any

import django_filters
from django.db.models import QuerySet
from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, viewsets
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from mjlogs import selectors as game_selectors
from mjlogs.models import Game
from replay import selectors
from replay.models import Verdict, Verification


class VerificationSerializer(serializers.ModelSerializer[Verification]):
    game: serializers.HyperlinkedRelatedField[Game] = serializers.HyperlinkedRelatedField(
        view_name="api:game-detail", read_only=True
    )
    game_id = serializers.IntegerField(read_only=True)

    class Meta:
        model = Verification
        fields: tuple[str, ...] = (
            "game_id", "game", "verdict", "message", "discrepancy", "complete", "events",
            "engine_version", "duration_ms", "verified_at",
        )  # fmt: skip
        read_only_fields = fields


class VerificationDetailSerializer(VerificationSerializer):
    class Meta(VerificationSerializer.Meta):
        fields = (*VerificationSerializer.Meta.fields, "report")
        read_only_fields = fields


class VerificationFilter(django_filters.FilterSet):
    verdict = django_filters.ChoiceFilter(choices=Verdict.choices)
    engine_version = django_filters.CharFilter()

    class Meta:
        model = Verification
        fields: tuple[str, ...] = ()


class VerificationViewSet(viewsets.ReadOnlyModelViewSet[Verification]):
    """Verdicts of the games you may see; by game id. ``report`` (per-round results as the
    engine computes them) is in the single-game view only."""

    filterset_class = VerificationFilter
    lookup_field = "game_id"

    def get_queryset(self) -> QuerySet[Verification]:
        return selectors.verifications_of(game_selectors.games_visible_to(self.request.user))

    def get_serializer_class(self) -> Any:
        return VerificationSerializer if self.action == "list" else VerificationDetailSerializer

    def get_object(self) -> Verification:
        try:
            game = game_selectors.game_get(self.request.user, int(self.kwargs["game_id"]))
            return selectors.verification_of(game)
        except (Game.DoesNotExist, Verification.DoesNotExist, ValueError):
            raise Http404("no verification of such a game") from None


_FRAMES_NOT_FOUND = OpenApiResponse(
    description="No such game (or one you may not see), no such round or step, or a game the "
    "engine cannot replay."
)


def _visible_game(request: Request, game_id: int) -> Game:
    """The game as the frames read it (without its document: they read one hand of it)."""
    try:
        return selectors.frames_game_get(request.user, game_id)
    except Game.DoesNotExist:
        raise Http404("no such game") from None


class RoundFramesView(APIView):
    """Every frame of one round: the table after each event, step 0 being the deal
    (docs/replay.md, "Frames"), with the game's rounds and the verification's first
    discrepancy when it is in this round."""

    @extend_schema(
        operation_id="games_rounds_frames_list",
        responses={200: OpenApiTypes.OBJECT, 404: _FRAMES_NOT_FOUND},
    )
    def get(self, request: Request, game_id: int, round_index: int) -> Response:
        game = _visible_game(request, game_id)
        try:
            return Response(selectors.game_frames(game, round_index))
        except selectors.FramesNotFound as error:
            raise Http404(str(error)) from None


class RoundFrameView(APIView):
    """One frame of a round (as in the round's frames), with ``game``, ``players`` and
    ``round``."""

    @extend_schema(
        operation_id="games_rounds_frames_retrieve",
        responses={200: OpenApiTypes.OBJECT, 404: _FRAMES_NOT_FOUND},
    )
    def get(self, request: Request, game_id: int, round_index: int, step: int) -> Response:
        game = _visible_game(request, game_id)
        try:
            return Response(selectors.game_frame(game, round_index, step))
        except selectors.FramesNotFound as error:
            raise Http404(str(error)) from None
