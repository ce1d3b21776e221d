"""The account pages: log in, log out, sign up, change or reset a password. No ``app_name``: the
names (``login``, ``logout``, ``signup``, ``password_change``, ``password_reset``, ...) are
global, as ``LOGIN_URL = "login"`` and Django's auth views expect.

Mounted by config/urls.py: ``path("accounts/", include("mjlogs.account_urls"))``.
"""

from django.contrib.auth import views as auth_views
from django.urls import path

from mjlogs.views import accounts

urlpatterns = [
    path("login/", accounts.LoginView.as_view(), name="login"),
    # POST only (Django's LogoutView): the header's log-out button is a form.
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("signup/", accounts.signup, name="signup"),
    path("password/change/", accounts.PasswordChangeView.as_view(), name="password_change"),
    path(
        "password/change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("password/reset/", accounts.PasswordResetView.as_view(), name="password_reset"),
    path(
        "password/reset/done/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "password/reset/complete/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path(
        "password/reset/<uidb64>/<token>/",
        accounts.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
]
