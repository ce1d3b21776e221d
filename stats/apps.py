from django.apps import AppConfig


class StatsConfig(AppConfig):
    name = "stats"
    verbose_name = "Statistics"

    def ready(self) -> None:
        from mjlogs import pipeline  # (models are importable only once the apps are ready)

        # by name: imported on first use, so that Django starts without the stats app's modules
        pipeline.register(statistics="stats.pipeline.StatsOfGames")
