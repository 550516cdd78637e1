"""An answer that names a question's alternative by another name ("BC" for "Which
university is in Chestnut Hill, Boston College or Stanford University?") chooses it, so
it is no answer that "is neither": its acronym, or a name the evidence gives for it in a
parenthesis or after "also known as" on its own page or beside it ("Boston College (also
referred to as BC) is ..."). Such an answer is grounded, never rejected: the
comparison is computed for the names the question gives, and the evidence ties this one
to them only by its name."""

from __future__ import annotations

import re

from graph.verifier.evidence.matching import contains
from graph.verifier.read.check import Check
from graph.verifier.text.casing import NAME_RUN
from graph.verifier.text.normalise import Text, analyse
from graph.verifier.text.wordstems import STOPWORDS
from graph.verifier.trust.denials import negated
from graph.verifier.verdicts import GROUNDING_STATED, citation, ground
from tools.base import Verdict

REASON_ALIAS_CHOICE = (
    "{answer!r} names neither of {alternatives} as the question writes them, but the"
    " evidence gives it as another name of {name!r} ({cite}); the comparison is computed"
    " for the names the question gives."
)

_PARENTHESIS = re.compile(r"\(([^()]{1,300})\)")
_ALIAS_FRAME = re.compile(
    r"\b(?:known as|referred to as|also called|a\.k\.a\.|aka|nicknamed)\s+([^.;:()]{1,120})",
    re.IGNORECASE,
)
# What may open a parenthesis that gives another name: "(also referred to as BC)", "(or
# Senat)", "(commonly WWII)".
_ALIAS_LEAD = re.compile(
    r"^\s*(?:(?:also|commonly|often|simply|formerly|or)\s+)*"
    r"(?:(?:known|referred to|called|styled)\s+as\s+|called\s+|a\.k\.a\.\s*|aka\s+)?",
    re.IGNORECASE,
)
# Where the first name of an aside ends.
_NAME_END = re.compile(r"[,;]|\s(?:or|and|is|was|are|were)\s", re.IGNORECASE)
# An acronym as a reply writes it ("U.S.", "UK", "BC").
_ACRONYM = re.compile(r"^\s*(?:[A-Z]\.?){2,8}\s*$")
_LONGEST_ACRONYM = 8
# A generational suffix, which initials leave out ("MLK").
_GENERATIONS = frozenset(("jr", "sr", "ii", "iii", "iv"))


def is_acronym(short: tuple[str, ...], long: tuple[str, ...]) -> bool:
    """The one short word is the initials of the long name's words, with or without its
    small words ("mit" for "massachusetts institute of technology") and a generational
    suffix ("mlk" for "martin luther king jr")."""
    if len(short) != 1 or not 2 <= len(short[0]) <= _LONGEST_ACRONYM or len(long) < 2:
        return False
    if long[-1] in _GENERATIONS and len(long) > 2:
        long = long[:-1]
    initials = {
        "".join(word[0] for word in long),
        "".join(word[0] for word in long if word not in STOPWORDS),
    }
    return short[0] in initials


def _first_name(aside: str) -> Text:
    """The name an aside gives first: "BC" in "also referred to as BC", "Kloten Airport"
    in "Kloten Airport, is the largest airport ..."."""
    aside = _ALIAS_LEAD.sub("", aside, count=1)
    end = _NAME_END.search(aside)
    return analyse(aside[: end.start()] if end else aside)


def _stated_as_alias(check: Check, name: Text) -> list[str]:
    """The trusted stored sentences, on the alternative's page or naming it, that give the
    answer as the first name of a parenthesis or after an alias frame."""
    ids = []
    for item in check.items:
        if not (contains(item.title_text, name) or contains(item.text, name)):
            continue
        asides = [m[1] for m in _PARENTHESIS.finditer(item.raw)]
        asides += [m[1] for m in _ALIAS_FRAME.finditer(item.raw)]
        answer = check.folded.tokens
        if (
            any(_first_name(aside).tokens == answer for aside in asides)
            and item.trusted
            and not negated(item.text, check.folded)
        ):
            ids.append(item.id)
    return ids


def spelled_out(check: Check) -> tuple[str, list[str]] | None:
    """The one name that trusted, related stored sentences write whose initials the
    answer, an acronym, is ("United States" for "U.S."), with the sentences; None when the
    answer is no acronym or no name, or two names, have its initials."""
    if _ACRONYM.match(check.answer) is None:
        return None
    letters = check.folded.tokens
    found: dict[tuple[str, ...], tuple[str, list[str]]] = {}
    for item in check.items:
        runs = (run.rstrip(".") for run in NAME_RUN.findall(item.raw))
        names = [run for run in runs if _initials(letters, run)]
        if names and item.trusted and check.related(item):
            for name in names:
                found.setdefault(analyse(name).tokens, (name, []))[1].append(item.id)
    return next(iter(found.values())) if len(found) == 1 else None


def _initials(letters: tuple[str, ...], name: str) -> bool:
    return is_acronym(letters, analyse(name).tokens)


def alias_choice(check: Check, alternatives: str) -> Verdict | None:
    """Grounded when the answer, naming neither alternative as written, is one's acronym
    or a name the evidence gives for it; None otherwise."""
    answer = check.folded.tokens
    for name in check.q.pair:
        if is_acronym(answer, name.tokens) or is_acronym(name.tokens, answer):
            found = check.locate()[0] or check.find(name)
            ids = list(found.ids) if found is not None else []
        else:
            ids = _stated_as_alias(check, name)
        if ids:
            reason = REASON_ALIAS_CHOICE.format(
                answer=check.answer,
                alternatives=alternatives,
                name=" ".join(name.tokens),
                cite=citation(ids),
            )
            return ground(ids, reason, [], GROUNDING_STATED)
    return None
