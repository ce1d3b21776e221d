from django.apps import AppConfig


class ReplayConfig(AppConfig):
    name = "replay"
    verbose_name = "Replay and verification"

    def ready(self) -> None:
        from mjlogs import pipeline  # (models are importable only once the apps are ready)
        from replay.pipeline import ReplayVerification

        pipeline.register(verification=ReplayVerification())
