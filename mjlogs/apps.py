from django.apps import AppConfig


class MjlogsConfig(AppConfig):
    name = "mjlogs"
    verbose_name = "Game logs"

    def ready(self) -> None:
        # The service's own system checks (config is no app of its own to register them).
        import config.checks  # noqa: F401
