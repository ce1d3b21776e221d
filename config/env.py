"""Read and check the settings that come from the environment.

Every function takes the raw value of one variable (``None`` when it is unset) and returns
the checked setting, or raises :class:`~django.core.exceptions.ImproperlyConfigured` with a
message that names the variable, shows the bad value (passwords masked) and says what is
accepted. ``config/settings.py`` only calls these functions, so a bad value stops the
process at start instead of failing on the first request, and every rule here can be unit
tested without reloading the settings module.

An empty (or blank) variable counts as unset, because that is what ``VAR=`` in a shell,
a compose file or an ``.env`` file usually means.

This module must not import ``django.conf.settings``: it runs while the settings load.
"""

from __future__ import annotations

from email.utils import parseaddr
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured, ValidationError
from django.core.validators import validate_email

TRUE_WORDS = frozenset({"1", "true", "yes"})
FALSE_WORDS = frozenset({"0", "false", "no"})

#: Database URL schemes we accept, and the Django backend each one selects.
DATABASE_SCHEMES = {
    "sqlite": "django.db.backends.sqlite3",
    "postgres": "django.db.backends.postgresql",
    "postgresql": "django.db.backends.postgresql",
}
#: Celery broker URL schemes we accept (Redis, or RabbitMQ through py-amqp).
BROKER_SCHEMES = ("redis", "rediss", "amqp", "amqps", "pyamqp")
#: Celery result backend URL schemes we accept.
RESULT_BACKEND_SCHEMES = ("redis", "rediss", "rpc")
#: Cache URL schemes we accept (Redis, through Django's own RedisCache and redis-py).
CACHE_SCHEMES = ("redis", "rediss")
#: Email URL schemes we accept, and whether each one wraps SMTP in TLS (STARTTLS) or SSL.
EMAIL_SCHEMES = {"smtp": (False, False), "smtp+tls": (True, False), "smtp+ssl": (False, True)}

#: How long (seconds) a PostgreSQL connection is kept open between requests.
POSTGRES_CONN_MAX_AGE = 60
#: How long (seconds) to wait for PostgreSQL to accept a connection, unless the URL says.
POSTGRES_CONNECT_TIMEOUT = 10
#: SQLite (the embedded default) under concurrent use: several uploads at once, pages read
#: during an import, tasks run in-process. WAL lets readers go on while one connection writes;
#: a write transaction takes the write lock when it begins (IMMEDIATE), so two writers queue on
#: the busy timeout instead of failing at once with "database is locked" when one of them
#: upgrades a read lock; and a writer waits up to ``timeout`` seconds for the lock.
SQLITE_OPTIONS: dict[str, Any] = {
    "timeout": 30,
    "transaction_mode": "IMMEDIATE",
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
}
#: How long (seconds) to wait for the cache's Redis to connect, or to answer a command: a
#: request fails in seconds when it is down, instead of hanging until the TCP timeout.
CACHE_SOCKET_TIMEOUT = 2

LOCAL_MEMORY_CACHE = "django.core.cache.backends.locmem.LocMemCache"
REDIS_CACHE = "django.core.cache.backends.redis.RedisCache"

_DATABASE_ACCEPTED = (
    "use postgres://USER:PASSWORD@HOST:PORT/DBNAME (PostgreSQL through psycopg 3) "
    "or sqlite:///relative/path.sqlite3 or sqlite:////absolute/path.sqlite3, "
    "or leave it unset for the SQLite file db.sqlite3 in the project directory"
)
_BROKER_ACCEPTED = (
    "use redis://HOST:6379/0 or rediss:// (Redis), or amqp://USER:PASSWORD@HOST:5672/VHOST, "
    "amqps:// or pyamqp:// (RabbitMQ), or leave it unset to run tasks eagerly in-process"
)
_RESULT_BACKEND_ACCEPTED = (
    "use redis://HOST:6379/1 or rediss:// (Redis) or rpc:// (RabbitMQ), "
    "or leave it unset to store no task results"
)
_CACHE_ACCEPTED = (
    "use redis://[:PASSWORD@]HOST:6379/2 or rediss:// (a Redis database that every web "
    "process shares), or leave it unset for a local-memory cache in each process"
)
_EMAIL_ACCEPTED = (
    "use smtp://[USER:PASSWORD@]HOST[:PORT], smtp+tls:// (STARTTLS, usually port 587) or "
    "smtp+ssl:// (usually port 465), with the user and password URL-encoded, or leave it unset "
    "to print mails on the console"
)


def _clean(value: str | None) -> str | None:
    """Return the value without surrounding blanks, or ``None`` when it is unset or blank."""
    if value is None:
        return None
    value = value.strip()
    return value or None


