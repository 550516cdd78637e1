"""Stems for comparing a question's words with a sentence's: irregular forms brought
together ("born" ~ "birth", "wrote" ~ "written"), -ed/-ing dropped, prepositions and
stopwords left out."""

from __future__ import annotations

from functools import lru_cache

from graph.verifier.text.cache_sizes import TEXTS, WORDS
from graph.verifier.text.normalise import singular, split_words

STOPWORDS = frozenset(
    split_words(
        "a an the and or but of in on at to for from by with as into onto about over under after"
        " before between than then that this these those it its he she they his her their them him"
        " who whom whose which what when where why how is are was were be been being do does did"
        " has have had can could will would should may might also both same other one 1 not no yes"
        " there here name named known called first more most during while such only any all some"
        " each many much well"
    )
)


@lru_cache(maxsize=WORDS)
def stem(token: str) -> str:
    """A crude stem for topical overlap; empty for stopwords."""
    return "" if token in STOPWORDS else singular(token)[:5]


@lru_cache(maxsize=TEXTS)
def stems(padded: str) -> frozenset[str]:
    """The content-word stems of a padded folded text."""
    return frozenset(map(stem, padded.split())) - {""}


# Irregular forms that a crude stem does not bring together.
_IRREGULAR = {
    **dict.fromkeys(split_words("birth births birthplace birthdate birthday"), "born"),
    **dict.fromkeys(split_words("died dies death deaths dead"), "die"),
    **dict.fromkeys(split_words("wrote written writing writes"), "write"),
    **dict.fromkeys(split_words("sang sung singing sings"), "sing"),
    **dict.fromkeys(split_words("won winning winner winners wins"), "win"),
    **dict.fromkeys(split_words("built building builds"), "build"),
    **dict.fromkeys(split_words("made making makes maker"), "make"),
    **dict.fromkeys(split_words("began begun beginning begins"), "begin"),
    **dict.fromkeys(split_words("led leads leading leader"), "lead"),
    **dict.fromkeys(split_words("taught teaches teaching teacher"), "teach"),
    **dict.fromkeys(split_words("held holds holding"), "hold"),
    **dict.fromkeys(split_words("became becomes becoming"), "become"),
    **dict.fromkeys(split_words("fought fights fighting"), "fight"),
    **dict.fromkeys(split_words("grew grown grows growing"), "grow"),
    **dict.fromkeys(split_words("knew known knows"), "know"),
    **dict.fromkeys(split_words("lost loses losing"), "lose"),
    **dict.fromkeys(split_words("met meets meeting"), "meet"),
    **dict.fromkeys(split_words("spoke spoken speaks speaking speaker"), "speak"),
    **dict.fromkeys(split_words("took taken takes taking"), "take"),
    **dict.fromkeys(split_words("gave given gives giving"), "give"),
    **dict.fromkeys(split_words("sold sells selling"), "sell"),
    **dict.fromkeys(split_words("bought buys buying"), "buy"),
    **dict.fromkeys(split_words("starred starring stars"), "star"),
    **dict.fromkeys(split_words("song songs track tracks"), "song"),
    **dict.fromkeys(
        split_words(
            "found founded founding founds foundation form formed forming forms formation"
            " establish established establishment"
        ),
        "found",
    ),
    **dict.fromkeys(split_words("located location locations"), "locat"),
    **dict.fromkeys(split_words("lived lives living"), "live"),
    **dict.fromkeys(split_words("married marries marrying marriage"), "marry"),
    # Past forms that share no crude stem with the present a question asks in ("When did
    # the Berlin Wall fall?" for "The Berlin Wall fell ..."); forms that are also common
    # nouns or adjectives ("saw", "rose", "left", "felt", "shot", "lay") are left out.
    **dict.fromkeys(split_words("fell fallen falls falling"), "fall"),
    **dict.fromkeys(split_words("ran runs running"), "run"),
    **dict.fromkeys(split_words("came comes coming"), "come"),
    **dict.fromkeys(split_words("went gone goes going"), "go"),
    **dict.fromkeys(split_words("drew drawn draws drawing"), "draw"),
    **dict.fromkeys(split_words("flew flown flies flying"), "fly"),
    **dict.fromkeys(split_words("chose chosen chooses choosing"), "choose"),
    **dict.fromkeys(split_words("threw thrown throws throwing"), "throw"),
    **dict.fromkeys(split_words("wore worn wears wearing"), "wear"),
    **dict.fromkeys(split_words("sank sunk sinks sinking"), "sink"),
    **dict.fromkeys(split_words("brought brings bringing"), "bring"),
    **dict.fromkeys(split_words("caught catches catching"), "catch"),
    **dict.fromkeys(split_words("kept keeps keeping"), "keep"),
    **dict.fromkeys(split_words("sent sends sending"), "send"),
    **dict.fromkeys(split_words("spent spends spending"), "spend"),
    **dict.fromkeys(split_words("fled flees fleeing"), "flee"),
    **dict.fromkeys(split_words("rode ridden rides riding"), "ride"),
    **dict.fromkeys(split_words("drove driven drives driving"), "drive"),
    **dict.fromkeys(split_words("broke broken breaks breaking"), "break"),
    **dict.fromkeys(split_words("told tells telling"), "tell"),
    **dict.fromkeys(split_words("paid pays paying"), "pay"),
    **dict.fromkeys(split_words("hid hidden hides hiding"), "hide"),
    **dict.fromkeys(split_words("struck strikes striking"), "strike"),
    **dict.fromkeys(split_words("swam swum swims swimming"), "swim"),
    **dict.fromkeys(split_words("stole stolen steals stealing"), "steal"),
    **dict.fromkeys(split_words("froze frozen freezes freezing"), "freeze"),
    **dict.fromkeys(split_words("stood stands standing"), "stand"),
}
# The roots the irregular forms map to (a set: a scan of the dict's values cost more).
_IRREGULAR_ROOTS = frozenset(_IRREGULAR.values())
_PREPOSITIONS = frozenset(
    split_words(
        "through via across along within without among amongst toward towards upon against"
        " despite per beside besides beyond near inside outside throughout"
    )
)
_SHORTEST_ROOT = 3


