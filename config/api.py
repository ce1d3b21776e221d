"""The REST API's URLs, under /api/ (see docs/api.md): one router over every app's endpoints,
token log-in and revocation, and the OpenAPI schema with its browsable documentation."""

from csp.constants import SELF, UNSAFE_INLINE
from csp.decorators import csp_update
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import include, path
from django.views.defaults import page_not_found
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularRedocView,
    SpectacularSwaggerSplitView,
)
from rest_framework.routers import DefaultRouter

import config.limits  # noqa: F401 - registers <id:...>, ids the database can hold
from mjlogs.api.link_imports import LinkImportViewSet
from mjlogs.api.queued_imports import QueuedImportViewSet
from mjlogs.api.tokens import AuthTokenView
from mjlogs.api.views import GameViewSet, PlayerViewSet, UploadView
from replay.api import RoundFramesView, RoundFrameView, VerificationViewSet
from stats.api import (
    HeadToHeadView,
    LeaderboardView,
    PlayerFactsCSVView,
    PlayerSeriesView,
    PlayerStatsView,
)

app_name = "api"

#: What the documentation pages need beyond the site's Content-Security-Policy (settings):
#: Swagger UI and ReDoc write inline styles, ReDoc runs its search in a worker made from a
#: blob. Their scripts are our static files (drf-spectacular-sidecar); Swagger UI's start-up
#: script is served as a file of its own (the "split" view), not inline.
DOCS_CSP = {"style-src": [UNSAFE_INLINE], "worker-src": [SELF, "blob:"]}
docs_view = csp_update(DOCS_CSP)(SpectacularSwaggerSplitView.as_view(url_name="api:schema"))
redoc_view = csp_update(DOCS_CSP)(SpectacularRedocView.as_view(url_name="api:schema"))

router = DefaultRouter()
router.register("games", GameViewSet, basename="game")
router.register("players", PlayerViewSet, basename="player")
router.register("verifications", VerificationViewSet, basename="verification")
router.register("imports/links", LinkImportViewSet, basename="link-import")
router.register("imports/queued", QueuedImportViewSet, basename="queued-import")

urlpatterns = [
    path("", include(router.urls)),
    path(
        "games/<id:game_id>/rounds/<id:round_index>/frames/",
        RoundFramesView.as_view(),
        name="round-frames",
    ),
    path(
        "games/<id:game_id>/rounds/<id:round_index>/frames/<id:step>/",
        RoundFrameView.as_view(),
        name="round-frame",
    ),
    path("players/<id:player_id>/stats/", PlayerStatsView.as_view(), name="player-stats"),
    path(
        "players/<id:player_id>/stats/series/",
        PlayerSeriesView.as_view(),
        name="player-stats-series",
    ),
    path(
        "players/<id:player_id>/stats/facts.csv",
        PlayerFactsCSVView.as_view(),
        name="player-stats-facts",
    ),
    path("stats/head-to-head/", HeadToHeadView.as_view(), name="head-to-head"),
    path("stats/leaderboard/", LeaderboardView.as_view(), name="leaderboard"),
    path("uploads/", UploadView.as_view(), name="upload"),
    path("auth/token/", AuthTokenView.as_view(), name="token"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", docs_view, name="docs"),
    path("redoc/", redoc_view, name="redoc"),
]


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """The site's 404 (``handler404`` in config/urls.py): JSON under /api/, as the API's own
    404s are, for a path no route takes (``/api/games/0.5/``); the site's page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "Not found."}, status=404)
    return page_not_found(request, exception)
