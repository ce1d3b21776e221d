"""Forms of the stats pages: they read the query string (the pages only read)."""

from __future__ import annotations

from typing import Any, TypedDict

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext, gettext_lazy

from config.limits import DB_INT_MAX, parse_int
from mjlogs.models import Player
from mjlogs.selectors import (
    PlayerLookupError,
    User,
    looks_like_id,
    player_by_name,
    player_label,
)
from stats.filters import StatsFilter
from stats.metrics import METRIC_GROUPS, METRICS_BY_NAME
from stats.selectors import DEFAULT_MIN_GAMES, LEADERBOARD_FILTERS

#: Characters a typed player may have: a name (200) and ``@platform``.
PLAYER_TEXT_MAX = 240
_PLAYER_HELP = gettext_lazy("A name (name@platform when it is on two platforms) or an id.")


class ChoiceLink(TypedDict):
    """A player an error of :class:`CompareForm` offers, with the query that picks them."""

    query: str
    player: Player
    ref: str
    label: str


def find_player(user: User, text: str) -> int | Player:
    """A typed player: an id (digits; the caller finds the player, a 404 when hidden, as for
    every id) or a name, ``name@platform`` (``mjlogs.selectors.player_by_name``).

    :raises forms.ValidationError: an id out of range.
    :raises PlayerLookupError: no player by that name, or several.
    """
    if looks_like_id(text):
        number = parse_int(text, 1, DB_INT_MAX)
        if number is None:
            raise forms.ValidationError(
                f"Not a player id: ids are whole numbers from 1 to {DB_INT_MAX}.", code="id"
            )
        return number
    return player_by_name(user, text)


class CompareForm(forms.Form):
    """Two players, each typed as a name (``name@platform`` when a name is on two platforms)
    or an id (the links of before). Cleaned, each is a :class:`Player` found by name or an id
    for the view to look up; ``choices`` holds, per field, the players an error offers."""

    a = forms.CharField(
        label=gettext_lazy("First player"), max_length=PLAYER_TEXT_MAX, help_text=_PLAYER_HELP
    )
    b = forms.CharField(
        label=gettext_lazy("Second player"), max_length=PLAYER_TEXT_MAX, help_text=_PLAYER_HELP
    )

    def __init__(self, *args: Any, user: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        #: Per field, the players its error offers, with what to type for each.
        self.choices: dict[str, list[tuple[Player, str]]] = {}
        for name in ("a", "b"):
            self.fields[name].widget.attrs.update(
                {
                    "list": f"id_{name}_players",
                    "autocomplete": "off",
                    "spellcheck": "false",
                    "data-player-input": "",
                }
            )

    def _clean_player(self, name: str) -> int | Player:
        try:
            return find_player(self.user, self.cleaned_data[name])
        except PlayerLookupError as error:
            self.choices[name] = [(p, error.refs[p.pk]) for p in error.candidates]
            code = "ambiguous" if error.ambiguous else "unknown"
            raise forms.ValidationError(error.message, code=code) from None

    def clean_a(self) -> int | Player:
        return self._clean_player("a")

    def clean_b(self) -> int | Player:
        return self._clean_player("b")

    def clean(self) -> dict[str, object]:
        cleaned = super().clean() or {}
        a, b = cleaned.get("a"), cleaned.get("b")
        if a is not None and b is not None and _pk(a) == _pk(b):
            self.add_error("b", gettext("Choose two different players."))
        return cleaned

    def choice_links(self, params: QueryDict) -> dict[str, list[ChoiceLink]]:
        """Per field, the players its error offers, each with the query that picks it."""
        links: dict[str, list[ChoiceLink]] = {}
        for name, choices in self.choices.items():
            for player, ref in choices:
                picked = params.copy()
                picked[name] = ref
                picked.pop("page", None)
                links.setdefault(name, []).append(
                    {
                        "query": picked.urlencode(),
                        "player": player,
                        "ref": ref,
                        "label": player_label(player),
                    }
                )
        return links


def _pk(value: object) -> object:
    return value.pk if isinstance(value, Player) else value


def _metric_choices() -> list[tuple[str, list[tuple[str, str]]]]:
    return [
        (gettext(group), [(name, gettext(METRICS_BY_NAME[name].label)) for name in names])
        for group, names in METRIC_GROUPS
    ]


class LeaderboardForm(forms.Form):
    metric = forms.ChoiceField(
        choices=_metric_choices, label=gettext_lazy("Ranked by"), required=False
    )
    min_games = forms.IntegerField(
        min_value=0,
        max_value=DB_INT_MAX,
        label=gettext_lazy("At least this many games"),
        required=False,
    )
    bots = forms.BooleanField(
        label=gettext_lazy("Include bots"),
        required=False,
        help_text=gettext_lazy("Self-play seats; anonymous seats (guests) are never ranked."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The game filters a leaderboard takes, as the statistics filter defines them (the
        # selector validates them again with it).
        for name in LEADERBOARD_FILTERS:
            self.fields[name] = StatsFilter().form.fields[name]

    def clean_metric(self) -> str:
        return self.cleaned_data.get("metric") or "average_placement"

    def clean_min_games(self) -> int:
        value = self.cleaned_data.get("min_games")
        return DEFAULT_MIN_GAMES if value is None else int(value)
