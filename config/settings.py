"""Django settings, read entirely from the environment.

With no environment at all the project runs for local development: debug on, SQLite in
``db.sqlite3`` beside ``manage.py``, and Celery tasks run eagerly in the calling process.
Production sets at least ``DJANGO_DEBUG=false``, ``DJANGO_SECRET_KEY``,
``DJANGO_ALLOWED_HOSTS``, ``DATABASE_URL`` and ``CELERY_BROKER_URL``.

Every variable is checked by a function in :mod:`config.env`; a bad value raises
``ImproperlyConfigured`` here, so the process refuses to start instead of failing later.
An empty variable counts as unset. See the README for the list of variables.
"""

import os
from pathlib import Path

from csp.constants import NONE, SELF, UNSAFE_INLINE
from django.core.exceptions import ImproperlyConfigured

from config.env import (
    broker_from_env,
    cache_from_env,
    database_from_env,
    email_address_from_env,
    email_from_env,
    env_bool,
    env_choice,
    env_int,
    env_list,
    env_rate,
    result_backend_from_env,
    secret_key_from_env,
)

BASE_DIR = Path(__file__).resolve().parent.parent

# --- Core -----------------------------------------------------------------------------------

DEBUG = env_bool("DJANGO_DEBUG", os.getenv("DJANGO_DEBUG"), default=True)

# Public on purpose: it is only ever used when DEBUG is on (env.secret_key_from_env refuses
# it otherwise), so anything it signs is throwaway development data.
DEV_SECRET_KEY = "django-insecure-mjlogs-development-key-never-use-in-production"
SECRET_KEY = secret_key_from_env(
    os.getenv("DJANGO_SECRET_KEY"), debug=DEBUG, dev_default=DEV_SECRET_KEY
)

ALLOWED_HOSTS = env_list(
    os.getenv("DJANGO_ALLOWED_HOSTS"),
    default=["localhost", "127.0.0.1", "[::1]", "testserver"],
    name="DJANGO_ALLOWED_HOSTS",
)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "mjlogs.apps.MjlogsConfig",
    "replay.apps.ReplayConfig",
    "stats.apps.StatsConfig",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Compresses answers for clients that accept gzip: a round's frames are 100-500 KB of
    # repetitive JSON and 3-20 KB compressed (benchmarks/frames_size.py). Django's adds random
    # padding against BREACH. Before anything else that reads or writes the body.
    "django.middleware.gzip.GZipMiddleware",
    # The Content-Security-Policy header of every answer (CONTENT_SECURITY_POLICY below).
    "csp.middleware.CSPMiddleware",
    "config.middleware.RefuseNulInQueryMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language of each answer (English or Japanese, LANGUAGES below): the one chosen with
    # the header's switch (the django_language cookie), else the browser's Accept-Language.
    # After the sessions, before CommonMiddleware; URLs carry no language prefix, so a link to
    # any moment of a replay is the same in both languages.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # A page's refusal (mjlogs.errors.ServiceError) that its view lets through: its message
    # on the error page, with its status.
    "mjlogs.errors.ServiceErrorMiddleware",
    # Last, so its process_exception sees a view's database error first.
    "config.middleware.DatabaseUnavailableMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                # LANGUAGE_CODE for <html lang> (which the replay viewer reads) and the switch.
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database and cache ---------------------------------------------------------------------

