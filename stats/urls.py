"""URLs of the stats app, mounted under /stats/ by config/urls.py."""

from django.urls import path

from stats import views

app_name = "stats"

urlpatterns = [
    path("players/<int:player_id>/", views.player_stats, name="player_stats"),
    path("compare/", views.compare, name="compare"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
]