def mask_url(url: str) -> str:
    """Return ``url`` with its password replaced by ``***``, for error and log messages.

    A string that is not even a URL is returned unchanged: it has no password to hide.
    """
    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:
        # urlsplit rejects some malformed netlocs (such as an unclosed "[");
        # fall back to hiding whatever stands between ":" and "@" in the netloc.
        head, sep, rest = url.partition("://")
        userinfo, at, hostpart = rest.partition("@")
        if not (sep and at and ":" in userinfo):
            return url
        user = userinfo.split(":", 1)[0]
        return f"{head}://{user}:***@{hostpart}"
    if password is None:
        return url
    userinfo, _, hostpart = parts.netloc.rpartition("@")
    user = userinfo.split(":", 1)[0]
    return parts._replace(netloc=f"{user}:***@{hostpart}").geturl()


def _check_scheme(name: str, url: str, schemes: tuple[str, ...], accepted: str) -> str:
    """Check that ``url`` is a well-formed URL with one of ``schemes``; return the scheme.

    :raises ImproperlyConfigured: naming ``name``, the masked URL and ``accepted``.
    """
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - reading .port is what checks it
    except ValueError as exc:
        raise ImproperlyConfigured(
            f"{name}={mask_url(url)!r} is not a valid URL ({exc}); {accepted}."
        ) from exc
    scheme = parts.scheme.lower()
    if scheme in schemes and url.lower().startswith(f"{scheme}://"):
        return scheme
    if scheme in schemes:
        problem = f"is not a URL of the form {scheme}://..."
    elif scheme:
        problem = f"has the scheme {scheme!r}, which is not supported"
    else:
        problem = "is not a URL (it has no scheme such as postgres:// or redis://)"
    raise ImproperlyConfigured(f"{name}={mask_url(url)!r} {problem}; {accepted}.")


def env_bool(name: str, value: str | None, *, default: bool) -> bool:
    """Parse a boolean variable strictly.

    Accepts ``1``, ``true``, ``yes`` and ``0``, ``false``, ``no`` (any case, surrounding
    blanks ignored); unset or empty gives ``default``.

    :raises ImproperlyConfigured: for any other value, such as ``on`` or ``ture``.
    """
    cleaned = _clean(value)
    if cleaned is None:
        return default
    word = cleaned.lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(
        f"{name}={value!r} is not a boolean; use one of 1, true, yes or 0, false, no "
        f"(or leave it unset for the default, {str(default).lower()})."
    )


def env_int(name: str, value: str | None, *, default: int, minimum: int = 1) -> int:
    """Parse a whole number of at least ``minimum``; unset or empty gives ``default``.

    :raises ImproperlyConfigured: for anything else (``10MB``, ``-1``, ``1.5``).
    """
    cleaned = _clean(value)
    if cleaned is None:
        return default
    try:
        number = int(cleaned)
    except ValueError:
        number = minimum - 1
    if number < minimum:
        raise ImproperlyConfigured(
            f"{name}={value!r} is not a whole number of at least {minimum} "
            f"(or leave it unset for the default, {default})."
        )
    return number


def env_rate(name: str, value: str | None, *, default: str) -> str:
    """Parse a rate such as ``120/hour`` (a whole number per ``second``, ``minute``, ``hour`` or
    ``day``); unset or empty gives ``default``.

    :raises ImproperlyConfigured: for anything else.
    """
    cleaned = _clean(value)
    if cleaned is None:
        return default
    count, _, period = cleaned.partition("/")
    # ASCII digits only: str.isdigit() also takes "²", which int() refuses.
    digits = count.strip()
    if (
        digits.isascii()
        and digits.isdigit()
        and period.strip() in ("second", "minute", "hour", "day")
    ):
        return f"{int(count)}/{period.strip()}"
    raise ImproperlyConfigured(
        f"{name}={value!r} is not a rate; write it as a number per second, minute, hour or day, "
        f"such as {default} (or leave it unset for that default)."
    )


def env_list(value: str | None, *, default: list[str], name: str = "the variable") -> list[str]:
    """Parse a comma-separated list, dropping blanks around and between the items.

    Unset or empty gives a copy of ``default``.

    :raises ImproperlyConfigured: when the value is set but holds no item (such as ``,``).
    """
    cleaned = _clean(value)
    if cleaned is None:
        return list(default)
    items = [item.strip() for item in cleaned.split(",") if item.strip()]
    if not items:
        raise ImproperlyConfigured(
            f"{name}={value!r} lists nothing; give comma-separated values, or leave it unset."
        )
    return items


