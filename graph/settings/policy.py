"""Per-action approval policy, read from a TOML file (`--policy FILE`, `REACT_AGENT_POLICY`).

```toml
[actions.reserve_copy]
policy = "ask"                      # ask | auto | deny (default: the run's approvals)
approvers = ["librarian", "alice"]  # who may decide; absent = anyone
allowed_decisions = ["approve", "reject"]
expires_after = "2h"                # 30s, 90m, 2h, 1d; absent = never
```

The file is read again at every decision, so a change applies at once. Any
environment can use it: `load_policy(path, write_actions).rule(action)` gives
an action's `Rule`, and `Rule.refusal` says why a decision may not be taken.
A malformed file, an unknown action or key, or a bad value is refused in one
line naming the file's line (`PolicyError`).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from graph.errors import SettingsError

MODES = ("ask", "auto", "deny")
DECISION_KINDS = ("approve", "edit", "reject")
KEYS = ("policy", "approvers", "allowed_decisions", "expires_after")
UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
DURATION = re.compile(r"([1-9][0-9]{0,8})([smhd])")
NOT_APPROVER = "{who} may not decide {action} requests (the policy names {approvers})"
NOT_ALLOWED = "{kind} is not a decision {action} allows (the policy allows {allowed})"
EXPIRED = (
    "request {request_id} expired at {expired_at} (expires_after {after}); it can no "
    "longer be approved or edited: resume without a decision to tell the model, or reject it"
)


class PolicyError(SettingsError):
    """The policy file cannot be used; the message names its line."""


def parse_duration(text: str) -> int:
    """Seconds of a duration such as `30s`, `90m`, `2h` or `1d`; ValueError otherwise."""
    found = DURATION.fullmatch(text.strip()) if isinstance(text, str) else None
    if found is None:
        raise ValueError(f"{text!r} is not a duration; use e.g. 30s, 90m, 2h or 1d")
    return int(found.group(1)) * UNITS[found.group(2)]


@dataclass(frozen=True)
class Rule:
    """What the policy says about one action (the defaults: nothing)."""

    policy: str | None = None
    approvers: tuple[str, ...] | None = None
    allowed_decisions: tuple[str, ...] = DECISION_KINDS
    expires_after: str = ""

    def mode(self, default: str) -> str:
        """ask, auto or deny: the rule's own, else the run's `default`."""
        return self.policy or default

    def expires_at(self, proposed_at: str) -> str:
        """When a request proposed at `proposed_at` (ISO 8601) expires; '' for never."""
        if not self.expires_after or not proposed_at:
            return ""
        moment = datetime.fromisoformat(proposed_at)
        later = moment + timedelta(seconds=parse_duration(self.expires_after))
        return later.isoformat(timespec="milliseconds")

    def refusal(self, action: str, kind: str, who: str) -> str:
        """Why `who` may not make a `kind` decision on `action` ('' when they may)."""
        if kind not in self.allowed_decisions:
            allowed = ", ".join(self.allowed_decisions)
            return NOT_ALLOWED.format(kind=kind, action=action, allowed=allowed)
        if self.approvers is not None and who not in self.approvers:
            approvers = ", ".join(self.approvers) or "no one"
            return NOT_APPROVER.format(
                who=who or "someone unnamed", action=action, approvers=approvers
            )
        return ""


@dataclass(frozen=True)
class Policy:
    """A policy file's rules, by action name."""

    source: str = ""
    rules: Mapping[str, Rule] | None = None

    def rule(self, action: str) -> Rule:
        """The rule of `action` (the empty rule for one the file does not name)."""
        return (self.rules or {}).get(action, Rule())


def _line_of(text: str, action: str = "", key: str = "") -> int:
    """The line (from 1) of an action's table, or of a key in it (0 when not found)."""
    header = re.compile(r"\s*\[\s*actions\s*\.\s*[\"']?" + re.escape(action) + r"[\"']?\s*\]")
    within = not action
    for number, line in enumerate(text.splitlines(), start=1):
        if action and header.match(line):
            if not key:
                return number
            within = True
        elif within and line.lstrip().startswith("["):
            within = not action
        elif within and key and re.match(r"\s*[\"']?" + re.escape(key) + r"[\"']?\s*=", line):
            return number
    return 0


