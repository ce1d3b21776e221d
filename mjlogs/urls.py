"""URLs of the mjlogs app, mounted at the site root by config/urls.py. (The account pages are in
``mjlogs.account_urls``, mounted at ``accounts/`` without a namespace.)"""

from django.urls import path

import config.limits  # noqa: F401 - registers <id:...>, ids the database can hold
from mjlogs.views import games, link_imports, players, queued_imports, site, uploads

app_name = "mjlogs"

urlpatterns = [
    path("", site.home, name="home"),
    path("health/", site.health, name="health"),
    path("games/", games.game_list, name="game_list"),
    path("games/<id:game_id>/", games.game_detail, name="game_detail"),
    path("games/<id:game_id>/visibility/", games.game_visibility, name="game_visibility"),
    path("games/<id:game_id>/delete/", games.game_delete, name="game_delete"),
    path("players/", players.player_list, name="player_list"),
    path("players/<id:player_id>/", players.player_detail, name="player_detail"),
    path("upload/", uploads.upload, name="upload"),
    path(
        "upload/queued/<id:queued_import_id>/",
        queued_imports.queued_import,
        name="queued_import",
    ),
    path("upload/link/", link_imports.upload_link, name="upload_link"),
    path("upload/link/<id:link_import_id>/", link_imports.link_import, name="link_import"),
]
