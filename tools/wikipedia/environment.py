"""The Wikipedia environment: `Search[title]`, `Lookup[keyword]`, `Finish[answer]`.

The open page and the lookup cursors live in the graph state (`env_state`),
never in this object, so a resumed episode continues exactly where it was.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tools.base import (
    ActionSpec,
    ArgumentError,
    Evidence,
    EvidenceDraft,
    ExecContext,
    ToolOutcome,
    Verdict,
)
from tools.wikipedia.base import FetchResult, Page, WikiSource
from tools.wikipedia.lookup import broad_keyword_hint, find_matches, format_lookup_result
from tools.wikipedia.snapshot import normalize_title

SEARCH_SENTENCES = 5
MAX_ARGUMENT_CHARS = 300
DEFAULT_OBSERVATION_CHARS = 1200

NOT_FOUND = "Could not find [{title}]. Similar: {similar}"
AMBIGUOUS = "[{title}] may refer to several pages: {options}. Search one of them."
NO_PAGE_OPEN = "No page is open. Use Search[title] before Lookup[keyword]."
NO_MORE_RESULTS = "No more results for [{keyword}] on {title}."
NO_RESULTS = "[{keyword}] does not occur on {title}."
ARGUMENT_TOO_LONG = "{action}[...] takes at most {limit} characters; write a shorter argument."
TRUNCATED = " [truncated]"

Checker = Callable[[str, str, Sequence[Evidence]], Verdict]

SPECS: dict[str, ActionSpec] = {
    "Search": ActionSpec("Search", "Search[title]", "open the Wikipedia article with this title"),
    "Lookup": ActionSpec(
        "Lookup",
        "Lookup[keyword]",
        "show the next sentence of the open article with this word",
        reads_state=True,
    ),
    "Finish": ActionSpec("Finish", "Finish[answer]", "give the final short answer"),
}
ARGUMENT_NAMES = {"Search": "title", "Lookup": "keyword", "Finish": "answer"}


def cap_observation(text: str, limit: int) -> str:
    """Cut `text` to `limit` characters, saying so when it was cut."""
    if len(text) <= limit:
        return text
    return text[: max(0, limit - len(TRUNCATED))].rstrip() + TRUNCATED


def _sentence_evidence(page: Page, indexes: Sequence[int]) -> list[EvidenceDraft]:
    return [
        EvidenceDraft(
            text=page.sentences[i],
            tool="wikipedia",
            source={"title": page.title, "sentence_index": i},
            facts={},
        )
        for i in indexes
    ]


class WikipediaEnvironment:
    """Search and look up Wikipedia pages from one `WikiSource`."""

    name = "wikipedia"
    finish_action = "Finish"

    def __init__(self, source: WikiSource, checker: Checker) -> None:
        self.source = source
        self.checker = checker

    def specs(self) -> Mapping[str, ActionSpec]:
        """The three ReAct actions."""
        return SPECS

    def parse_args(self, action: str, argument: str) -> dict[str, Any]:
        """Each action takes one free-text argument."""
        text = " ".join(argument.split())
        if not text:
            raise ArgumentError(f"{action}[...] needs a non-empty argument.")
        if len(text) > MAX_ARGUMENT_CHARS:
            raise ArgumentError(ARGUMENT_TOO_LONG.format(action=action, limit=MAX_ARGUMENT_CHARS))
        return {ARGUMENT_NAMES[action]: text}

    def execute(self, action: str, args: Mapping[str, Any], ctx: ExecContext) -> ToolOutcome:
        """Run Search or Lookup."""
        limit = int(getattr(ctx.settings, "observation_chars", DEFAULT_OBSERVATION_CHARS))
        if action == "Search":
            outcome = self._search(str(args["title"]))
        elif action == "Lookup":
            outcome = self._lookup(str(args["keyword"]), ctx.env_state)
        else:
            raise ValueError(f"WikipediaEnvironment cannot execute {action!r}")
        return ToolOutcome(
            observation=cap_observation(outcome.observation, limit),
            evidence=outcome.evidence,
            env_update=outcome.env_update,
            requests=outcome.requests,
            cache_hits=outcome.cache_hits,
            failed=outcome.failed,
        )

    def _search(self, title: str) -> ToolOutcome:
        result = self.source.fetch(title)
        counts: dict[str, Any] = {"requests": result.requests, "cache_hits": result.cache_hits}
        if result.page is not None:
            page = result.page
            shown = range(min(SEARCH_SENTENCES, len(page.sentences)))
            text = " ".join([*result.notes, *(page.sentences[i] for i in shown)])
            return ToolOutcome(
                observation=text,
                evidence=_sentence_evidence(page, list(shown)),
                env_update={"page": page.title, "lookup": {}},
                **counts,
            )
        return ToolOutcome(
            observation=self._not_opened(title, result),
            env_update={"page": None, "lookup": {}},
            failed=result.error is not None,
            **counts,
        )

    @staticmethod
    def _not_opened(title: str, result: FetchResult) -> str:
        if result.error is not None:
            return result.error
        if result.ambiguous:
            options = ", ".join(result.ambiguous)
            return " ".join([*result.notes, AMBIGUOUS.format(title=title, options=options)])
        return NOT_FOUND.format(title=title, similar=list(result.similar))

    def _lookup(self, keyword: str, env_state: Mapping[str, Any]) -> ToolOutcome:
        title = env_state.get("page")
        if not title:
            return ToolOutcome(observation=NO_PAGE_OPEN)
        result = self.source.fetch(title)
        counts: dict[str, Any] = {"requests": result.requests, "cache_hits": result.cache_hits}
        if result.page is None:
            return ToolOutcome(
                observation=self._not_opened(title, result),
                failed=result.error is not None,
                **counts,
            )
        page = result.page
        matches = find_matches(page, keyword)
        hint = broad_keyword_hint(page, keyword, matches)
        if hint is not None:
            return ToolOutcome(observation=hint, **counts)
        if not matches:
            return ToolOutcome(
                observation=NO_RESULTS.format(keyword=keyword, title=page.title), **counts
            )
        cursors = dict(env_state.get("lookup") or {})
        key = normalize_title(keyword)
        cursor = int(cursors.get(key, 0))
        if cursor >= len(matches):
            return ToolOutcome(
                observation=NO_MORE_RESULTS.format(keyword=keyword, title=page.title), **counts
            )
        index = matches[cursor]
        cursors[key] = cursor + 1
        return ToolOutcome(
            observation=format_lookup_result(matches, cursor, page.sentences[index]),
            evidence=_sentence_evidence(page, [index]),
            env_update={"lookup": cursors},
            **counts,
        )

    def goal_unreachable(self, question: str, ctx: ExecContext) -> str | None:
        """Wikipedia questions have no deadline."""
        return None

    def situation(self, question: str, ctx: ExecContext) -> str:
        """Wikipedia questions need no run facts in the prompt."""
        return ""

    def final_answer(
        self, question: str, answer: str, verdict: Verdict, evidence: Sequence[Evidence]
    ) -> str:
        """A verified Wikipedia answer stands as it is."""
        return answer

    def record_audit(self, event: str, detail: Mapping[str, Any], ctx: ExecContext) -> None:
        """Wikipedia has no write actions, so nothing to audit."""

    def check_answer(
        self, question: str, answer: str, evidence: Sequence[Evidence], ctx: ExecContext
    ) -> Verdict:
        """Delegate to the evidence verifier."""
        return self.checker(question, answer, evidence)