def env_choice(name: str, value: str | None, *, choices: tuple[str, ...], default: str) -> str:
    """Parse a variable that must be one of ``choices`` (compared case-insensitively).

    Returns the matching entry of ``choices``; unset or empty gives ``default``.

    :raises ImproperlyConfigured: when the value is not one of the choices.
    """
    cleaned = _clean(value)
    if cleaned is None:
        return default
    for choice in choices:
        if cleaned.lower() == choice.lower():
            return choice
    raise ImproperlyConfigured(
        f"{name}={value!r} is not accepted; use one of {', '.join(choices)} "
        f"(or leave it unset for {default})."
    )


def secret_key_from_env(value: str | None, *, debug: bool, dev_default: str) -> str:
    """Return the secret key: the variable's value, or ``dev_default`` in debug mode.

    :raises ImproperlyConfigured: when debug is off and the key is unset, or is the
        development default (which is public, so it signs nothing safely).
    """
    cleaned = _clean(value)
    if cleaned is None:
        if debug:
            return dev_default
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY is not set and DJANGO_DEBUG is false; set DJANGO_SECRET_KEY to "
            "a long random string (for example the output of "
            "`python -c 'import secrets; print(secrets.token_urlsafe(50))'`), "
            "or set DJANGO_DEBUG=true for local development."
        )
    if not debug and cleaned == dev_default:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY is the public development key and DJANGO_DEBUG is false; "
            "set DJANGO_SECRET_KEY to a long random string of your own."
        )
    if not debug and (len(cleaned) < 50 or len(set(cleaned)) < 5):
        # Django's own deployment check (security.W009) asks for the same.
        raise ImproperlyConfigured(
            f"DJANGO_SECRET_KEY is too weak ({len(cleaned)} characters) for DJANGO_DEBUG=false; "
            "use at least 50 characters with at least 5 different ones, for example the output "
            "of `python -c 'import secrets; print(secrets.token_urlsafe(50))'`."
        )
    return cleaned


def database_from_env(value: str | None, *, base_dir: Path) -> dict[str, Any]:
    """Return Django's ``DATABASES["default"]`` for the ``DATABASE_URL`` value.

    Unset gives the SQLite file ``db.sqlite3`` in ``base_dir``. Otherwise the URL is parsed
    with dj-database-url; only SQLite and PostgreSQL are accepted. A relative SQLite path
    (``sqlite:///name.sqlite3``) is taken relative to ``base_dir``, not the working
    directory. PostgreSQL connections (psycopg 3) are kept open for
    :data:`POSTGRES_CONN_MAX_AGE` seconds with health checks, and wait at most
    :data:`POSTGRES_CONNECT_TIMEOUT` seconds to connect unless the URL's
    ``?connect_timeout=`` says otherwise.

    :raises ImproperlyConfigured: for another scheme (mysql://, ...), a string that is
        not a URL, or a URL without a database name.
    """
    url = _clean(value)
    if url is None:
        return {
            "ENGINE": DATABASE_SCHEMES["sqlite"],
            "NAME": base_dir / "db.sqlite3",
            "OPTIONS": dict(SQLITE_OPTIONS),
        }

    scheme = _check_scheme("DATABASE_URL", url, tuple(DATABASE_SCHEMES), _DATABASE_ACCEPTED)

    is_postgres = DATABASE_SCHEMES[scheme] == "django.db.backends.postgresql"
    try:
        config: dict[str, Any] = dict(
            dj_database_url.parse(
                url,
                conn_max_age=POSTGRES_CONN_MAX_AGE if is_postgres else 0,
                conn_health_checks=is_postgres,
            )
        )
    except ValueError as exc:
        raise ImproperlyConfigured(
            f"DATABASE_URL={mask_url(url)!r} could not be parsed ({exc}); {_DATABASE_ACCEPTED}."
        ) from exc

    if not config.get("NAME"):
        raise ImproperlyConfigured(
            f"DATABASE_URL={mask_url(url)!r} names no database; {_DATABASE_ACCEPTED}."
        )
    if is_postgres:
        options = config.setdefault("OPTIONS", {})
        options.setdefault("connect_timeout", POSTGRES_CONNECT_TIMEOUT)
    else:
        if config["NAME"] != ":memory:" and not Path(config["NAME"]).is_absolute():
            config["NAME"] = base_dir / config["NAME"]
        config["OPTIONS"] = {**SQLITE_OPTIONS, **config.get("OPTIONS", {})}
    return config


def broker_from_env(value: str | None) -> str | None:
    """Return the Celery broker URL, or ``None`` (run tasks eagerly) when it is unset.

    :raises ImproperlyConfigured: unless the URL is Redis (``redis://``, ``rediss://``) or
        RabbitMQ (``amqp://``, ``amqps://``, ``pyamqp://``).
    """
    return _celery_url("CELERY_BROKER_URL", value, BROKER_SCHEMES, _BROKER_ACCEPTED)


