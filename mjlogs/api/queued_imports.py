"""REST endpoints for uploads the workers import (docs/api.md, "Uploads the workers import"):
the files are queued at once and the answer is 202 with the queued import, whose URL says
how far the workers are. Thin: validate, call one service or read, serialize."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.exceptions import APIException, ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle

from config.limits import DB_INT_MAX, parse_int
from mjlogs.api.serializers import UploadOptionsSerializer
from mjlogs.api.views import (
    UPLOAD_REFUSALS,
    UPLOAD_REQUEST_BODY,
    UploadRequest,
    error_response,
)
from mjlogs.models import QueuedImport
from mjlogs.queued_imports import QueueUnavailable, queued_import_create
from mjlogs.selectors import queued_imports_of
from mjlogs.throttling import UploadRateThrottle


class QueuedProblemSerializer(serializers.Serializer[dict[str, Any]]):
    file = serializers.CharField()
    status = serializers.ChoiceField(choices=("failed", "skipped"))
    error = serializers.CharField()


class QueuedImportSerializer(serializers.ModelSerializer[QueuedImport]):
    """A queued upload: its files, how many the workers have imported, and what became of
    them so far (``finished`` once every file is)."""

    url = serializers.HyperlinkedIdentityField(view_name="api:queued-import-detail")
    modifiers = serializers.ListField(child=serializers.CharField(), read_only=True)
    problems = QueuedProblemSerializer(
        many=True,
        read_only=True,
        help_text="The files that failed or were skipped, with the reason (the first 1,000).",
    )
    verdicts = serializers.DictField(
        child=serializers.IntegerField(),
        read_only=True,
        help_text="How many of the games imported or found stored have each verdict "
        "(verified, score_mismatch, illegal_action, ...; pending: not verified yet).",
    )
    finished = serializers.BooleanField(read_only=True)

    class Meta:
        model = QueuedImport
        fields = (
            "id", "url", "visibility", "modifiers", "files", "files_done", "imported",
            "duplicates", "failed", "skipped", "problems", "verdicts", "finished", "created_at",
            "finished_at",
        )  # fmt: skip
        read_only_fields = fields


class _BrokerUnavailable(APIException):
    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_code = "broker_unavailable"
    default_detail = "the task broker cannot be reached: nothing was queued; try again later"
    #: DRF's exception handler sends it as ``Retry-After``.
    wait = 60


class QueuedImportViewSet(
    UploadRequest,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    viewsets.GenericViewSet[QueuedImport],
):
    """Uploads the workers import: the files are queued at once (a task for each 50), and
    each worker reads, stores and verifies the games of the batches it takes. Your own queued
    imports, newest first (staff see all)."""

    serializer_class = QueuedImportSerializer
    permission_classes = (IsAuthenticated,)
    filterset_class = None

    def get_queryset(self) -> Any:
        return queued_imports_of(self.request.user)

    def get_throttles(self) -> list[BaseThrottle]:
        # One budget with the other uploads (the page and the API).
        return [UploadRateThrottle()] if self.action == "create" else super().get_throttles()

    def get_object(self) -> QueuedImport:
        pk = parse_int(str(self.kwargs["pk"]), 0, DB_INT_MAX)
        queued: QueuedImport | None = (
            None if pk is None else queued_imports_of(self.request.user).filter(pk=pk).first()
        )
        if queued is None:
            raise Http404("no such queued import")
        return queued

    @extend_schema(
        parameters=[
            UploadOptionsSerializer,
            OpenApiParameter(
                "Location",
                OpenApiTypes.URI,
                OpenApiParameter.HEADER,
                response=[202],
                description="The queued import's own URL, to follow it.",
            ),
        ],
        request=UPLOAD_REQUEST_BODY,
        responses={
            202: QueuedImportSerializer,
            400: error_response("No file was sent, or a bad option."),
            **UPLOAD_REFUSALS,
            503: error_response("The task broker or the database is not available."),
        },
    )
    def create(self, request: Request) -> Response:
        """Queue game records for the workers: one or more files in a multipart form (field
        ``files``), or one file as the raw request body, with the options of an upload.
        Answers 202 with the queued import (GET its ``url`` to follow it); where tasks run
        in-process, the import is already finished."""
        options = UploadOptionsSerializer(data=request.query_params)
        options.is_valid(raise_exception=True)
        files = self.uploaded_files(request)
        if not files:
            raise ValidationError({"files": ["no file was sent"]})
        user = request.user
        assert isinstance(user, User)  # (permission_classes)
        try:
            queued = queued_import_create(
                files,
                uploader=user,
                visibility=options.validated_data["visibility"],
                modifiers=options.validated_data["modifiers"],
            )
        except QueueUnavailable:
            raise _BrokerUnavailable() from None
        body = self.get_serializer(queued).data
        # (plain text: a WSGI server may take header values of type str alone)
        return Response(
            body, status=status.HTTP_202_ACCEPTED, headers={"Location": str(body["url"])}
        )
