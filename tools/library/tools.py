"""The library's actions: specs, pydantic argument models, and argument parsing.

An argument may be written as JSON (`{"branch": "West", "date": "2026-09-26"}`),
as keywords (`branch="西馆", date="2026-09-26"`, the seed's `from=..., to=...`)
or positionally, comma-separated in the model's field order (`West, 2026-09-26`);
a one-field action takes the whole bracket text, commas included.
"""

from __future__ import annotations

import json
import re
from datetime import date
from typing import Any

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, ValidationError, field_validator

from tools.base import ActionSpec, ArgumentError
from tools.library.text import strip_quotes

FINISH = "Finish"
TODAY = "today"
_TODAY_WORDS = {"today", "今天", "今日"}
_COPY_ID = re.compile(r"^[A-Z]{1,3}\d{1,4}$")
_KEYWORD = re.compile(r"""\s*(?<!\w)(\w++)\s*[=:]\s*("[^"]*"|'[^']*'|[^,，]*)\s*(?:[,，]|$)""")

ARGUMENT_ERROR = "Invalid argument for {action}: {problem}. Write it as {usage}, e.g. {example}."
UNKNOWN_ACTION = "Unknown action {action!r}; the actions are: {names}."
EMPTY_ANSWER = "the answer is empty"


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True, frozen=True)


class SearchCatalogArgs(_Args):
    """`search_catalog[title]`: a title in Chinese or English, or part of one."""

    title: str = Field(
        min_length=1, max_length=200, validation_alias=AliasChoices("title", "query", "name")
    )

    @field_validator("title")
    @classmethod
    def _unquote(cls, value: str) -> str:
        value = strip_quotes(value)
        if not value:
            raise ValueError("the title is empty")
        return value


class CopyArgs(_Args):
    """`get_copy_status[copy_id]` / `reserve_copy[copy_id]`: one copy id such as W22."""

    copy_id: str = Field(validation_alias=AliasChoices("copy_id", "copy", "id"))

    @field_validator("copy_id")
    @classmethod
    def _copy_id(cls, value: str) -> str:
        value = strip_quotes(value).upper()
        if not _COPY_ID.match(value):
            raise ValueError(f"{value!r:.60} is not a copy id (letters then digits, like W22)")
        return value


class OpenHoursArgs(_Args):
    """`get_open_hours[branch, date]`: a branch name or alias and a date (default today)."""

    branch: str = Field(
        min_length=1, max_length=60, validation_alias=AliasChoices("branch", "library")
    )
    date: str = Field(default=TODAY, validation_alias=AliasChoices("date", "day"))

    @field_validator("branch")
    @classmethod
    def _unquote(cls, value: str) -> str:
        return strip_quotes(value)

    @field_validator("date")
    @classmethod
    def _date(cls, value: str) -> str:
        value = strip_quotes(value)
        if value.casefold() in _TODAY_WORDS:
            return TODAY
        try:
            return date.fromisoformat(value).isoformat()
        except ValueError:
            raise ValueError(f"{value!r:.60} is not a date in the form YYYY-MM-DD") from None


class WalkArgs(_Args):
    """`estimate_walk[origin, destination]`; one value means from the patron's origin."""

    origin: str | None = Field(
        default=None, max_length=60, validation_alias=AliasChoices("origin", "from", "start")
    )
    destination: str = Field(
        min_length=1, max_length=60, validation_alias=AliasChoices("destination", "to", "dest")
    )

    @field_validator("destination", "origin")
    @classmethod
    def _unquote(cls, value: str | None) -> str | None:
        return strip_quotes(value) if value is not None else None


