"""URLs of the replay app, mounted under /replay/ by config/urls.py. None yet."""

from django.urls import URLPattern

app_name = "replay"

urlpatterns: list[URLPattern] = []
