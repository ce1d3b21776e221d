"""Forms of the web pages: they validate what a page posts; the work is done by services."""

from __future__ import annotations

from typing import Any, ClassVar

from django import forms

from mjlogs.models import Visibility


class MultipleFileInput(forms.FileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.Field):
    """Any number of files (at least one when required), as uploaded: each file is judged by
    the import, which names what is wrong with it, not refused here."""

    widget = MultipleFileInput
    default_error_messages: ClassVar[dict[str, str]] = {
        "required": "Choose at least one file to upload."
    }

    def to_python(self, data: Any) -> list[Any]:
        if not data:
            return []
        return list(data) if isinstance(data, list | tuple) else [data]


class UploadForm(forms.Form):
    files = MultipleFileField(
        label="Game records",
        help_text="Tenhou mjlog XML, tenhou.net/6 JSON, mjai JSON lines or canonical JSON; "
        "gzip, zip and tar archives are opened.",
    )
    visibility = forms.ChoiceField(
        choices=Visibility.choices,
        initial=Visibility.PUBLIC,
        widget=forms.RadioSelect,
        label="Who may see the games",
    )


class VisibilityForm(forms.Form):
    visibility = forms.ChoiceField(choices=Visibility.choices, label="Visibility")
