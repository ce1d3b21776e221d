"""Write paths for accounts: signing up, and obtaining and revoking an API token.

Services like those of ``services.py`` (HackSoft Django Styleguide): they take plain values,
validate them and do the work; the sign-up page and the token endpoint call them.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from rest_framework.authtoken.models import Token


def user_create(*, username: str, password: str, email: str = "") -> User:
    """Create an ordinary account (no staff rights). The email address is optional: without
    one, a forgotten password cannot be reset.

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
        manager = model._default_manager
        return manager.create_user(
            username=username, email=manager.normalize_email(email), password=password
        )


def token_obtain(*, user: User) -> Token:
    """The user's API token, made if they have none (one token per user: DRF's model)."""
    token, _ = Token.objects.get_or_create(user=user)
    return token


def token_revoke(*, token: Token) -> None:
    """Delete the token: requests that send it are refused from now on. The next
    :func:`token_obtain` makes a new one."""
    token.delete()
