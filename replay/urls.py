"""URLs of the replay app, mounted under /replay/ by config/urls.py."""

from django.urls import path

import config.limits  # noqa: F401 - registers <id:...>, ids the database can hold
from replay import views

app_name = "replay"

urlpatterns = [
    path("<id:game_id>/", views.viewer, name="viewer"),
]
