"""How games, seats, players and upload results look in the API's JSON.

Serializers only present: they read model instances that selectors fetched, and validate the
few inputs (visibility, upload options) before a service acts on them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db.models import Model
from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from engine.errors import EngineError
from engine.rules.modifiers import MODIFIERS, get_modifiers
from mjlogs import selectors
from mjlogs.game_end import record_end
from mjlogs.models import Game, GameSeat, Player, PlayerKind, PlayerName, Visibility
from mjlogs.provenance import platform_label
from mjlogs.verdicts import Verdict

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from rest_framework.request import Request

EXPORT_FORMATS = ("canonical", "tenhou6", "mjai")


class PlayerNameSerializer(serializers.ModelSerializer[PlayerName]):
    class Meta:
        model = PlayerName
        fields = ("platform", "name")


class PlayerSerializer(serializers.ModelSerializer[Player]):
    names = PlayerNameSerializer(many=True, read_only=True)
    url = serializers.HyperlinkedIdentityField(view_name="api:player-detail")
    games = serializers.SerializerMethodField(help_text="Their games: the game list, filtered.")
    platform = serializers.CharField(
        read_only=True,
        help_text="Where the name comes from (tenhou, majsoul, mjai, sim, ...): the same name "
        "on two platforms is two players.",
    )
    platform_label = serializers.SerializerMethodField(help_text="The platform as pages name it.")
    kind = serializers.ChoiceField(
        choices=PlayerKind.choices,
        read_only=True,
        help_text="person, bot (self-play) or anonymous (a guest seat, one game's player).",
    )

    class Meta:
        model = Player
        fields = ("id", "url", "name", "platform", "platform_label", "kind", "names", "games")

    def get_platform_label(self, player: Player) -> str:
        return platform_label(player.platform) if player.platform else ""

    @extend_schema_field(serializers.URLField())
    def get_games(self, player: Player) -> str:
        games = reverse("api:game-list") + f"?player_id={player.pk}"
        request: Request = self.context["request"]
        return request.build_absolute_uri(games)


class PlayerRefSerializer(serializers.ModelSerializer[Player]):
    class Meta:
        model = Player
        fields = ("id", "name")


class SeatSerializer(serializers.ModelSerializer[GameSeat]):
    player = PlayerRefSerializer(read_only=True)

    class Meta:
        model = GameSeat
        fields = ("seat", "player", "start_score", "final_score", "placement", "points")


class GameSerializer(serializers.ModelSerializer[Game]):
    """A game as lists show it."""

    seats = SeatSerializer(many=True, read_only=True)
    uploader: serializers.SlugRelatedField[User] = serializers.SlugRelatedField(
        slug_field="username", read_only=True
    )
    verdict = serializers.SerializerMethodField()
    url = serializers.HyperlinkedIdentityField(view_name="api:game-detail")

    class Meta:
        model = Game
        fields: tuple[str, ...] = (
            "id", "url", "ruleset", "rule_overrides", "players_count", "rounds_count",
            "complete", "source_format", "source_id", "room", "started_at", "uploaded_at",
            "uploader", "visibility", "seats", "verdict",
        )  # fmt: skip
        read_only_fields = fields

    @extend_schema_field(serializers.ChoiceField(choices=Verdict.choices))
    def get_verdict(self, game: Game) -> str:
        verification = getattr(game, "verification", None)
        return verification.verdict if verification is not None else Verdict.PENDING


# (Of a replay.models.Verification: the app above this one, which mjlogs does not import.)
class VerificationSummarySerializer(serializers.Serializer[Model]):
    verdict = serializers.ChoiceField(choices=Verdict.choices)
    message = serializers.CharField()
    discrepancy = serializers.JSONField(allow_null=True)
    engine_version = serializers.CharField()
    verified_at = serializers.DateTimeField(allow_null=True)


class GameDetailSerializer(GameSerializer):
    """One game: what the list shows, the verification, and links to the record itself."""

    verification = serializers.SerializerMethodField()
    links = serializers.SerializerMethodField()
    recorded_points = serializers.SerializerMethodField(
        help_text="The record's own final points per seat (Tenhou's owari figures, after uma "
        "and oka), as it states them, verified or not; null when it states none. The seats' "
        "points are the rules' (docs/api.md, \"A game's end\")."
    )
    #: The original file's own name, without the folders of whoever imported it.
    raw_name = serializers.CharField(source="original_name", read_only=True)
    copy_of: serializers.PrimaryKeyRelatedField[Game] = serializers.PrimaryKeyRelatedField(
        read_only=True,
        help_text="The copy of this game that counts, when this record is another copy of it "
        '(the same play in another record: docs/security.md, "Which game is which"); null '
        "for the copy that counts.",
    )
    copy_conflicts = serializers.ListField(
        child=serializers.CharField(),
        read_only=True,
        help_text="What this record claims otherwise than the copy that counts (for that copy: "
        'than its other copies among the games like it, public or its uploader\'s): "names", '
        '"final scores", "date", ...; empty when they agree.',
    )
    copies = serializers.SerializerMethodField(
        help_text="The game's other copies you may see, the one that counts first."
    )

    class Meta(GameSerializer.Meta):
        fields = (
            *GameSerializer.Meta.fields, "recorded_points", "raw_name", "raw_size",
            "verification", "links", "copy_of", "copy_conflicts", "copies",
        )  # fmt: skip
        read_only_fields = fields

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_copies(self, game: Game) -> list[int]:
        return [copy.pk for copy in selectors.game_copies(self.context["request"].user, game)]

    @extend_schema_field(serializers.ListField(child=serializers.FloatField(), allow_null=True))
    def get_recorded_points(self, game: Game) -> list[float] | None:
        points = record_end(game.document).points
        return None if points is None else list(points)

    @extend_schema_field(VerificationSummarySerializer(allow_null=True))
    def get_verification(self, game: Game) -> dict[str, Any] | None:
        verification = getattr(game, "verification", None)
        if verification is None:
            return None
        return VerificationSummarySerializer(verification).data

    @extend_schema_field(serializers.DictField(child=serializers.URLField()))
    def get_links(self, game: Game) -> dict[str, str]:
        request: Request = self.context["request"]

        def absolute(name: str, query: str = "") -> str:
            return request.build_absolute_uri(reverse(name, args=(game.pk,)) + query)

        links = {
            "document": absolute("api:game-document"),
            "raw": absolute("api:game-raw"),
            "verification": absolute("api:verification-detail"),
            "page": absolute("mjlogs:game_detail"),
        }
        for fmt in EXPORT_FORMATS:
            export = reverse("api:game-export", args=(game.pk, fmt))
            links[f"export_{fmt}"] = request.build_absolute_uri(export)
        return links


class VisibilitySerializer(serializers.Serializer[dict[str, Any]]):
    visibility = serializers.ChoiceField(choices=Visibility.choices)


class ExportFormatSerializer(serializers.Serializer[dict[str, Any]]):
    format = serializers.ChoiceField(choices=EXPORT_FORMATS)


class QueryParameters(serializers.Serializer[dict[str, Any]]):
    """Query parameters: one sent empty counts as not sent, as for the filters (django-filter)
    and the page number; the schema says so (``allowEmptyValue``, config/openapi.py)."""

    def to_internal_value(self, data: Any) -> Any:
        if hasattr(data, "items"):
            data = {key: value for key, value in data.items() if value != ""}
        return super().to_internal_value(data)


class PlayerListQuerySerializer(QueryParameters):
    search = serializers.CharField(
        required=False,
        allow_blank=True,
        help_text="Part of any of their names, in any case. Then anonymous seats are left out "
        "and the players you may see with the most games come first (then by name): what a "
        "name completion asks (with page_size).",
    )
    page_size = serializers.IntegerField(
        required=False, min_value=1, max_value=50, help_text="Players a page (50 by default)."
    )


class UploadOptionsSerializer(QueryParameters):
    visibility = serializers.ChoiceField(choices=Visibility.choices, default=Visibility.PUBLIC)
    modifiers = serializers.CharField(
        required=False,
        default="",
        # Blank (or commas alone) is no choice, as empty is (issue 40, item 3).
        allow_blank=True,
        help_text="Rule modifiers (superpowers) the games were played with, comma-separated "
        "(`swap,second_chance`), for records that cannot state them (tenhou.net/6, mjai, mjlog); "
        "a canonical record states its own, and one stating others fails. Registered: "
        + ", ".join(MODIFIERS)
        + " (docs/rules.md, our own examples).",
    )

    def validate_modifiers(self, value: str) -> tuple[str, ...]:
        names = tuple(name.strip() for name in value.split(",") if name.strip())
        try:
            get_modifiers(names)
        except EngineError as error:
            raise serializers.ValidationError(str(error)) from None
        return names


class OutcomeSerializer(serializers.Serializer[dict[str, Any]]):
    file = serializers.CharField()
    index = serializers.IntegerField(allow_null=True)
    status = serializers.ChoiceField(choices=("imported", "duplicate", "failed"))
    game_id = serializers.IntegerField(allow_null=True)
    error = serializers.CharField(allow_blank=True)
    format = serializers.CharField(allow_blank=True)


class UploadResultSerializer(serializers.Serializer[dict[str, Any]]):
    outcomes = OutcomeSerializer(many=True)
    counts = serializers.DictField(child=serializers.IntegerField())
