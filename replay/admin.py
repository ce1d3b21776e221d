"""Admin of the replay app: verifications, read-only (the engine writes them)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import admin

from replay.models import Verification

if TYPE_CHECKING:
    # ModelAdmin is generic in django-stubs only: subscripting it at run time would take
    # django_stubs_ext.monkeypatch(), which imports half of django.contrib into every process.
    VerificationAdminBase = admin.ModelAdmin[Verification]
else:
    VerificationAdminBase = admin.ModelAdmin


@admin.register(Verification)
class VerificationAdmin(VerificationAdminBase):
    list_display = ("game", "verdict", "engine_version", "complete", "events", "verified_at")
    list_filter = ("verdict", "engine_version", "complete")
    search_fields = ("game__source_id", "message")
    raw_id_fields = ("game",)
    readonly_fields = (
        "verdict", "engine_version", "discrepancy", "message", "complete", "events",
        "duration_ms", "verified_at", "report",
    )  # fmt: skip
