"""Which of a question's two alternatives an answer names (the one sharing more of its
words), and how: whole, in part ("Sharapova" or
"Maria Yuryevna" for "Maria Sharapova": grounded, the name may be another's), or
joined to another name ("Maria Sharapova and Johanna Konta" for "Who is older, Maria
Sharapova or Heather Watson?": rejected, it chooses neither). A name that holds a joiner
itself ("Laurel and Hardy", "Simon & Garfunkel") is one name: each part of it shares a
word with the alternative; and an answer that describes ("Tom DiCillo, an American
director and cinematographer") is no list of names."""

from __future__ import annotations

import re

from graph.verifier.read.check import Check
from graph.verifier.text.normalise import Text, analyse, split_words
from graph.verifier.text.wordstems import STOPWORDS
from graph.verifier.verdicts import reject
from tools.base import Verdict

REASON_PARTIAL_CHOICE = "But {answer!r} gives only part of the name {name!r}."
REASON_JOINED_CHOICE = (
    "The question asks to choose one of {alternatives}; {answer!r} joins {other!r} to"
    " {name!r}, which chooses neither."
)

_PARTICLES = frozenset(
    split_words("of the de del della di da du des la le les von van der den y e on in for at to")
)
_JOINER = re.compile(r"\s+(?:and|&)\s+|\s*&\s*", re.IGNORECASE)


def names_same(answer: Text, name: Text) -> bool:
    """One name's words include the other's (`Irwin Shaw` ~ `Irwin Gilbert Shaw`)."""
    return set(answer.tokens) <= set(name.tokens) or set(name.tokens) <= set(answer.tokens)


def alternative(answer: Text, pair: tuple[Text, ...]) -> int | None:
    """Which of the two alternatives the answer names, if exactly one."""
    scores = [len(set(answer.tokens).intersection(name.tokens) - STOPWORDS) for name in pair]
    best = max(scores, default=0)
    if best == 0 or scores.count(best) > 1:
        return None
    return scores.index(best)


def named_alternatives(pair: tuple[Text, ...]) -> str:
    """The question's two alternatives as a reason names them: "'a' or 'b'"."""
    return " or ".join(repr(" ".join(name.tokens)) for name in pair)


def joined_choice(check: Check, chosen: int) -> Verdict | None:
    """A rejection when the answer joins another name to the chosen alternative (nothing
    is missing from the evidence: the answer's form is wrong), or None."""
    other = joined_other(check, chosen)
    if other is None:
        return None
    reason = REASON_JOINED_CHOICE.format(
        alternatives=named_alternatives(check.q.pair),
        answer=check.answer,
        other=other,
        name=" ".join(check.q.pair[chosen].tokens),
    )
    return reject(reason, [])


def partial_choice(check: Check, chosen: int) -> bool:
    """The answer names the chosen alternative by fewer of its words than the question,
    or without its last word ("Maria Yuryevna" for "Maria Sharapova"; "Maria Yuryevna
    Sharapova" names it whole)."""
    if not check.q.pair:
        return False
    name = check.q.pair[chosen].tokens
    answer = set(check.folded.tokens)
    return answer < set(name) or (len(name) > 1 and name[-1] not in answer)


def joined_other(check: Check, chosen: int) -> str | None:
    """A part of an answer made only of names joined by "and" or "&" that shares no word
    with the chosen alternative: another name the answer adds to it (an answer that
    describes, "Tom DiCillo, a director and cinematographer", is no list of names)."""
    if not check.q.pair:
        return None
    parts = [part.strip() for part in _JOINER.split(check.answer)]
    if len(parts) < 2 or not all(map(_name_like, parts)):
        return None
    name = set(check.q.pair[chosen].tokens) - STOPWORDS
    for part in parts:
        words = set(analyse(part).tokens) - STOPWORDS
        if words and words.isdisjoint(name):
            return part
    return None


def _name_like(part: str) -> bool:
    """Every word is capitalised, a particle of a name, or no word ("Robert "Throb"
    Young", "Top 100 Metal Vocalists of All Time"): a name, not a description."""
    words = part.split()
    return bool(words) and words[0][:1].isupper() and all(map(_name_word, words))


def _name_word(word: str) -> bool:
    first = word[:1]
    return not first.isalpha() or first.isupper() or word in _PARTICLES
