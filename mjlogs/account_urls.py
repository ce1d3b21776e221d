"""The account pages: log in, log out, sign up. No ``app_name``: the names ``login``, ``logout``
and ``signup`` are global, as ``LOGIN_URL = "login"`` and Django's auth views expect.

Mounted by config/urls.py: ``path("accounts/", include("mjlogs.account_urls"))``.
"""

from django.contrib.auth import views as auth_views
from django.urls import path

from mjlogs.views import accounts

urlpatterns = [
    path(
        "login/",
        auth_views.LoginView.as_view(redirect_authenticated_user=True),
        name="login",
    ),
    # POST only (Django's LogoutView): the header's log-out button is a form.
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("signup/", accounts.signup, name="signup"),
]