def _refuse(source: str, text: str, message: str, action: str = "", key: str = "") -> PolicyError:
    line = _line_of(text, action, key)
    where = f"{source} line {line}" if line else source
    return PolicyError(f"policy file {where}: {message}")


def _names(value: Any) -> tuple[str, ...] | None:
    if isinstance(value, list) and all(isinstance(item, str) and item.strip() for item in value):
        return tuple(item.strip() for item in value)
    return None


def _rule(source: str, text: str, action: str, table: Any) -> Rule:
    """One action's table as a Rule; PolicyError naming the line of a bad key or value."""
    if not isinstance(table, dict):
        raise _refuse(source, text, f"actions.{action} must be a table of settings", action)
    for key in table:
        if key not in KEYS:
            known = ", ".join(KEYS)
            raise _refuse(source, text, f"unknown key {key!r} (known: {known})", action, key)
    policy = table.get("policy")
    if policy is not None and policy not in MODES:
        message = f"policy {policy!r} is not one of {', '.join(MODES)}"
        raise _refuse(source, text, message, action, "policy")
    approvers = _names(table["approvers"]) if "approvers" in table else None
    if "approvers" in table and approvers is None:
        message = 'approvers must be a list of names, e.g. ["librarian"]'
        raise _refuse(source, text, message, action, "approvers")
    allowed = _names(table.get("allowed_decisions", list(DECISION_KINDS)))
    if not allowed or any(kind not in DECISION_KINDS for kind in allowed):
        message = f"allowed_decisions must list some of {', '.join(DECISION_KINDS)}"
        raise _refuse(source, text, message, action, "allowed_decisions")
    after = table.get("expires_after", "")
    if "expires_after" in table:
        try:
            parse_duration(after)
        except ValueError as error:
            raise _refuse(source, text, str(error), action, "expires_after") from None
    return Rule(policy, approvers, allowed, str(after))


def parse_policy(text: str, source: str, actions: Collection[str] | None) -> Policy:
    """The policy a file's `text` holds; `actions` are the ones it may name (None: any, for
    an environment whose actions are known only once its server is asked)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        found = re.search(r" \(at line (\d+), column (\d+)\)$", str(error))
        where = f"{source} line {found[1]}" if found else source
        what = str(error)[: found.start()] + f" (column {found[2]})" if found else str(error)
        raise PolicyError(f"policy file {where}: not valid TOML: {what}") from None
    for key in data:
        if key != "actions":
            raise _refuse(
                source, text, f"unknown key {key!r} (only [actions.NAME] tables)", key=key
            )
    tables = data.get("actions", {})
    if not isinstance(tables, dict):
        raise _refuse(source, text, "actions must hold [actions.NAME] tables", key="actions")
    rules: dict[str, Rule] = {}
    for action, table in tables.items():
        if actions is not None and action not in actions:
            known = ", ".join(sorted(actions)) or "none"
            message = f"unknown action {action!r} (the actions that need approval: {known})"
            raise _refuse(source, text, message, action)
        rules[action] = _rule(source, text, action, table)
    return Policy(source, rules)


def load_policy(path: str, actions: Collection[str] | None) -> Policy:
    """The policy in file `path` ('' for none: the empty policy), read now."""
    if not path:
        return Policy()
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise PolicyError(f"policy file {path}: not UTF-8 text (byte {error.start})") from None
    except OSError as error:
        raise PolicyError(
            f"policy file {path}: cannot read it: {error.strerror or error}"
        ) from None
    return parse_policy(text, path, actions)


def person(actor: str) -> str:
    """The name in an actor (`cli:alice@host`, `inbox:alice@host`, `auth:alice`): alice.
    A signed-in identity (`auth:`) is taken whole (it may be an e-mail address)."""
    kind, _, rest = actor.partition(":")
    if not rest:
        return kind
    if kind == "auth":
        return rest
    name, at, _host = rest.rpartition("@")
    return name if at else rest


def write_actions(specs: Mapping[str, Any]) -> list[str]:
    """The names of the actions among `specs` (ActionSpecs) that write, hence need approval."""
    return [name for name, spec in specs.items() if getattr(spec, "writes", False)]


def policy_writes(path: str) -> frozenset[str]:
    """The actions a policy file names: for an MCP server, each is a write (it needs a
    decision) whatever the server's hints say."""
    return frozenset((load_policy(path, None).rules or {}) if path else ())
