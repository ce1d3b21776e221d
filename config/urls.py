"""Top-level URL configuration: each app owns the URLs under its prefix."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include("config.api")),
    # The language switch in every page's header posts here (Django's set_language, which
    # remembers the choice in a cookie). No language prefix anywhere else: a page's address is
    # the same in every language.
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/", include("mjlogs.account_urls")),
    path("replay/", include("replay.urls")),
    path("stats/", include("stats.urls")),
    # The home page and /health/ live in the mjlogs app; keep this include last.
    path("", include("mjlogs.urls")),
]

handler404 = "config.api.not_found"
