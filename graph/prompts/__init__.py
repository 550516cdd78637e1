"""Prompt templates are data: text files rendered with strict substitution."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from string import Template


class PromptError(KeyError):
    """A template names a variable the caller did not supply."""


@lru_cache(maxsize=32)
def load_template(name: str) -> Template:
    """The template file `name` of this package."""
    text = resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
    return Template(text)


def render(name: str, **values: object) -> str:
    """Render template `name`; every `$variable` it uses must be given."""
    try:
        return load_template(name).substitute(values)
    except KeyError as missing:
        raise PromptError(f"template {name!r} needs the value {missing.args[0]!r}") from None
