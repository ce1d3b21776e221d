"""Write paths for accounts: signing up.

A service like those of ``services.py`` (HackSoft Django Styleguide): it takes plain values,
validates them and does the work; the sign-up page calls it.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction


def user_create(*, username: str, password: str) -> AbstractBaseUser:
    """Create an ordinary account (no staff rights).

    :raises ValidationError: the name is taken (in any letter case) or the password is refused
        by the password validators (``AUTH_PASSWORD_VALIDATORS``).
    """
    model = get_user_model()
    username = model.normalize_username(username.strip())
    if not username:
        raise ValidationError({"username": "a user name is required"})
    if model._default_manager.filter(username__iexact=username).exists():
        raise ValidationError({"username": "a user with that user name already exists"})
    validate_password(password, model(username=username))
    with transaction.atomic():
        return model._default_manager.create_user(username=username, password=password)
