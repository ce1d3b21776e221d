"""The sign-up form: Django's, with an optional email address for password resets."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _


class SignupForm(UserCreationForm):
    email = forms.EmailField(
        required=False,
        label=_("Email (optional)"),
        help_text=_("Only used to reset a forgotten password; never shown to anyone."),
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")