@lru_cache(maxsize=WORDS)
def cue_stem(token: str) -> str:
    """A token's stem for cue matching ("" for stopwords and prepositions), irregular forms
    brought together, -ed/-ing and a final -e dropped ("served" ~ "serve" ~ "serving")."""
    if token in _PREPOSITIONS:
        return ""
    token = _IRREGULAR.get(token, token)
    if token not in _IRREGULAR_ROOTS:
        for ending in ("ed", "ing"):
            if token.endswith(ending) and len(token) - len(ending) >= _SHORTEST_ROOT:
                token = token[: -len(ending)]
                break
    stemmed = stem(token)
    return stemmed[:-1] if len(stemmed) > _SHORTEST_ROOT and stemmed.endswith("e") else stemmed


# The shortest words a swap, a letter left out (or added) and a letter changed are read in
# by default.
SWAP_LENGTH = 5
GAP_LENGTH = 6
CHANGE_LENGTH = 8
# The shortest word a misspelling of a name is read in: shorter words are one letter
# apart from many others ("band", "bend").
SHORTEST_MISSPELT = 5


def one_typo_apart(
    word: str,
    other: str,
    *,
    gap_length: int = GAP_LENGTH,
    change_length: int = CHANGE_LENGTH,
    swaps: bool = True,
) -> bool:
    """The two words differ by one letter left out, added, changed or (with `swaps`) two
    letters swapped ("diectors" ~ "directors", "stuido" ~ "studio"), both being long
    enough to tell: `SWAP_LENGTH` letters at least, and `gap_length` for a letter left
    out, `change_length` for one changed."""
    shorter = min(len(word), len(other))
    if shorter < SWAP_LENGTH or abs(len(word) - len(other)) > 1:
        return False
    start = 0
    while start < shorter and word[start] == other[start]:
        start += 1
    a, b = word[start:], other[start:]
    if len(a) != len(b):
        return shorter >= gap_length and (a[1:] == b or a == b[1:])
    swapped = swaps and len(a) > 1 and a[:2] == b[1::-1] and a[2:] == b[2:]
    return swapped or (shorter >= change_length and a[1:] == b[1:])


def misspelt(word: str, other: str) -> bool:
    """Whether a name's word is the other with one letter changed, added or dropped inside
    it ("silotro" for "spilotro", "ramola" for "romola"): both at least
    `SHORTEST_MISSPELT` letters, the first letter the same, and neither the other with an
    ending added ("joke" and "joker", "russia" and "russian" are other words)."""
    if word == other or word[:1] != other[:1] or word.startswith(other) or other.startswith(word):
        return False
    return one_typo_apart(
        word, other, gap_length=SHORTEST_MISSPELT, change_length=SHORTEST_MISSPELT, swaps=False
    )
