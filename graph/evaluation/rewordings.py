"""Rewordings of a gold answer, for the verifier benchmark's positive `reworded` cases.

Only certain rewordings: "in 1954" for a year, the other order of a full date,
a number with or without its thousands separators, or followed by the words
the evidence gives after it when the question asks about them ("how many
stores" -> "88 stores"), an acronym or "also known as" alias the evidence gives
in parentheses right after the answer, the answer's acronym when the evidence
states it, and the answer with or without a leading "the".

`rewritings` gives the answer as a table writes it otherwise, which the evidence need
not give: a measure in the other unit of its pair ("300 metres" -> "984 ft"), a share
with "per cent" for "%", and another writing of a well-known name or word ("World War
II" -> "Second World War", "Corporation" -> "Corp."). These come from the verifier's own
table: they measure that the verifier reads such answers through, not how much of the
world the table covers, so they are kept apart from the rewordings and never trained on.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import takewhile

from graph.evaluation.spans import NAME, NUMBER, YEAR, answer_kind, fold
from graph.verifier.rules.converted import UNITS
from graph.verifier.text.normalise import analyse, split_words
from graph.verifier.text.variants import variants

_CONNECTORS = frozenset(split_words("of the and for de la von van der y & a an in on"))
MONTHS = split_words(
    "January February March April May June July August September October November December"
)
_DAY_MONTH_YEAR = re.compile(rf"^(\d{{1,2}}) ({'|'.join(MONTHS)}),? (\d{{4}})$")
_MONTH_DAY_YEAR = re.compile(rf"^({'|'.join(MONTHS)}) (\d{{1,2}}),? (\d{{4}})$")
_ALIAS = re.compile(r"[A-Z][\w'’.\-]*(?: [\w'’.\-]+){0,4}")
_ACRONYM = re.compile(r"(?:[A-Z]\.?){2,8}[0-9]*")
# A unit as the verifier folds it, and the other of its pair (the sizes are the
# verifier's, `graph.verifier.rules.converted.UNITS`).
_OTHER_UNIT = {
    "m": "ft",
    "ft": "m",
    "km": "mi",
    "mi": "km",
    "kg": "lb",
    "acre": "ha",
    "ha": "acres",
}
_MEASURE = re.compile(r"(\d[\d,]*(?:\.\d+)?) ([A-Za-z]+)")
_SHARE = re.compile(r"(\d+(?:\.\d+)?)\s?%")
# The most other writings of one name kept ("United States" has five).
_MOST_WRITINGS = 2
_NOT_UNITS = frozenset(
    split_words(
        "the and was were are is in of at on to for by with from as or that which who whom than"
        " more less since after before during while when where between about over under into"
        " its his her their this these those also has had have been being per according"
    )
)


def rewordings(gold: str, texts: Sequence[str], question: str = "") -> list[str]:
    """Certain rewordings of the gold answer (see the module's docstring)."""
    gold = gold.strip()
    kind = answer_kind(gold)
    found: list[str] = []
    if kind == YEAR and re.fullmatch(r"\d{4}", gold):
        found.append(f"in {gold}")
    if kind == YEAR and (match := _DAY_MONTH_YEAR.match(gold)):
        found.append(f"{match[2]} {match[1]}, {match[3]}")
    if kind == YEAR and (match := _MONTH_DAY_YEAR.match(gold)):
        found.append(f"{match[2]} {match[1]} {match[3]}")
    if kind == NUMBER:
        found.extend(_number_rewordings(gold, texts, question))
    if kind == NAME:
        found.extend(_aliases(gold, texts))
        if gold.startswith("The ") and len(gold.split()) > 1:
            found.append(gold[4:])
        elif any(re.search(rf"\bthe {re.escape(gold)}\b", text) for text in texts):
            found.append(f"the {gold}")
    return [text for text in dict.fromkeys(found) if text != gold]


def rewritings(gold: str) -> list[str]:
    """The gold answer as a table writes it otherwise (see the module's docstring)."""
    gold = gold.strip()
    found = [
        *converted(gold),
        *list(variants(gold, spell_out=False, ordinals=False))[:_MOST_WRITINGS],
    ]
    return [text for text in dict.fromkeys(found) if text != gold]


def converted(gold: str) -> list[str]:
    """A measure in the other unit of its pair, to as many significant digits; a share
    with "per cent" for "%"."""
    share = _SHARE.fullmatch(gold)
    if share:
        return [f"{share[1]} per cent"]
    measure = _MEASURE.fullmatch(gold)
    folded = analyse(measure[2]).tokens if measure else ()
    if measure is None or len(folded) != 1 or folded[0] not in _OTHER_UNIT:
        return []
    number = measure[1].replace(",", "")
    unit = _OTHER_UNIT[folded[0]]
    factor = UNITS[folded[0]][1] / UNITS[analyse(unit).tokens[0]][1]
    digits = len(number.replace(".", "").lstrip("0")) or 1
    converted = float(f"{float(number) * factor:.{digits}g}")
    return [f"{converted:,.{max(0, digits - len(str(int(converted))))}f} {unit}"]


def _number_rewordings(gold: str, texts: Sequence[str], question: str) -> list[str]:
    found: list[str] = []
    if re.fullmatch(r"\d{1,3}(?:,\d{3})+", gold):
        found.append(gold.replace(",", ""))
    elif re.fullmatch(r"\d{5,}", gold):
        found.append(f"{int(gold):,}")
    asked = set(fold(question))
    unit = re.compile(rf"(?<![\d,.]){re.escape(gold)}((?:\s+[a-z]+)+)")
    for text in texts if re.fullmatch(r"[\d,.]+", gold) else []:
        match = unit.search(text)
        words = match[1].split() if match else []
        kept = list(takewhile(lambda w: w in asked and w not in _NOT_UNITS, words))
        if kept:
            found.append(f"{gold} {' '.join(kept)}")
            break
    return found


def _initials_of(acronym: str, name: str) -> bool:
    """Whether the acronym's letters are the name's capitals, in order, from the first."""
    letters, capitals = acronym.replace(".", ""), [c for c in name if c.isupper()]
    rest = iter(capitals)
    return bool(capitals) and letters[:1] == capitals[0] and all(c in rest for c in letters)


def _aliases(gold: str, texts: Sequence[str]) -> list[str]:
    """An acronym of the answer or an alias ("also known as") the evidence gives in
    parentheses right after it, or the answer's acronym when the evidence states it."""
    found: list[str] = []
    alias = re.compile(rf"{re.escape(gold)} \(([^()]{{2,40}})\)")
    for text in texts:
        for match in alias.finditer(text):
            inner = match[1].strip()
            named = inner.removeprefix("also known as ")
            if _ACRONYM.fullmatch(inner) and _initials_of(inner, gold):
                found.append(inner)
            elif named != inner and _ALIAS.fullmatch(named):
                found.append(named)
    words = [w for w in re.findall(r"[\w'’.\-]+", gold) if w.casefold() not in _CONNECTORS]
    if len(words) >= 2 and all(w[:1].isupper() for w in words):
        acronym = "".join(w[0] for w in words)
        if any(re.search(rf"\b{acronym}\b", text) for text in texts):
            found.append(acronym)
    return found
