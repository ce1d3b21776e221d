"""The error answers of the REST API, in its OpenAPI schema.

drf-spectacular documents what a view returns when all goes well; the errors DRF answers for
every view (a refused parameter, a bad token, a page past the end, an object you may not see)
would be missing, and a client generated from the schema, or a schema checker such as
schemathesis (``tests/api/test_schemathesis.py``), would meet codes the schema never named.
This post-processing hook adds them to each operation that can answer them, unless the view
documents its own.
"""

from __future__ import annotations

from typing import Any

ERROR_COMPONENT = "Error"

#: What DRF sends with an error: ``detail`` (a message) or, for refused input, each field
#: with its messages.
ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": (
        "What was wrong: `detail`, a message; or, for refused input, each field named with "
        "the list of its problems."
    ),
    "additionalProperties": True,
}

_UNSAFE = frozenset({"post", "put", "patch", "delete"})


def _error(description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {
            "application/json": {"schema": {"$ref": f"#/components/schemas/{ERROR_COMPONENT}"}}
        },
    }


def _errors_of(path: str, method: str, operation: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The error answers this operation can give, by status code."""
    parameters = operation.get("parameters", [])
    queried = any(parameter.get("in") == "query" for parameter in parameters)
    errors = {
        # TokenAuthentication refuses a bad token whatever the operation.
        "401": _error("A bad token, or none where an account is needed."),
    }
    if queried or "requestBody" in operation:
        errors["400"] = _error("Refused input: each bad parameter or field with its problems.")
    if method in _UNSAFE:
        errors["403"] = _error(
            "Not allowed: a game you may see but not manage, or a session request without its "
            "CSRF token."
        )
    if "{" in path or any(parameter.get("name") == "page" for parameter in parameters):
        errors["404"] = _error("No such object (or one you may not see), or no such page.")
    return errors


#: A free-text query value: anything but U+0000, which config.middleware refuses with a 400
#: (PostgreSQL text cannot hold it).
NO_NUL_PATTERN = "^[^\\u0000]*$"


def _refuse_nul(schema: dict[str, Any]) -> None:
    """Say that a free string query value cannot hold U+0000 (its items' too, for a list)."""
    if schema.get("type") == "array":
        _refuse_nul(schema.get("items", {}))
    elif schema.get("type") == "string" and "enum" not in schema and "format" not in schema:
        schema.setdefault("pattern", NO_NUL_PATTERN)


def document_errors(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """A ``POSTPROCESSING_HOOKS`` entry of drf-spectacular: add the error answers, say that an
    optional query parameter may be sent empty (it then counts as not sent, as the site's
    forms send their empty fields; django-filter and DRF's pagination read it so), and that a
    free-text query value cannot hold U+0000."""
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            responses = operation.setdefault("responses", {})
            for code, answer in _errors_of(path, method, operation).items():
                responses.setdefault(code, answer)
            for parameter in operation.get("parameters", []):
                if parameter.get("in") != "query":
                    continue
                if not parameter.get("required"):
                    parameter.setdefault("allowEmptyValue", True)
                _refuse_nul(parameter.get("schema", {}))
    result.setdefault("components", {}).setdefault("schemas", {})[ERROR_COMPONENT] = ERROR_SCHEMA
    return result