def result_backend_from_env(value: str | None) -> str | None:
    """Return the Celery result backend URL, or ``None`` (keep no results) when unset.

    :raises ImproperlyConfigured: unless the URL is Redis (``redis://``, ``rediss://``) or
        ``rpc://`` (results sent back over the RabbitMQ broker).
    """
    return _celery_url(
        "CELERY_RESULT_BACKEND", value, RESULT_BACKEND_SCHEMES, _RESULT_BACKEND_ACCEPTED
    )


def _celery_url(
    name: str, value: str | None, schemes: tuple[str, ...], accepted: str
) -> str | None:
    url = _clean(value)
    if url is None:
        return None
    _check_scheme(name, url, schemes, accepted)
    return url


def url_scheme(url: str) -> str:
    """Return the lower-case scheme of ``url`` (for reports that must not show passwords)."""
    return url.partition("://")[0].lower()


def cache_from_env(value: str | None) -> dict[str, Any]:
    """Return Django's ``CACHES["default"]`` for the ``DJANGO_CACHE_URL`` value.

    Unset gives a local-memory cache, private to each process: right for one process, but
    several web processes (gunicorn's workers, several machines) then each count every rate
    limit on their own. A Redis URL gives Django's ``RedisCache``, which every process shares;
    its connections time out after :data:`CACHE_SOCKET_TIMEOUT` seconds.

    :raises ImproperlyConfigured: for another scheme (memcached://, ...), a string that is not
        a URL, a bad port, or a database that is not a number (``redis://host/two``).
    """
    url = _clean(value)
    if url is None:
        return {"BACKEND": LOCAL_MEMORY_CACHE}
    _check_scheme("DJANGO_CACHE_URL", url, CACHE_SCHEMES, _CACHE_ACCEPTED)
    path = urlsplit(url).path
    if path not in ("", "/") and not (path[1:].isascii() and path[1:].isdigit()):
        raise ImproperlyConfigured(
            f"DJANGO_CACHE_URL={mask_url(url)!r} names the Redis database {path!r}, which is "
            f"not a number; {_CACHE_ACCEPTED}."
        )
    return {
        "BACKEND": REDIS_CACHE,
        "LOCATION": url,
        "OPTIONS": {
            "socket_connect_timeout": CACHE_SOCKET_TIMEOUT,
            "socket_timeout": CACHE_SOCKET_TIMEOUT,
        },
    }


def email_from_env(value: str | None) -> dict[str, Any]:
    """Return the ``EMAIL_*`` settings for the ``DJANGO_EMAIL_URL`` value.

    Unset gives Django's console backend: mails (password resets) are printed on the
    process's output, which is right for development and wrong for a public site. A URL gives
    the SMTP backend: ``smtp://`` (plain, or the server's choice), ``smtp+tls://`` (STARTTLS)
    or ``smtp+ssl://`` (TLS from the start); the user and password are URL-decoded.

    :raises ImproperlyConfigured: for another scheme, a string that is not a URL, a bad port
        or a URL without a host.
    """
    url = _clean(value)
    if url is None:
        return {
            "EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend",
            # Django's defaults; the console backend reads none of them.
            "EMAIL_HOST": "localhost",
            "EMAIL_PORT": 25,
            "EMAIL_HOST_USER": "",
            "EMAIL_HOST_PASSWORD": "",
            "EMAIL_USE_TLS": False,
            "EMAIL_USE_SSL": False,
        }
    scheme = _check_scheme("DJANGO_EMAIL_URL", url, tuple(EMAIL_SCHEMES), _EMAIL_ACCEPTED)
    parts = urlsplit(url)
    if not parts.hostname:
        raise ImproperlyConfigured(
            f"DJANGO_EMAIL_URL={mask_url(url)!r} names no host; {_EMAIL_ACCEPTED}."
        )
    use_tls, use_ssl = EMAIL_SCHEMES[scheme]
    return {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": parts.hostname,
        "EMAIL_PORT": parts.port or (465 if use_ssl else 587 if use_tls else 25),
        "EMAIL_HOST_USER": unquote(parts.username or ""),
        "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
        "EMAIL_USE_TLS": use_tls,
        "EMAIL_USE_SSL": use_ssl,
    }


def email_address_from_env(name: str, value: str | None, *, default: str) -> str:
    """Return a sender address such as ``logs@example.org`` or ``Mahjong logs
    <logs@example.org>``; unset or empty gives ``default``.

    :raises ImproperlyConfigured: when the value holds no valid address.
    """
    cleaned = _clean(value)
    if cleaned is None:
        return default
    _, address = parseaddr(cleaned)
    try:
        validate_email(address)
    except ValidationError:
        raise ImproperlyConfigured(
            f"{name}={value!r} is not an email address; write it as logs@example.org or "
            f"'Mahjong logs <logs@example.org>' (or leave it unset for {default})."
        ) from None
    return cleaned
