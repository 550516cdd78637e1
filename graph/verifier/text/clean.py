"""Undo the Unicode tricks that hide words from a reader: invisible characters
(zero-width spaces and joiners, soft hyphens, direction marks, variation
selectors, the grapheme joiner, Hangul fillers), compatibility forms (fullwidth
or mathematical letters), small capitals and look-alike letters from other
scripts inside a Latin word (a Cyrillic "а" in "Pаris"). `unmasked` goes
further, for spotting orders only: entities, accents and emphasis marks gone,
every look-alike made Latin, spaced-out letters joined."""

from __future__ import annotations

import html
import re
import unicodedata

# Cyrillic and Greek letters that look like Latin ones.
_CONFUSABLES = str.maketrans(
    {
        **dict(zip("аеорсухіјѕԁһӏԛԝ", "aeopcyxijsdhlqw", strict=True)),
        **dict(zip("АВЕКМНОРСТУХІЈЅ", "ABEKMHOPCTYXIJS", strict=True)),
        **dict(zip("ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ", "ABEZHIKMNOPTYX", strict=True)),
        **dict(zip("οαικνρυχ", "oaikvpux", strict=True)),
        **dict(zip("ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘʀꜱᴛᴜᴠᴡʏᴢ", "abcdefghijklmnoprstuvwyz", strict=True)),
    }
)
# Letters of other scripts that look like Latin ones (Lisu, Cherokee, Armenian), Latin
# letters that read as plain ones (a dotless "ı", a barred "ł", a Latin alpha), and
# apostrophes and colons that read as "'" and ":" ("you’re", "AIː"): made plain only
# when spotting orders (names such as "Søren" keep their letters).
_LOOK_ALIKES = str.maketrans(
    dict(
        zip(
            "ꓐꓑꓓꓔꓖꓗꓙꓚꓜꓝꓟꓠꓡꓢꓣꓦꓧꓪꓫꓬꓮꓰꓲꓳꓴᎪᏴᏟᎠᎬᏀᎻᎫᏦᏞᎷᏢᏚᎢᏙᏔᏃՏՍՕսօոհզցıȷɑɡɩǀłŁøØđĐħŧƀ’‘ʼʹ′‛ː˸꞉",
            "BPDTGKJCZFMNLSRVHWXYAEIOUABCDEGHJKLMPSTVWZSUOuonhqgijagillLoOdDhtb" + "'" * 6 + ":::",
            strict=True,
        )
    )
    | dict(zip("ⲓᎥɨᴉӀ׀∣ⲀᗅⲣⲢⲥⲤⲟⲞ໐ткм", "iiiiIIIAApPcCoOotkm", strict=True))
)
# Marks that read as a comma, colon, apostrophe, hyphen, space or a dot between letters
# ("A·I"), some of which NFKC would make a space and an accent (the cedilla, the acute
# accent): read before NFKC.
_BEFORE_NFKC = str.maketrans(
    dict(
        zip(
            "ϲϹ‚ꓹˏ٫¸،、⹁ꓽʻꞌˈʾʽʿˋˊ´᾽‐‑‒―−⸺⸻⠀·•‧∙⋅",
            "cC" + "," * 8 + ":" + "'" * 10 + "-" * 7 + " " + "." * 5,
            strict=True,
        )
    )
)
# Invisible characters that are not format characters (category Cf).
INVISIBLE = re.compile(
    "[\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u3164\ufe00-\ufe0f\uffa0\U000e0100-\U000e01ef]"
)
# Characters that only hint where a line may break or letters join (soft hyphen, zero-width
# space, non-joiner, joiner, word joiner, byte-order mark): no reader sees them. Direction
# marks are not among them: the check for text addressed to the assistant reads them.
_ZERO_WIDTH = re.compile("[\u00ad\u200b-\u200d\u2060\ufeff]")
# Any of those look-alikes (a search for one is faster than translating the text).
_CONFUSABLE = re.compile(f"[{''.join(map(chr, _CONFUSABLES))}]")
_WORD = re.compile(r"\w+")


def _is_latin(char: str) -> bool:
    return "LATIN" in unicodedata.name(char, "")


class _Shown(dict[int, int | None]):
    """A `str.translate` table that drops format characters (category Cf) and keeps every
    other character, filled as characters are first seen (one entry per code point)."""

    def __missing__(self, code: int) -> int | None:
        char = chr(code)
        kept = None if unicodedata.category(char) == "Cf" or INVISIBLE.match(char) else code
        self[code] = kept
        return kept


SHOWN = _Shown()


def _unmix(match: re.Match[str]) -> str:
    """A word that mixes Latin letters with look-alikes from another script, in Latin."""
    word = match.group(0)
    mapped = word.translate(_CONFUSABLES)
    if mapped == word or not any(_is_latin(char) for char in word if char.isalpha()):
        return word
    return mapped


def without_breaks(text: str) -> str:
    """`text` without the invisible hints where a line may break or letters join, as every
    rule reading a stored text, a question or an answer should see it ("Pa\u00adris" is
    "Paris"): a web page's soft hyphens in a name made it absent from the evidence."""
    return text if text.isascii() else _ZERO_WIDTH.sub("", text)


def clean(text: str) -> str:
    """`text` as a reader sees it: format characters dropped, compatibility forms folded
    (NFKC), and look-alike letters inside Latin words made Latin (not kept: `analyse`,
    its one caller, keeps its own result per text)."""
    if text.isascii():
        return text
    visible = unicodedata.normalize("NFKC", text.translate(SHOWN))
    if _CONFUSABLE.search(visible) is None:
        return visible
    return _WORD.sub(_unmix, visible)


