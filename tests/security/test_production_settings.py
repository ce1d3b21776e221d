"""Production settings: ``manage.py check --deploy`` finds nothing to warn about under the
production environment of docs/deploy.md; with ``DJANGO_DEBUG=false`` cookies are secure and
HSTS is on by default, each with a variable to turn it off (a plain-HTTP test deployment); a
bad value stops the start.

Issue 20, finding 10 (see docs/security.md). Each test runs Python in a subprocess with a
controlled environment, because the settings are read once per process, while they load.
"""

from __future__ import annotations

import re

import pytest

from tests.config.processes import run

SECRET = "a-real-secret-" + "0123456789abcdefghij" * 3

#: The production environment of docs/deploy.md ("Environment"), with placeholders.
PRODUCTION = {
    "DJANGO_DEBUG": "false",
    "DJANGO_SECRET_KEY": SECRET,
    "DJANGO_ALLOWED_HOSTS": "logs.example.org",
    "DATABASE_URL": "postgres://app:pw@db.internal:5432/mjlogs",
    "CELERY_BROKER_URL": "redis://queue.internal:6379/0",
    "DJANGO_CACHE_URL": "redis://queue.internal:6379/2",
    "DJANGO_SECURE_SSL_REDIRECT": "true",
    "DJANGO_HSTS_SECONDS": "31536000",
    "DJANGO_HSTS_INCLUDE_SUBDOMAINS": "true",
    "DJANGO_HSTS_PRELOAD": "true",
    "DJANGO_NUM_PROXIES": "1",
    "DJANGO_EMAIL_URL": "smtp+tls://mailer:pw@smtp.example.org:587",
    "DJANGO_DEFAULT_FROM_EMAIL": "logs@example.org",
}

SHOW = (
    "import django; django.setup(); from django.conf import settings as s; "
    "print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_HSTS_SECONDS, "
    "s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_INCLUDE_SUBDOMAINS, s.SECURE_HSTS_PRELOAD)"
)


def test_check_deploy_finds_nothing_under_the_production_environment() -> None:
    # --fail-level WARNING: any warning at all fails the command, not only errors.
    result = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], **PRODUCTION)
    output = result.stdout + result.stderr
    assert re.findall(r"security\.W\d+", output) == []
    assert result.returncode == 0, output
    assert "System check identified no issues" in output


def test_the_defaults_without_debug_are_secure_but_do_not_redirect() -> None:
    result = run(
        ["-c", SHOW], DJANGO_DEBUG="false", DJANGO_SECRET_KEY=SECRET,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    # Secure cookies and HSTS (sent on HTTPS requests only); the redirect to HTTPS is the
    # TLS proxy's by default (docs/deploy.md), Django's when DJANGO_SECURE_SSL_REDIRECT=true.
    assert result.stdout.split() == ["True", "True", "31536000", "False", "False", "False"]


def test_plain_http_can_be_chosen_without_debug() -> None:
    result = run(
        ["-c", SHOW],
        DJANGO_DEBUG="false",
        DJANGO_SECRET_KEY=SECRET,
        DJANGO_SECURE_COOKIES="false",
        DJANGO_HSTS_SECONDS="0",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "False", "0", "False", "False", "False"]


def test_debug_keeps_plain_http() -> None:
    result = run(["-c", SHOW])
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "False", "0", "False", "False", "False"]


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DJANGO_HSTS_SECONDS": "a year"}, "DJANGO_HSTS_SECONDS='a year' is not a whole number"),
        ({"DJANGO_SECURE_COOKIES": "sure"}, "DJANGO_SECURE_COOKIES='sure' is not a boolean"),
        ({"DJANGO_SECURE_SSL_REDIRECT": "on"}, "DJANGO_SECURE_SSL_REDIRECT='on' is not a boolean"),
        ({"DJANGO_NUM_PROXIES": "-1"}, "DJANGO_NUM_PROXIES='-1' is not a whole number"),
        (
            {"DJANGO_EMAIL_URL": "sendmail://localhost"},
            "DJANGO_EMAIL_URL='sendmail://localhost' has the scheme 'sendmail'",
        ),
        (
            {"MJLOGS_LOGIN_FAILURES_PER_IP": "0"},
            "MJLOGS_LOGIN_FAILURES_PER_IP='0' is not a whole number of at least 1",
        ),
        ({"MJLOGS_SIGNUP_RATE": "lots"}, "MJLOGS_SIGNUP_RATE='lots' is not a rate"),
    ],
)
def test_a_bad_value_stops_the_start(env: dict[str, str], message: str) -> None:
    result = run(["-c", "import django; django.setup()"], **env)
    assert result.returncode != 0
    assert f"ImproperlyConfigured: {message}" in result.stderr


def test_email_settings_come_from_one_url() -> None:
    show = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.EMAIL_BACKEND, s.EMAIL_HOST, s.EMAIL_PORT, s.EMAIL_HOST_USER, "
        "s.EMAIL_HOST_PASSWORD, s.EMAIL_USE_TLS, s.EMAIL_USE_SSL, s.DEFAULT_FROM_EMAIL)"
    )
    default = run(["-c", show])
    assert default.stdout.split()[0] == "django.core.mail.backends.console.EmailBackend"
    smtp = run(
        ["-c", show],
        DJANGO_EMAIL_URL="smtp+tls://mailer:p%40ss@smtp.example.org:587",
        DJANGO_DEFAULT_FROM_EMAIL="logs@example.org",
    )
    assert smtp.returncode == 0, smtp.stderr
    assert smtp.stdout.split() == [
        "django.core.mail.backends.smtp.EmailBackend",
        "smtp.example.org",
        "587",
        "mailer",
        "p@ss",
        "True",
        "False",
        "logs@example.org",
    ]
