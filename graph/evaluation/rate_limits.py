"""Telling a provider's rate-limit refusal apart from other errors, and how long to wait.

Providers share no exception class, so a refusal is recognised by class name,
HTTP status 429 or message; the methods turn it into `RateLimited`, and the
harness runs the episode again after an exponential backoff.
"""

from __future__ import annotations

import re

_RATE_LIMIT_TEXT = re.compile(r"\b429\b|rate[\s_-]?limit|too many requests", re.IGNORECASE)


class RateLimited(Exception):
    """The provider refused a call for its rate limit; run the episode again later."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def retry_after(error: BaseException) -> float | None:
    """The seconds of the `Retry-After` header on the error's HTTP response, if any."""
    headers = getattr(getattr(error, "response", None), "headers", None) or {}
    try:
        value = headers.get("retry-after")
        return float(value) if value is not None else None
    except (AttributeError, TypeError, ValueError):
        return None


def is_rate_limit(error: BaseException) -> bool:
    """Whether `error` (or one it was raised from) is a provider's rate-limit refusal.

    Reads class names (`RateLimitError`, `TooManyRequests`), HTTP status 429
    on the error or its response, and the message.
    """
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        names = [cls.__name__.replace("_", "").casefold() for cls in type(current).__mro__]
        if any("ratelimit" in name or "toomanyrequests" in name for name in names):
            return True
        statuses = (
            getattr(current, "status_code", None),
            getattr(current, "status", None),
            getattr(getattr(current, "response", None), "status_code", None),
        )
        if 429 in statuses or is_rate_limit_text(str(current)):
            return True
        current = current.__cause__ or current.__context__
    return False


def is_rate_limit_text(text: str) -> bool:
    """Whether an error message reads as a rate-limit refusal."""
    return bool(_RATE_LIMIT_TEXT.search(text))


def backoff_delay(retries: int, base_s: float, max_s: float, hint: float | None) -> float:
    """Seconds to wait before retry number `retries + 1`: doubling, capped, at least `hint`."""
    return max(min(max_s, base_s * 2**retries), hint or 0.0)
