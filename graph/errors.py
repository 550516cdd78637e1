"""The few errors the agent raises on purpose.

Each is a `ValueError`, so the LangGraph server passes its message on to API
clients (langgraph-api masks any other exception type as "An internal error
occurred"); the CLI prints it in one line and exits with status 2.
"""

from tools.fencing import TakenOverError


class AgentError(ValueError):
    """Base of the agent's own errors; the CLI prints them in one line."""


class ModelConfigError(AgentError):
    """The chosen chat model cannot be loaded (bad spec, missing key, missing package)."""


class ThreadNotFoundError(AgentError):
    """No episode with this thread id is in the database."""


class DecisionError(AgentError):
    """A human's approval decision is malformed or not allowed."""


class DatabaseError(AgentError):
    """The checkpoint database cannot be opened, or vanished while in use."""


class ThreadDeletedError(DatabaseError):
    """A thread was deleted while a run (or a fork) was on it: nothing more of it is stored."""


class LeaseHeldError(AgentError):
    """Another process drives this thread right now."""


class RequestError(AgentError):
    """A decision names an approval request that is not pending (answered or superseded)."""


class SettingsChangeError(AgentError):
    """Settings that differ from the thread's stored ones, given without asking to change them."""


class LeaseLostError(TakenOverError, AgentError):
    """Another process took this thread over while this one ran: its writes are refused
    (`tools.fencing`), and it stops without writing."""


class SettingsError(AgentError):
    """A run setting or the question is not acceptable; the message names it."""
