"""The few errors the agent raises on purpose.

Errors a user or an API client must read are `ValueError`s too: the LangGraph
server passes the message of a `ValueError` on to its clients and masks most
others as "An internal error occurred".
"""


class AgentError(Exception):
    """Base of the agent's own errors; the CLI prints them in one line."""


class ModelConfigError(AgentError):
    """The chosen chat model cannot be loaded (bad spec, missing key)."""


class ThreadNotFoundError(AgentError):
    """No episode with this thread id is in the database."""


class DecisionError(AgentError):
    """A human's approval decision is malformed or not allowed."""


class DatabaseError(AgentError, ValueError):
    """The checkpoint database cannot be opened, or vanished while in use."""


class LeaseHeldError(AgentError, ValueError):
    """Another process drives this thread right now."""


class RequestError(AgentError, ValueError):
    """A decision names an approval request that is not pending (answered or superseded)."""


class SettingsError(AgentError, ValueError):
    """Settings that differ from the thread's stored ones, given without asking to change them."""
