"""URLs of the mjlogs app, mounted at the site root by config/urls.py."""

from django.urls import path

from mjlogs import views

app_name = "mjlogs"

urlpatterns = [
    path("", views.home, name="home"),
    path("health/", views.health, name="health"),
]
