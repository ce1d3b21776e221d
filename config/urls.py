"""Top-level URL configuration: each app owns the URLs under its prefix."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include("config.api")),
    path("accounts/", include("mjlogs.account_urls")),
    path("replay/", include("replay.urls")),
    path("stats/", include("stats.urls")),
    # The home page and /health/ live in the mjlogs app; keep this include last.
    path("", include("mjlogs.urls")),
]

handler404 = "config.api.not_found"
