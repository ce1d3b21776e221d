"""URLs of the stats app, mounted under /stats/ by config/urls.py."""

from django.urls import path

import config.limits  # noqa: F401 - registers <id:...>, ids the database can hold
from stats import views

app_name = "stats"

urlpatterns = [
    path("players/<id:player_id>/", views.player_stats, name="player_stats"),
    path("compare/", views.compare, name="compare"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
]
