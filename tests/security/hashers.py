"""A password hasher that counts its work, so a test can tell whether a log-in attempt reached
the password hash (the CPU a refused attempt must not cost) or was refused before it."""

from __future__ import annotations

from typing import Any, ClassVar

from django.contrib.auth.hashers import MD5PasswordHasher


class CountingHasher(MD5PasswordHasher):
    """MD5 (fast, for tests) that records each hash it computes: ``verify`` for an account's
    password, ``encode`` also for the dummy hash Django's ModelBackend computes for an unknown
    user name (so that a missing account takes as long as a wrong password)."""

    calls: ClassVar[list[str]] = []
    _verifying = False

    def encode(self, password: str, salt: str, *args: Any, **kwargs: Any) -> str:
        if not self._verifying:  # MD5's verify encodes: one hash, counted once
            self.calls.append("encode")
        return super().encode(password, salt, *args, **kwargs)

    def verify(self, password: str, encoded: str) -> bool:
        self.calls.append("verify")
        self._verifying = True
        try:
            return super().verify(password, encoded)
        finally:
            self._verifying = False
