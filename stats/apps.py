from django.apps import AppConfig


class StatsConfig(AppConfig):
    name = "stats"
    verbose_name = "Statistics"

    def ready(self) -> None:
        from mjlogs import pipeline  # (models are importable only once the apps are ready)
        from stats.pipeline import StatsOfGames

        pipeline.register(statistics=StatsOfGames())
