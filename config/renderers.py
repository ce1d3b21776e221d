"""DRF's browsable API page under the site's Content-Security-Policy."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from csp.constants import UNSAFE_INLINE
from rest_framework.renderers import BrowsableAPIRenderer


class PolicyBrowsableAPIRenderer(BrowsableAPIRenderer):
    """The browsable API (the HTML page a browser gets from an API URL), allowed the one inline
    style sheet DRF writes into it: Pygments' colours, when Pygments is installed. Its scripts
    are DRF's static files, so the policy's ``script-src 'self'`` stands."""

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> Any:
        response = (renderer_context or {}).get("response")
        if response is not None:
            # Read by django-csp's middleware, as its csp_update decorator would set it.
            response._csp_update = {"style-src": [UNSAFE_INLINE]}
        return super().render(data, accepted_media_type, renderer_context)