DATABASES = {"default": database_from_env(os.getenv("DATABASE_URL"), base_dir=BASE_DIR)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Every rate limit (uploads, log-in, sign-up, password resets: mjlogs/throttling.py) counts in
# this cache. Unset, each process has its own local-memory cache, and with several web
# processes each would let the whole budget through: production names a Redis database here.
CACHES = {"default": cache_from_env(os.getenv("DJANGO_CACHE_URL"))}

# --- HTTPS, cookies, Content-Security-Policy --------------------------------------------------
# With DJANGO_DEBUG=false cookies are sent over HTTPS only and HSTS is on (SecurityMiddleware
# sends it on HTTPS answers only); each can be turned off for a plain-HTTP test deployment.
# Redirecting http:// to https:// is the TLS proxy's job in docs/deploy.md, and Django's too
# with DJANGO_SECURE_SSL_REDIRECT=true (off by default: a plain-HTTP deployment would answer
# every request with a redirect to a port nothing listens on).

SECURE_SSL_REDIRECT = env_bool(
    "DJANGO_SECURE_SSL_REDIRECT", os.getenv("DJANGO_SECURE_SSL_REDIRECT"), default=False
)
SECURE_HSTS_SECONDS = env_int(
    "DJANGO_HSTS_SECONDS",
    os.getenv("DJANGO_HSTS_SECONDS"),
    default=0 if DEBUG else 365 * 24 * 3600,
    minimum=0,
)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool(
    "DJANGO_HSTS_INCLUDE_SUBDOMAINS", os.getenv("DJANGO_HSTS_INCLUDE_SUBDOMAINS"), default=False
)
SECURE_HSTS_PRELOAD = env_bool(
    "DJANGO_HSTS_PRELOAD", os.getenv("DJANGO_HSTS_PRELOAD"), default=False
)
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = env_bool(
    "DJANGO_SECURE_COOKIES", os.getenv("DJANGO_SECURE_COOKIES"), default=not DEBUG
)

# No inline script anywhere (templates load theirs from static files), no eval, no plug-ins,
# no framing; the API's Swagger UI and ReDoc pages add inline styles (config/api.py). Inline
# style *attributes* are allowed (a bar's length on the statistics page is one): they cannot
# run script, and style-src-attr keeps <style> elements and style sheets to our own.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "style-src-attr": [UNSAFE_INLINE],
        # The viewer's tiles draw some pictures from data: URLs (they cannot run script).
        "img-src": [SELF, "data:"],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

# --- Passwords, time, static files ----------------------------------------------------------

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# The site's languages (docs/development.md "Translations"): English, the default and the
# language of the source strings, and Japanese (locale/ja/LC_MESSAGES/django.po, compiled to
# the django.mo beside it, which is kept in the repository).
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("ja", "日本語")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# Where `manage.py collectstatic` gathers the apps' static files for a web server to serve.
STATIC_ROOT = Path(os.getenv("DJANGO_STATIC_ROOT") or BASE_DIR / "staticfiles")

# --- Accounts -------------------------------------------------------------------------------

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "mjlogs:game_list"
LOGOUT_REDIRECT_URL = "mjlogs:home"

# Django's ModelBackend behind the log-in throttle: every authenticate() with a request (the
# log-in page, the API token, the admin) is counted, and refused before the password is hashed.
AUTHENTICATION_BACKENDS = ["mjlogs.auth_backends.ThrottledModelBackend"]
# Failed log-ins allowed per client address, and per account from all addresses together, in
# a window of MJLOGS_LOGIN_WINDOW seconds; then refused (429) until the window ends. One
# address is stopped long before it could lock an account (see docs/security.md).
MJLOGS_LOGIN_FAILURES_PER_IP = env_int(
    "MJLOGS_LOGIN_FAILURES_PER_IP", os.getenv("MJLOGS_LOGIN_FAILURES_PER_IP"), default=10
)
MJLOGS_LOGIN_FAILURES_PER_ACCOUNT = env_int(
    "MJLOGS_LOGIN_FAILURES_PER_ACCOUNT",
    os.getenv("MJLOGS_LOGIN_FAILURES_PER_ACCOUNT"),
    default=30,
)
MJLOGS_LOGIN_WINDOW = env_int(
    "MJLOGS_LOGIN_WINDOW", os.getenv("MJLOGS_LOGIN_WINDOW"), default=15 * 60
)
# Sign-up and password-reset requests per client address (every one counts).
MJLOGS_SIGNUP_RATE = env_rate(
    "MJLOGS_SIGNUP_RATE", os.getenv("MJLOGS_SIGNUP_RATE"), default="10/hour"
)
MJLOGS_PASSWORD_RESET_RATE = env_rate(
    "MJLOGS_PASSWORD_RESET_RATE", os.getenv("MJLOGS_PASSWORD_RESET_RATE"), default="5/hour"
)

# Password-reset mails: printed on the console unless DJANGO_EMAIL_URL names an SMTP server.
_email = email_from_env(os.getenv("DJANGO_EMAIL_URL"))
EMAIL_BACKEND = _email["EMAIL_BACKEND"]
EMAIL_HOST = _email["EMAIL_HOST"]
EMAIL_PORT = _email["EMAIL_PORT"]
EMAIL_HOST_USER = _email["EMAIL_HOST_USER"]
EMAIL_HOST_PASSWORD = _email["EMAIL_HOST_PASSWORD"]
EMAIL_USE_TLS = _email["EMAIL_USE_TLS"]
EMAIL_USE_SSL = _email["EMAIL_USE_SSL"]
# Seconds to wait for the SMTP server, so a reset request does not hang a web worker.
EMAIL_TIMEOUT = 10
DEFAULT_FROM_EMAIL = email_address_from_env(
    "DJANGO_DEFAULT_FROM_EMAIL",
    os.getenv("DJANGO_DEFAULT_FROM_EMAIL"),
    default="webmaster@localhost",
)

# --- Uploads --------------------------------------------------------------------------------
# One upload request (all its files together) is refused with 413 above this size, before its
# body is read. Archives are further bounded member by member (mjlogs.archives.Limits).
MJLOGS_MAX_UPLOAD_BYTES = env_int(
    "MJLOGS_MAX_UPLOAD_BYTES", os.getenv("MJLOGS_MAX_UPLOAD_BYTES"), default=64 * 1024 * 1024
)
# Uploads per user: the REST API's and the upload page's throttle (DRF's rate syntax).
MJLOGS_UPLOAD_RATE = env_rate(
    "MJLOGS_UPLOAD_RATE", os.getenv("MJLOGS_UPLOAD_RATE"), default="120/hour"
)
# Above this, an uploaded file is spooled to a temporary file instead of kept in memory.
FILE_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024

# --- Games brought in by their Tenhou link (mjlogs/log_fetch.py, docs/api.md) ----------------
# Where a Tenhou log is fetched from: {log_id} is replaced by the game's log id.
MJLOGS_TENHOU_LOG_URL = (
    os.getenv("MJLOGS_TENHOU_LOG_URL") or "https://tenhou.net/0/log/?{log_id}"
).strip()
try:
    _log_url_ok = MJLOGS_TENHOU_LOG_URL.format(log_id="x") != MJLOGS_TENHOU_LOG_URL
except (KeyError, IndexError, ValueError):
    _log_url_ok = False
if not _log_url_ok or not MJLOGS_TENHOU_LOG_URL.lower().startswith(("http://", "https://")):
    raise ImproperlyConfigured(
        f"MJLOGS_TENHOU_LOG_URL={MJLOGS_TENHOU_LOG_URL!r} is not an http:// or https:// URL "
        "with {log_id} where the log id goes, and no other braces "
        "(or leave it unset for the default, https://tenhou.net/0/log/?{log_id})."
    )
# Seconds for a whole request to the log server: connecting, the answer's headers and body.
MJLOGS_FETCH_TIMEOUT = env_int(
    "MJLOGS_FETCH_TIMEOUT", os.getenv("MJLOGS_FETCH_TIMEOUT"), default=10
)
# Seconds between the starts of two requests to one log server, from all processes together
# (counted in the cache, like the rate limits).
MJLOGS_FETCH_MIN_INTERVAL = env_int(
    "MJLOGS_FETCH_MIN_INTERVAL", os.getenv("MJLOGS_FETCH_MIN_INTERVAL"), default=2, minimum=0
)
# Requests for one log before giving up on a server that fails (5xx, 429, no answer).
MJLOGS_FETCH_ATTEMPTS = env_int(
    "MJLOGS_FETCH_ATTEMPTS", os.getenv("MJLOGS_FETCH_ATTEMPTS"), default=3
)
# Link imports one user may have waiting (queued or being fetched) at once: the next is
# refused (429) until one of them ends, so that one user's requests cannot fill the fetch queue.
MJLOGS_FETCH_PENDING_PER_USER = env_int(
    "MJLOGS_FETCH_PENDING_PER_USER", os.getenv("MJLOGS_FETCH_PENDING_PER_USER"), default=10
)

# --- REST API -------------------------------------------------------------------------------

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        # DRF's browsable API, allowed its inline style sheet by the Content-Security-Policy.
        "config.renderers.PolicyBrowsableAPIRenderer",
    ],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "mjlogs.pagination.CappedPageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # Every service's refusal (mjlogs.errors.ServiceError) answered with its status and body.
    "EXCEPTION_HANDLER": "mjlogs.errors.api_exception_handler",
    # How many proxies of ours stand in front of the site, each adding the address it got the
    # request from to X-Forwarded-For: the client's address, which the throttles count by, is
    # the one the outermost of them saw. 0 (no proxy): REMOTE_ADDR, and X-Forwarded-For, which
    # anyone can write, is ignored.
    "NUM_PROXIES": env_int(
        "DJANGO_NUM_PROXIES", os.getenv("DJANGO_NUM_PROXIES"), default=0, minimum=0
    ),
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Mahjong logs API",
    "DESCRIPTION": (
        "Upload, verify, browse and export mahjong game records. Read endpoints are open; "
        "uploading and managing games need an account (token or session). See docs/api.md."
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Request bodies get their own components, which say what a request may not leave blank.
    "COMPONENT_SPLIT_REQUEST": True,
    # The error answers of every operation (400, 401, 403, 404): config/openapi.py.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "config.openapi.document_errors",
    ],
}

