"""Forms of the web pages: they validate what a page posts; the work is done by services."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from django import forms
from django.conf import settings
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from engine.rules.modifiers import MODIFIERS, registered_choices
from mjlogs.models import Visibility

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


class MultipleFileInput(forms.FileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.Field):
    """Any number of files (at least one when required), as uploaded: each file is judged by
    the import, which names what is wrong with it, not refused here."""

    widget = MultipleFileInput
    default_error_messages: ClassVar[dict[str, StrOrPromise]] = {
        "required": _("Choose at least one file to upload.")
    }

    def to_python(self, data: Any) -> list[Any]:
        if not data:
            return []
        return list(data) if isinstance(data, list | tuple) else [data]


class UploadForm(forms.Form):
    # A declared field, which the form's metaclass takes off the class: the stubs see it
    # replace the form's own files (the uploaded files, BaseForm.files), which it does not.
    files = MultipleFileField(  # type: ignore[assignment]
        label=_("Game records"),
        help_text=_(
            "Tenhou mjlog XML, tenhou.net/6 JSON, mjai JSON lines or canonical JSON; "
            "gzip, zip and tar archives are opened."
        ),
    )
    visibility = forms.ChoiceField(
        choices=Visibility.choices,
        initial=Visibility.PUBLIC,
        widget=forms.RadioSelect,
        label=_("Who may see the games"),
    )
    modifiers = forms.MultipleChoiceField(
        choices=registered_choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=_("Superpowers (rule modifiers) the games were played with"),
        help_text=_(
            "For records that cannot say so (tenhou.net/6, mjai, mjlog); a canonical "
            "record states its own. Our own example powers: docs/rules.md."
        ),
    )

    on_workers = forms.BooleanField(
        required=False,
        label=_("Let the workers import them"),
        help_text=format_lazy(
            _(
                "For many games at once, best in a zip or tar archive (one upload takes at most "
                "{count} files): the files are queued, and a page follows the workers as they "
                "store and check the games, a batch at a time (not all or nothing)."
            ),
            count=settings.DATA_UPLOAD_MAX_NUMBER_FILES,
        ),
    )

    def clean_modifiers(self) -> tuple[str, ...]:
        """The chosen modifiers, in the order they are registered (the order of a rule set's
        ``modifiers``)."""
        chosen = set(self.cleaned_data["modifiers"])
        return tuple(name for name in MODIFIERS if name in chosen)


class VisibilityForm(forms.Form):
    visibility = forms.ChoiceField(choices=Visibility.choices, label=_("Visibility"))
