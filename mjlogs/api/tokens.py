"""``/api/auth/token/``: POST a user name and password for the account's API token; DELETE,
sending the token, to revoke it (docs/api.md)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import Throttled, ValidationError
from rest_framework.permissions import AllowAny, BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from config.openapi import ERROR_COMPONENT
from mjlogs.accounts import token_obtain, token_revoke
from mjlogs.throttling import refused_wait

_ERROR = {"$ref": f"#/components/schemas/{ERROR_COMPONENT}"}


class AuthTokenView(ObtainAuthToken):
    """POST: the account's token, made on first use (one per account). The log-in throttle
    applies (``mjlogs.auth_backends``): over its limits the answer is 429 with Retry-After,
    before the password is checked. DELETE: revoke the token the request is authenticated
    with (204); the next POST makes a new one."""

    # Only the token: a browser's session neither needs nor may revoke a script's token.
    authentication_classes = (TokenAuthentication,)

    def get_permissions(self) -> list[BasePermission]:
        if self.request.method == "DELETE":
            return [IsAuthenticated()]
        return [AllowAny()]

    @extend_schema(
        summary="Obtain the account's API token",
        description=(
            "Send the account's user name and password; the answer holds its token, made on "
            "first use (one per account). Send it as `Authorization: Token <token>`. Failed "
            "attempts are limited per client address and per account: over the limits the "
            "answer is 429, with Retry-After, until the window ends."
        ),
        responses={
            200: ObtainAuthToken.serializer_class,
            400: OpenApiResponse(response=_ERROR, description="Wrong name or password."),
            429: OpenApiResponse(
                response=_ERROR,
                description=(
                    "Too many failed log-ins from this address or for this account; "
                    "Retry-After says when to try again."
                ),
            ),
        },
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        serializer = self.get_serializer(data=request.data)
        if not serializer.is_valid():
            wait = refused_wait(request)
            if wait is not None:
                raise Throttled(wait=wait)
            raise ValidationError(serializer.errors)
        token = token_obtain(user=serializer.validated_data["user"])
        return Response({"token": token.key})

    @extend_schema(
        summary="Revoke the API token",
        description=(
            "Authenticated with the token to revoke: it is deleted, and refused from now on. "
            "A new POST makes a new one."
        ),
        request=None,
        responses={204: OpenApiResponse(description="The token is revoked.")},
    )
    def delete(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        assert isinstance(request.auth, Token)  # TokenAuthentication, IsAuthenticated
        token_revoke(token=request.auth)
        return Response(status=status.HTTP_204_NO_CONTENT)
