"""URLs of the stats app, mounted under /stats/ by config/urls.py. None yet."""

from django.urls import URLPattern

app_name = "stats"

urlpatterns: list[URLPattern] = []