# --- Celery ---------------------------------------------------------------------------------
# Read by config/celery.py through the CELERY_ namespace. Without a broker, tasks run eagerly
# in the calling process (and errors propagate), so nothing but Python is needed to run the
# site or the tests; with one, any number of workers on any number of machines share the work.

CELERY_BROKER_URL = broker_from_env(os.getenv("CELERY_BROKER_URL"))
CELERY_TASK_ALWAYS_EAGER = CELERY_BROKER_URL is None
CELERY_TASK_EAGER_PROPAGATES = CELERY_TASK_ALWAYS_EAGER
if CELERY_BROKER_URL is None:
    CELERY_BROKER_URL = "memory://"
CELERY_RESULT_BACKEND = result_backend_from_env(os.getenv("CELERY_RESULT_BACKEND"))

# Tasks are idempotent (see docs/development.md), so a task whose worker dies is safely
# delivered again: acknowledge only after it finished, and take one task at a time.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A task running when the connection to the broker is lost carries on (Celery 6 will cancel it
# by default): its work is kept even when its message is lost with a broker that keeps
# nothing across a restart, and a message that survives is only run again, harmlessly.
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = False
# Redis only: a task taken by a worker that then vanished as a whole (killed, its machine gone)
# goes back to the queue this many seconds after it was taken (RabbitMQ redelivers when the
# connection drops instead). Longer than any task runs, or a slow task is run twice: harmless,
# the tasks being idempotent, but wasted. See docs/faults.md.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env_int(
        "CELERY_VISIBILITY_TIMEOUT", os.getenv("CELERY_VISIBILITY_TIMEOUT"), default=3600
    ),
}
# Queues. The link fetches (mjlogs.tasks.import_tenhou_link) have one of their own, `fetch`:
# a fetch waits its turn for Tenhou's log server (mjlogs.log_fetch.wait_turn), so on the queue
# of the verifications one user's links would hold the workers that verify everyone's uploads.
# Every other task goes to `celery`. A worker started without -Q takes both; docs/deploy.md
# runs the two apart (`-Q celery`, `-Q fetch`).
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_QUEUES = {
    name: {"exchange": name, "exchange_type": "direct", "routing_key": name}
    for name in ("celery", "fetch")
}
CELERY_TASK_ROUTES = {"mjlogs.tasks.import_tenhou_link": {"queue": "fetch"}}
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Seconds between the starts of two statistics catch-ups of one kind (stats.catch_up): a
# burst of verifications is caught up at most this often, each pass covering every game verified
# since the last. Shorter keeps the summaries fresher during a bulk import (the statistics are
# right either way: a player whose summary is behind is read from the rows), longer leaves more
# of the workers to the verifications.
STATS_CATCH_UP_INTERVAL = env_int(
    "STATS_CATCH_UP_INTERVAL", os.getenv("STATS_CATCH_UP_INTERVAL"), default=60, minimum=0
)

# --- Logging --------------------------------------------------------------------------------

LOG_LEVEL = env_choice(
    "DJANGO_LOG_LEVEL",
    os.getenv("DJANGO_LOG_LEVEL"),
    choices=("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"),
    default="INFO",
)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "console": {"format": "{asctime} {levelname} {name}: {message}", "style": "{"},
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "console"},
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        # Django's own loggers propagate to the root handler; keep its chatter at INFO+.
        "django": {"level": "INFO" if LOG_LEVEL == "DEBUG" else LOG_LEVEL},
    },
}
