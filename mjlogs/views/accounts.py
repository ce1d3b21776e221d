"""The account pages: sign up, log in, change or reset a password. (Logging out is Django's own
view, see ``mjlogs.account_urls``.)

Each page that takes a password or creates something is throttled (``mjlogs.throttling``): a
refused request gets the page again with status 429, ``Retry-After`` and a message saying
when to try again, and the refusal says nothing about whether an account exists.
"""

from __future__ import annotations

import math
from typing import Any

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import (
    AuthenticationForm,
    PasswordChangeForm,
    PasswordResetForm,
    SetPasswordForm,
)
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods

from mjlogs.account_forms import SignupForm
from mjlogs.accounts import user_create
from mjlogs.throttling import (
    LoginAttempt,
    LoginRefused,
    forget_account_failures,
    login_attempt,
    rate_wait,
    refused_wait,
)


def in_words(seconds: float) -> str:
    """``"about 15 minutes"``, ``"1 minute"``, ``"40 seconds"``: how long to wait."""
    if seconds < 60:
        count = max(1, math.ceil(seconds))
        return ngettext("%(count)s second", "%(count)s seconds", count) % {"count": count}
    minutes = math.ceil(seconds / 60)
    return ngettext("%(count)s minute", "%(count)s minutes", minutes) % {"count": minutes}


def refused(response: HttpResponse, wait: float) -> HttpResponse:
    """``response`` as a 429 answer, with ``Retry-After``."""
    response.status_code = 429
    response["Retry-After"] = str(math.ceil(wait))
    return response


@require_http_methods(["GET", "HEAD", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account, log its owner in and send them to the upload page.

    Every sign-up request counts against ``MJLOGS_SIGNUP_RATE`` for its client address, before
    the form is read: that bounds how many user names an address can find taken (the form must
    say so, the name being the account's public handle) and how many accounts it can make.
    """
    if request.method == "POST":
        wait = rate_wait(request, "signup", settings.MJLOGS_SIGNUP_RATE)
        if wait is not None:
            form = SignupForm(initial={"username": request.POST.get("username", "")})
            message = gettext("Too many sign-ups from your network. Try again in %(wait)s.") % {
                "wait": in_words(wait)
            }
            page = render(request, "registration/signup.html", {"form": form, "refused": message})
            return refused(page, wait)
    form = SignupForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            user = user_create(
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password1"],
                email=form.cleaned_data["email"],
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            login(request, user)
            return redirect("mjlogs:upload")
    return render(request, "registration/signup.html", {"form": form})


class LoginView(auth_views.LoginView):
    """Django's log-in page. An attempt the log-in throttle refused (``mjlogs.auth_backends``)
    gets the page again, empty but for the name, with status 429 and ``Retry-After``."""

    redirect_authenticated_user = True

    def form_invalid(self, form: AuthenticationForm) -> HttpResponse:
        wait = refused_wait(self.request)
        if wait is None:
            return super().form_invalid(form)
        fresh = self.get_form_class()(
            self.request, initial={"username": form.data.get("username", "")}
        )
        message = gettext("Too many failed log-in attempts. Try again in %(wait)s.") % {
            "wait": in_words(wait)
        }
        page = self.render_to_response(self.get_context_data(form=fresh, refused=message))
        return refused(page, wait)


class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's password change page. The current password is checked as a log-in is, so a
    wrong one counts as a failed log-in of the account from the client's address (a stolen
    session cannot be used to guess it at leisure)."""

    attempt: LoginAttempt | None = None

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        user = request.user
        assert user.is_authenticated  # (Django's view is for logged-in users only)
        try:
            self.attempt = login_attempt(request, user.get_username())
        except LoginRefused as error:
            form = PasswordChangeForm(user)
            message = gettext("Too many wrong passwords. Try again in %(wait)s.") % {
                "wait": in_words(error.wait)
            }
            page = self.render_to_response(self.get_context_data(form=form, refused=message))
            return refused(page, error.wait)
        return super().post(request, *args, **kwargs)

    def form_valid(self, form: PasswordChangeForm) -> HttpResponse:
        if self.attempt is not None:
            self.attempt.succeeded()
        return super().form_valid(form)

    def form_invalid(self, form: PasswordChangeForm) -> HttpResponse:
        if self.attempt is not None and "old_password" not in form.errors:
            self.attempt.succeeded()  # the password was right; the new one was refused
        return super().form_invalid(form)


class PasswordResetView(auth_views.PasswordResetView):
    """Django's password reset request: mails a link to the accounts with that address, and
    answers the same whether there are any or not. ``MJLOGS_PASSWORD_RESET_RATE`` requests per
    client address, so that the page cannot be used to flood someone's mailbox."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        wait = rate_wait(request, "password-reset", settings.MJLOGS_PASSWORD_RESET_RATE)
        if wait is None:
            return super().post(request, *args, **kwargs)
        message = gettext("Too many reset requests from your network. Try again in %(wait)s.") % {
            "wait": in_words(wait)
        }
        page = self.render_to_response(
            self.get_context_data(form=PasswordResetForm(), refused=message)
        )
        return refused(page, wait)


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Django's new-password page of a reset link. Once the new password is set, the
    account's failed log-ins are forgotten: its owner proved who they are through their mail,
    and may log in at once even if someone had locked the account by guessing."""

    def form_valid(self, form: SetPasswordForm[User]) -> HttpResponse:
        response = super().form_valid(form)
        if self.user is not None:
            forget_account_failures(self.user.get_username())
        return response
