"""The rules of the MCP environment's settings (see `graph.settings.validation`)."""

from __future__ import annotations

import re
import shlex
from typing import Any
from urllib.parse import urlparse

from graph.settings.setting_rules import api_url, text

SECRET_IN_URL = (
    "{value!r} holds a password; put secrets in environment variables and name them "
    "with --mcp-headers (e.g. Authorization=MCP_TOKEN)"
)
NOT_COMMAND = "{value!r} is not a command line ({problem})"
_HEADERS = re.compile(r"[A-Za-z0-9-]+=[A-Za-z_][A-Za-z0-9_]*(,\s*[A-Za-z0-9-]+=[A-Za-z_]\w*)*")
_NAMES = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(,\s*[A-Za-z_][A-Za-z0-9_]*)*")


def mcp_server(value: Any) -> str | None:
    """A stdio command line or an http(s) URL without a password in it (or empty: the
    environment then says that none is named when it is used)."""
    problem = text(4000)(value)
    if problem or not value.strip():
        return problem
    if urlparse(value.strip()).scheme in ("http", "https"):
        problem = api_url(value)
        if problem:
            return problem.replace("(e.g. https://en.wikipedia.org/w/api.php)", "")
        return SECRET_IN_URL.format(value=value) if urlparse(value.strip()).password else None
    try:
        words = shlex.split(value)
    except ValueError as error:
        return NOT_COMMAND.format(value=value, problem=error)
    return None if words else NOT_COMMAND.format(value=value, problem="no words")


mcp_headers = text(2000, pattern=_HEADERS.pattern, form="'Header=ENV_VAR,...'")
mcp_env = text(2000, pattern=_NAMES.pattern, form="'NAME,...' (environment variable names)")
