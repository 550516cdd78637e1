"""A simple token scheme for the inbox's signed-in-user test: `Bearer token-NAME` signs
in as NAME; anything else is refused. Loaded by `langgraph dev` as `auth.path`."""

from __future__ import annotations

from langgraph_sdk import Auth

auth = Auth()


@auth.authenticate
async def authenticate(authorization: str | None) -> str:
    """The user a `Bearer token-NAME` header names."""
    scheme, _, token = (authorization or "").partition(" ")
    if scheme != "Bearer" or not token.startswith("token-") or len(token) <= len("token-"):
        raise Auth.exceptions.HTTPException(status_code=401, detail="sign in with a token")
    return token.removeprefix("token-")
