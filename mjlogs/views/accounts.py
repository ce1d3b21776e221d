"""Signing up. (Logging in and out are Django's own views, see ``mjlogs.account_urls``.)"""

from __future__ import annotations

from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from mjlogs.accounts import user_create


@require_http_methods(["GET", "HEAD", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account, log its owner in and send them to the upload page."""
    form = UserCreationForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            user = user_create(
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password1"],
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            login(request, user)
            return redirect("mjlogs:upload")
    return render(request, "registration/signup.html", {"form": form})
