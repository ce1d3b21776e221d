from django.apps import AppConfig


class ReplayConfig(AppConfig):
    name = "replay"
    verbose_name = "Replay and verification"

    def ready(self) -> None:
        from mjlogs import pipeline  # (models are importable only once the apps are ready)

        # by name: imported on first use, so that Django starts without the replay app's modules
        pipeline.register(verification="replay.pipeline.ReplayVerification")
