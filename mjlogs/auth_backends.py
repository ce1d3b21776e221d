"""The authentication backend: Django's ModelBackend behind the log-in throttle.

Every ``authenticate()`` call that comes with a request goes through it: the log-in page, the
API's token endpoint and the admin's log-in. An attempt from a client address or for an
account over its limit (``mjlogs.throttling.login_attempt``) is refused before the password
is hashed, which is the expensive part (about a second of CPU with Django's default hasher):
without the throttle, anyone could keep the web workers busy hashing. The refusal is noted on
the request, so that the page or the endpoint answers 429 with Retry-After instead of
"wrong password". Calls without a request (``Client.login`` in tests, management commands)
are not counted.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from mjlogs.throttling import LoginRefused, login_attempt, mark_refused


class ThrottledModelBackend(ModelBackend):
    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> User | None:
        if username is None:
            username = kwargs.get(get_user_model().USERNAME_FIELD)
        if request is None or username is None or password is None:
            return super().authenticate(request, username, password, **kwargs)
        try:
            attempt = login_attempt(request, str(username))
        except LoginRefused as refused:
            mark_refused(request, refused.wait)
            # Django's authenticate() stops at PermissionDenied: no other backend, no hash.
            raise PermissionDenied(str(refused)) from None
        user = super().authenticate(request, username, password, **kwargs)
        if user is not None:
            attempt.succeeded()
        return user
