"""What only words an answer, read against the question or the evidence: the noun the
question asks for said around it ("The film is X.", "the film X", "11 songs" to "How many
songs ...?"), and a hedge before it ("Probably X") unless a stored sentence states the
whole reply ("Maybe I'm Amazed"). The words that word any answer alike are in
`graph.verifier.answer_forms`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from graph.verifier.answer_forms import core_answer
from graph.verifier.evidence.matching import Item, contains, may_state
from graph.verifier.kinds.question import analyse_question
from graph.verifier.text.initials import has_initial, written_with_initials
from graph.verifier.text.normalise import analyse, is_number, singular
from graph.verifier.text.variants import variants

# What a name, number or year opens with, after an article, quote or emphasis.
_NAMED = r"(?=(?:the |an? )?[\"“'‘*_]*[^\W_a-z])"
# "The film is X.", "The English comedian was X": a subject of up to four words, the last
# in lower case, and its verb.
_SUBJECT = re.compile(
    r"^(?:[Tt]he|[Ii]ts|[Hh]is|[Hh]er|[Tt]heir) ((?:[\w'’-]+\s+){0,3}?([a-z][\w'’-]*))"
    r"\s+(?:is|was|are|were|would be)\s+(?=\S)"
)
# "the film Crocodile Dundee", "the football club IK Start": lower-case words before the name.
_CATEGORY = re.compile(
    rf"^(?:[Tt]he|[Aa]n?) ((?:[a-z][\w'’-]*\s+){{0,3}}?([a-z][\w'’-]*))\s+{_NAMED}"
)
# "Zack Morris, the character": the noun after the name.
_APPOSITION = re.compile(r",\s+(?:the|an?) (?:[a-z][\w'’-]*\s+){0,3}([a-z][\w'’-]*)\.?$")
# How far from an answer's end an apposition is looked for.
_APPOSITION_REACH = 80
# What an ordinal ends with, in figures or in words ("2nd", "fifteenth", "first").
_ORDINAL = ("st", "nd", "rd", "th")
# "11 songs", "four members": a number and what it counts.
_COUNTED = re.compile(r"^(\d[\d,.]*|[A-Za-z]+(?:-[a-z]+)?)\s+([a-z][\w'’-]*)$")
# Words that hedge a whole answer ("Probably X", "Most likely X").
_HEDGE = re.compile(r"^(?:[Pp]robably|(?:[Mm]ost )?[Ll]ikely|[Pp]ossibly|[Pp]erhaps|[Mm]aybe),?\s+")
# The most hedges and lead-ins read off one answer ("Sure! It's probably X." has three).
_MOST_LEAD_INS = 4
# What a chatty reply puts before its answer: an interjection ("Sure! The answer is X."),
# "It's X", "Here is the answer: X", "My answer: X", a list's number ("1. X"); a title may
# open so ("It's a Wonderful Life", "1. FC Köln"), so it is dropped only when no stored
# sentence states the whole reply.
_LEAD_IN = re.compile(
    r"^(?:(?:[Ss]ure|[Oo]kay|OK|[Aa]lright|[Cc]ertainly|[Gg]reat question|[Gg]ot it)[!.,]\s+"
    r"|(?:[Ii]t|[Tt]hat)['’]s\s+"
    r"|(?:[Hh]ere(?: is|['’]s)(?: the| my)?|[Mm]y) (?:final )?answer(?: is)?:?\s+"
    r"|\d{1,2}[.)]\s+)"
)
# An initial "A." before a name, which `analyse` would drop as the article "a".
_INITIAL_A = re.compile(r"^A\.\s*[A-Z]")
# Honorifics a reply may put before a name that the evidence writes without ("Sir Paul
# McCartney" for "Paul McCartney"): never part of the name asked for.
_HONORIFIC = re.compile(
    r"^(?:Sir|Dame|Dr\.?|Doctor|Prof\.?|Professor|Mr\.?|Mrs\.?|Ms\.?|Rev\.?|Reverend|King"
    r"|Queen|Emperor|Empress|Pope|President)\s+(?=[A-Z])"
)
# A preposition a reply may put before a name ("during WWII", "at the University of X").
PREPOSITION = re.compile(r"^(?:[Ii]n|[Aa]t|[Oo]n|[Dd]uring|[Ff]rom)\s+(?=[A-Z])")
# An age said with its unit ("75 years old", "aged 75", "a 16-year-old"): the number.
_AGE = re.compile(
    r"^(?:(?:[Aa]ged?|[Aa]n?)\s+)?([\w.]+?)(?:[\s-]+(?:years?|yrs?)(?:[\s-]+old|\s+of\s+age)?)?\.?$"
)
# Words that join a name's parts, never the noun a question asks for.
_NEVER_ASKED = frozenset(("of", "the", "and", "in", "for", "de", "on", "at", "to", "by", "from"))


def _asks(question: str, word: str) -> bool:
    """The question uses the word (in the singular), a noun rather than a joining word."""
    tokens = analyse(word).tokens
    if not tokens or tokens[-1] in _NEVER_ASKED:
        return False
    return singular(tokens[-1]) in map(singular, analyse(question).tokens)


def _stated(text: str, items: Sequence[Item]) -> bool:
    """A trusted stored sentence states the text (those that cannot are never analysed,
    nor read for trust)."""
    folded = analyse(text)
    return any(contains(item.text, folded) and item.trusted for item in may_state(items, folded))


def without_subject(question: str, answer: str, items: Sequence[Item] = ()) -> str:
    """The answer without words that name what the question asks for around it: a subject
    ("The film is Crocodile Dundee." to "What film did ...?", "His middle name was
    Wroughton"), a noun before it ("the film Crocodile Dundee"), a count's noun after it
    ("11 songs" to "How many songs ...?"), or after a comma ("Zack Morris, the character"
    to "Which character ...?"). The word must be one of the question's, in the
    singular. A title capitalises its verb and its nouns ("The Sky Is Blue", "The Band
    Perry"), so it never matches. After a subject, a name, number or year is the answer;
    words in lower case only when a stored sentence (of `items`) states them and none the
    whole reply ("The machine is a microcomputer.", not the clause "The song was released
    in Britain")."""
    said = _SUBJECT.match(answer)
    if said is not None and _asks(question, said.group(2)):
        rest = core_answer(answer[said.end() :])
        a_name = re.match(_NAMED, rest) is not None
        if a_name or (_stated(rest, items) and not _stated(answer, items)):
            answer = rest
    category = _CATEGORY.match(answer)
    if category is not None and _asks(question, category.group(2)):
        return answer[category.end() :]
    apposed = _APPOSITION.search(answer, max(0, len(answer) - _APPOSITION_REACH))
    if apposed is not None and apposed.start() > 0 and _asks(question, apposed.group(1)):
        return answer[: apposed.start()]
    counted = _COUNTED.match(answer)
    if counted is not None and _asks(question, counted.group(2)) and _a_number(counted.group(1)):
        return counted.group(1)
    return answer


def _a_number(text: str) -> bool:
    """The text is one count, in figures or in words ("11", "four", "twenty-five"); an
    ordinal ("fifteenth", "2nd") is no count of what follows it."""
    tokens = analyse(text).tokens
    return len(tokens) == 1 and is_number(tokens[0]) and not text.lower().endswith(_ORDINAL)


def without_hedge(answer: str, items: Sequence[Item]) -> str:
    """The answer without a hedge or a lead-in before it ("Probably Lolita", "Most likely
    X", "Sure! X", "It's X"), unless a trusted stored sentence states the whole reply (the
    titles "Maybe I'm Amazed", "It's a Wonderful Life")."""
    for _ in range(_MOST_LEAD_INS):
        hedged = _HEDGE.match(answer) or _LEAD_IN.match(answer)
        if hedged is None or hedged.end() == len(answer) or _stated(answer, items):
            return answer
        answer = core_answer(answer[hedged.end() :])
    return answer


def as_written(answer: str, items: Sequence[Item]) -> str:
    """The answer as the evidence writes it when it writes it otherwise: without an
    honorific before a name ("Sir Paul McCartney"), in another writing of the same name
    (`graph.verifier.text.variants`: "Saint Louis" where a sentence gives "St. Louis",
    "WWII" for "World War II"), or with an initial a trusted sentence spells out ("John
    F. Kennedy" where it says "John Fitzgerald Kennedy"); unchanged when a trusted stored
    sentence states it as it is (or a longer writing of it: "United States of America"
    for "United States", which would otherwise be part of a longer name), or none of
    these. A name that spells out an initial a sentence gives says more than it, and is
    left as it is (`graph.verifier.rules.named_otherwise` grounds it)."""
    honorific = _HONORIFIC.match(answer)
    others = list(variants(answer))
    initialled = has_initial(answer)
    if not items or (honorific is None and not others and not initialled):
        return answer
    if _INITIAL_A.match(answer):  # "A. Mali" is no article and "Mali"
        found = _with_initials(answer, items)
        if found is not None:
            return found
    if _stated(answer, items):
        longer = (other for other in others if answer in other)
        return next((other for other in longer if _stated(other, items)), answer)
    if honorific is not None and _stated(answer[honorific.end() :], items):
        return answer[honorific.end() :]
    written = next((other for other in others if _stated(other, items)), None)
    if written is not None or not initialled:
        return written or answer
    return _with_initials(answer, items) or answer


def _with_initials(answer: str, items: Sequence[Item]) -> str | None:
    """The name a trusted sentence or page title writes in full where the answer gives an
    initial ("Tim Conway" for "T. Conway"), or None (also when the answer spells out an
    initial the evidence gives)."""
    trusted = [item for item in items if item.trusted]
    written_in = (*(item.raw for item in trusted), *dict.fromkeys(item.title for item in trusted))
    found = written_with_initials(answer, written_in)
    return found[0] if found is not None and not found[1] else None


def without_preposition(answer: str, items: Sequence[Item]) -> str:
    """A name without the preposition a reply put before it ("during WWII", "at Harvard"),
    when no stored sentence states the whole and a trusted one writes the name (or another
    writing of it) as it is, capitals and all: "At Last", stated nowhere, never becomes
    "Last", which "the last album" would state."""
    led = PREPOSITION.match(answer)
    if led is None or not items or _stated(answer, items):
        return answer
    name = answer[led.end() :]
    writings = (name, *variants(name))
    written = any(item.trusted for item in items if any(w in item.raw for w in writings))
    return name if written else answer


def without_age_unit(question: str, answer: str) -> str:
    """An age without its unit ("75 years old", "aged 75") when the question asks an age
    ("How old ...?", "at what age"): a sentence may give it bare ("at the age of 75")."""
    lowered = answer.lower()
    if "year" not in lowered and "yr" not in lowered and "age" not in lowered:
        return answer  # no unit to drop: most answers
    aged = _AGE.match(answer) if analyse_question(question).asks_age else None
    if aged is None or aged.group(1) == answer:
        return answer
    tokens = analyse(aged.group(1)).tokens
    return aged.group(1) if len(tokens) == 1 and tokens[0].isdecimal() else answer


def as_said(question: str, answer: str, items: Sequence[Item]) -> str:
    """The answer without a hedge, then without the words that name what is asked, an
    age's unit or a preposition before a name, as the evidence writes it."""
    said = without_subject(question, without_hedge(answer, items), items)
    said = without_age_unit(question, said)
    return as_written(without_preposition(said, items), items)
