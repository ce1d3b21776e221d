from django.apps import AppConfig


class MjlogsConfig(AppConfig):
    name = "mjlogs"
    verbose_name = "Game logs"
