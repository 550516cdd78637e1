"""The few errors the agent raises on purpose."""


class AgentError(Exception):
    """Base of the agent's own errors; the CLI prints them in one line."""


class ModelConfigError(AgentError):
    """The chosen chat model cannot be loaded (bad spec, missing key)."""


class ThreadNotFoundError(AgentError):
    """No episode with this thread id is in the database."""


class DecisionError(AgentError):
    """A human's approval decision is malformed or not allowed."""


class DatabaseError(AgentError):
    """The checkpoint database cannot be opened."""
