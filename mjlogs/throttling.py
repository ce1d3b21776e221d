"""The rate limit of uploads: ``MJLOGS_UPLOAD_RATE`` upload requests per user.

The REST API's upload endpoint uses this throttle class too (cache key
``throttle_uploads_<user id>``), so a user has one budget for the page and the API together.
The history lives in Django's default cache: give several web processes a shared cache
(Redis) for the budget to be shared between them too.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from rest_framework.throttling import UserRateThrottle


class UploadRateThrottle(UserRateThrottle):
    scope = "uploads"

    def get_rate(self) -> str:
        # Read at each request, not once at import as DRF's THROTTLE_RATES is.
        return str(settings.MJLOGS_UPLOAD_RATE)


def upload_wait(request: HttpRequest) -> float | None:
    """Count this upload request against the user's rate; ``None`` when it may go ahead, else
    the seconds to wait before the next one is accepted. A refused request is not counted."""
    throttle = UploadRateThrottle()
    if throttle.allow_request(request, None):
        return None
    return throttle.wait() or 1.0
