"""URLs of the replay app, mounted under /replay/ by config/urls.py."""

from django.urls import path

from replay import views

app_name = "replay"

urlpatterns = [
    path("<int:game_id>/", views.viewer, name="viewer"),
]