SPECS: dict[str, ActionSpec] = {
    spec.name: spec
    for spec in (
        ActionSpec(
            "search_catalog",
            "search_catalog[title]",
            "Catalogue records matching a title (Chinese or English): record id, medium "
            "(paper or e-book) and which branch holds each copy. Holdings only, no live "
            "status.",
            args_model=SearchCatalogArgs,
        ),
        ActionSpec(
            "get_copy_status",
            "get_copy_status[copy_id]",
            "Live status of one physical copy (e.g. W22): available, checked out, on hold, "
            "in transit or missing; its branch and shelf; the snapshot time.",
            args_model=CopyArgs,
        ),
        ActionSpec(
            "get_open_hours",
            'get_open_hours[{"branch": "West", "date": "2026-09-26"}]',
            "Building and circulation-desk hours of a branch on a date (YYYY-MM-DD or "
            "today); also get_open_hours[West, 2026-09-26].",
            args_model=OpenHoursArgs,
        ),
        ActionSpec(
            "estimate_walk",
            'estimate_walk[{"origin": "East Campus", "destination": "West"}]',
            "Walking minutes between two campus places or branches; estimate_walk[West] "
            "walks from the patron's starting point.",
            args_model=WalkArgs,
        ),
        ActionSpec(
            "reserve_copy",
            "reserve_copy[copy_id]",
            "Place a hold on an available paper copy for the patron. A write: it runs "
            "only after a person approves it.",
            writes=True,
            args_model=CopyArgs,
        ),
        ActionSpec(
            FINISH,
            "Finish[answer]",
            "Give the final answer, naming the branch and the shelf; the program checks "
            "it against the observations before accepting it.",
        ),
    )
}
EXAMPLES = {
    "search_catalog": "search_catalog[数据库入门图解]",
    "get_copy_status": "get_copy_status[W22]",
    "get_open_hours": "get_open_hours[West, 2026-09-26]",
    "estimate_walk": "estimate_walk[East Campus, West]",
    "reserve_copy": "reserve_copy[W22]",
    FINISH: "Finish[West Library, shelf B-12 ...]",
}
PRIMARY_ARG = {
    "search_catalog": "title",
    "get_copy_status": "copy_id",
    "get_open_hours": "branch",
    "estimate_walk": "destination",
    "reserve_copy": "copy_id",
}
_POSITIONAL = {"get_open_hours": ("branch", "date"), "estimate_walk": ("origin", "destination")}


def canonical_action(action: str) -> str:
    """The spec name an action denotes (case-insensitive); ArgumentError if there is none."""
    if action in SPECS:
        return action
    for name in SPECS:
        if name.casefold() == action.strip().casefold():
            return name
    raise ArgumentError(UNKNOWN_ACTION.format(action=action, names=", ".join(SPECS)))


def _keys(action: str) -> set[str]:
    """The argument names an action accepts, aliases included."""
    model = SPECS[action].args_model
    keys: set[str] = set()
    for name, info in model.model_fields.items() if model else ():
        alias = info.validation_alias
        choices = alias.choices if isinstance(alias, AliasChoices) else [name]
        keys.update(str(choice) for choice in choices)
    return keys


def _fields(action: str, raw: str) -> dict[str, Any]:
    """Split the bracket text into named fields (JSON, keywords, or positional)."""
    if raw.startswith("{"):
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise ValueError(f"the JSON object does not parse ({exc.msg})") from None
        if not isinstance(data, dict):
            raise ValueError("the JSON value is not an object")
        return data
    keywords = list(_KEYWORD.finditer(raw))
    if (
        keywords
        and "".join(match.group(0) for match in keywords).strip() == raw
        and all(match.group(1).lower() in _keys(action) for match in keywords)
    ):
        return {match.group(1).lower(): strip_quotes(match.group(2)) for match in keywords}
    names = _POSITIONAL.get(action)
    if names is None:
        return {PRIMARY_ARG[action]: raw}
    parts = [part.strip() for part in re.split(r"[,，]", raw)]
    if len(parts) == 1 and action == "estimate_walk":
        return {"destination": parts[0]}
    if len(parts) > len(names):
        raise ValueError(f"expected at most {len(names)} comma-separated values, got {len(parts)}")
    return dict(zip(names, parts, strict=False))


def _problem(error: ValidationError) -> str:
    problems = []
    for item in error.errors():
        where = ".".join(str(part) for part in item["loc"])
        message = item["msg"].removeprefix("Value error, ")
        problems.append(f"{where}: {message}" if where else message)
    return "; ".join(problems)


def parse_args(action: str, argument: str) -> dict[str, Any]:
    """Validate an action's bracket text into its arguments, or raise `ArgumentError`."""
    name = canonical_action(action)
    spec = SPECS[name]
    raw = argument.strip()
    try:
        if spec.args_model is None:
            if not raw:
                raise ValueError(EMPTY_ANSWER)
            return {"answer": raw}
        model = spec.args_model.model_validate(_fields(name, raw))
    except ValidationError as exc:
        problem = _problem(exc)
    except ValueError as exc:
        problem = str(exc)
    else:
        return model.model_dump(mode="json")
    raise ArgumentError(
        ARGUMENT_ERROR.format(
            action=name, problem=problem, usage=spec.usage, example=EXAMPLES[name]
        )
    )
