"""Admin of the mjlogs app: games with their seats, players with their names."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from django.contrib import admin

from mjlogs.models import Game, GameSeat, Player, PlayerName

if TYPE_CHECKING:
    # The admin's classes are generic in django-stubs only: subscripting them at run time would
    # take django_stubs_ext.monkeypatch(), which imports half of django.contrib into every process.
    GameSeatInlineBase = admin.TabularInline[GameSeat, Game]
    GameAdminBase = admin.ModelAdmin[Game]
    PlayerNameInlineBase = admin.TabularInline[PlayerName, Player]
    PlayerAdminBase = admin.ModelAdmin[Player]
else:
    GameSeatInlineBase = PlayerNameInlineBase = admin.TabularInline
    GameAdminBase = PlayerAdminBase = admin.ModelAdmin


class GameSeatInline(GameSeatInlineBase):
    model = GameSeat
    extra = 0
    raw_id_fields = ("player",)
    readonly_fields = ("seat", "start_score", "final_score", "placement")


@admin.register(Game)
class GameAdmin(GameAdminBase):
    list_display = (
        "id", "source_id", "ruleset", "source_format", "started_at", "uploaded_at",
        "uploader", "visibility", "complete",
    )  # fmt: skip
    list_filter = ("ruleset", "source_format", "visibility", "complete")
    search_fields = ("source_id", "content_hash", "seats__player__name")
    date_hierarchy = "started_at"
    raw_id_fields = ("uploader",)
    # The record itself is the engine's to write: the admin may change who sees it, not what
    # it says.
    readonly_fields = (
        "ruleset", "rule_overrides", "players_count", "rounds_count", "complete",
        "source_format", "source_id", "content_hash", "started_at", "uploaded_at",
        "document_json", "raw_name", "raw_size",
    )  # fmt: skip
    exclude = ("raw", "document")
    inlines = (GameSeatInline,)

    @admin.display(description="document")
    def document_json(self, game: Game) -> str:
        """The canonical record as JSON text (it is stored packed: shown as it is, the admin
        would write Python's spelling of it)."""
        return json.dumps(game.document, ensure_ascii=False)


class PlayerNameInline(PlayerNameInlineBase):
    model = PlayerName
    extra = 0


@admin.register(Player)
class PlayerAdmin(PlayerAdminBase):
    list_display = ("id", "name", "created_at")
    search_fields = ("name", "names__name")
    inlines = (PlayerNameInline,)