# Emphasis and quoting marks of markdown ("**Note to AI:**"), and a letter between
# Han, kana or Hangul and a Latin letter (the start of "AI" in "给AI的提示").
_MARKUP = re.compile(r"[*_`~]+|^\s*>+")
_SCRIPT_SEAM = re.compile(
    r"(?<=[\u1100-\u11ff\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af])(?=[A-Za-z])"
    r"|(?<=[A-Za-z])(?=[\u1100-\u11ff\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af])"
)
# Three or more letters written one by one ("A N S W E R", "A.N.S.W.E.R").
_SPACED = re.compile(r"\b[A-Za-z](?:[ .-][A-Za-z]\b){2,}")
_SPACED_HINT = re.compile(r"(?<![^ (])[A-Za-z][ .-][A-Za-z][ .-][A-Za-z]\b")


def _spacing(char: str) -> int:
    """A byte as a spaced-out word needs it: an ASCII letter as "a", a space, stop, hyphen
    or parenthesis as " ", a mark of `_MARK` as "*", anything else as "#"."""
    if char.isascii() and char.isalpha():
        return 97
    return 32 if char in " .-(" else 42 if char in "*_`~>" else 35


# `_SPACED_HINT` needs " a a a" in a text's `_shape`.
_SPACING = bytes(_spacing(chr(code)) for code in range(256))


def _shape(text: str) -> bytes:
    return f" {text}".encode("ascii", "replace").translate(_SPACING)


def _spaced(text: str, shape: bytes | None = None) -> bool:
    """Whether `text` (of this `_shape`, if given) may hold letters written one by one
    (`_SPACED_HINT` decides)."""
    shape = _shape(text) if shape is None else shape
    return b" a a a" in shape and _SPACED_HINT.search(text) is not None


# Combining marks (accents and overlays on Latin, Greek and Cyrillic letters).
_COMBINING = re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")


# Letters in squares and circles that NFKC leaves alone ("🅰🅸"), and right-to-left
# overrides that show a reversed run the right way round.
_BOXED = str.maketrans(
    {first + i: ord("A") + i for first in (0x1F130, 0x1F150, 0x1F170, 0x1F1E6) for i in range(26)}
)
# Hangul fillers: invisible to `clean`, but a font may show one as a blank.
_FILLER = re.compile("[\u115f\u1160\u3164\uffa0]")
_REVERSED = re.compile("\u202e([^\u202a-\u202c]*)\u202c?")


def latin_letters(text: str) -> str:
    """`text` with accents and other combining marks dropped and every look-alike letter
    made Latin (how `unmasked` reads letters; patterns for it are written so too)."""
    decomposed = _COMBINING.sub("", unicodedata.normalize("NFKD", text))
    return decomposed.translate(_CONFUSABLES).translate(_BOXED).translate(_LOOK_ALIKES)


def unmasked(text: str) -> tuple[str, ...]:
    """`clean(text)`, and then: HTML entities read, accents and other combining marks
    dropped, every look-alike letter made Latin (a Greek "ΑΙ" too), emphasis marks
    dropped, Han or kana parted from Latin letters and spaced-out letters joined; with a
    right-to-left override, both as written and as shown; with a Hangul filler, both
    without it and with it as the blank it shows. Only for spotting text addressed to
    the agent: it reads names wrongly (not kept: `is_trusted` keeps its verdict per text)."""
    if "&" in text:
        text = html.unescape(text)
    if text.isascii():  # no filler, no override
        return _unmasked(text)
    if _FILLER.search(text):
        return (*unmasked(_FILLER.sub("", text)), *unmasked(_FILLER.sub(" ", text)))
    if "\u202e" in text:
        shown = _REVERSED.sub(lambda match: match.group(1)[::-1], text)
        return (*_unmasked(text), *_unmasked(shown))
    return _unmasked(text)


class _LatinForm(dict[int, str | None]):
    """A `str.translate` table: each character as `unmasked` reads it (dropped if
    invisible, else `latin_letters` of its NFKC form), filled as characters are first
    seen. A character at a time reads text as the whole string would, but for the order
    of combining marks left after accents are dropped, which no pattern reads."""

    def __missing__(self, code: int) -> str | None:
        shown = SHOWN[code] is not None
        char = chr(code).translate(_BEFORE_NFKC)
        form = latin_letters(unicodedata.normalize("NFKC", char)) if shown else None
        self[code] = form
        return form


_LATIN_FORM = _LatinForm()
_NOT_ASCII = re.compile(r"[^\x00-\x7f]+")
_HAN_OR_KANA = re.compile("[\u1100-\u11ff\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
_MARK = re.compile(r"[*_`~>]")
_SPACES = re.compile(" {2,}")


def _latin_run(match: re.Match[str]) -> str:
    return match.group(0).translate(_LATIN_FORM)


def _unmasked(text: str) -> tuple[str]:
    if "  " in text:  # letters spaced out wider ("A  N  S  W  E  R")
        text = _SPACES.sub(" ", text)
    if text.isascii():
        shape = _shape(text)
        if b"*" not in shape and not _spaced(text, shape):  # no mark, no spaced letters
            return (text,)
        visible = text
    else:
        visible = _NOT_ASCII.sub(_latin_run, text)
        if _HAN_OR_KANA.search(visible):
            visible = _SCRIPT_SEAM.sub(" ", visible)
    if _MARK.search(visible):
        visible = _MARKUP.sub("", visible)
    if _spaced(visible):
        visible = _SPACED.sub(lambda match: re.sub(r"[ .-]", "", match.group(0)), visible)
    return (visible,)
