"""The sign-up form: Django's, with an optional email address for password resets."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    # Generic in django-stubs only: subscripting it at run time would take
    # django_stubs_ext.monkeypatch(), which imports half of django.contrib into every process.
    SignupFormBase = UserCreationForm[User]
else:
    SignupFormBase = UserCreationForm


class SignupForm(SignupFormBase):
    email = forms.EmailField(
        required=False,
        label=_("Email (optional)"),
        help_text=_("Only used to reset a forgotten password; never shown to anyone."),
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")
