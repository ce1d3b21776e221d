"""Admin of the replay app: verifications, read-only (the engine writes them)."""

from __future__ import annotations

from django.contrib import admin

from replay.models import Verification


@admin.register(Verification)
class VerificationAdmin(admin.ModelAdmin):
    list_display = ("game", "verdict", "engine_version", "complete", "events", "verified_at")
    list_filter = ("verdict", "engine_version", "complete")
    search_fields = ("game__source_id", "message")
    raw_id_fields = ("game",)
    readonly_fields = (
        "verdict", "engine_version", "discrepancy", "message", "complete", "events",
        "duration_ms", "verified_at", "report",
    )  # fmt: skip
