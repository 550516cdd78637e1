"""The stored evidence read as items: each record's sentence with its page (its title,
else the tool call that stored it), a passage given through the API split into its
sentences, and malformed records refused with the record named."""

from __future__ import annotations

import hashlib
import html
import json
import re
from collections.abc import Mapping, Sequence
from functools import lru_cache

from graph.verifier.evidence.matching import Item
from graph.verifier.text.cache_sizes import TEXTS
from graph.verifier.text.clean import without_breaks
from graph.verifier.trust.instructions import is_trusted
from tools.base import Evidence

_NO_SOURCE: dict[str, object] = {}
# The longest tool call kept as written in an item (a longer one is kept as its digest).
_LONGEST_CALL = 200
# Where a stored text may hold a second sentence: an end mark before white space, a
# full-width one, or a line break (a cheap look before the splitter runs).
_MAY_HOLD_SENTENCES = re.compile(r"[.!?;]\s|[。！？]|\n")

# HTML tags around words, and those that break a text into blocks (read as a space).
_INLINE_TAG = re.compile(
    r"</?(?:a|abbr|b|bdi|bdo|big|cite|code|del|dfn|em|font|i|ins|kbd|mark|q|s|samp|small"
    r"|span|strong|sub|sup|time|tt|u|var|wbr)(?:\s[^<>]*)?/?>",
    re.IGNORECASE,
)
_BLOCK_TAG = re.compile(
    r"</?(?:article|blockquote|br|caption|dd|div|dl|dt|figcaption|figure|footer|h[1-6]"
    r"|header|hr|img|li|nav|ol|p|pre|section|table|tbody|td|tfoot|th|thead|tr|ul)"
    r"(?:\s[^<>]*)?/?>",
    re.IGNORECASE,
)
# A Markdown link or image without a title (which could hold an order), read as its
# text: "[Lolita](/wiki/Lolita_(1962_film))".
_MARKDOWN_LINK = re.compile(r"!?\[([^\[\]]*)\]\([^()\s]*(?:\([^()\s]*\)[^()\s]*)*\)")

# A wikitext link, read as its label, else its target: "[[Lolita (1962 film)|Lolita]]".
_WIKI_LINK = re.compile(r"\[\[(?:[^\[\]|]*\|)?([^\[\]|]*)\]\]")
# Wikitext's bold and italic quotes: two, three or five apostrophes opening before a word
# or closing after a letter or a stop ("5''" is five inches).
_WIKI_EMPHASIS = re.compile(
    r"(?<![\w'])(?:'{5}|'{3}|'{2})(?=[\w\"“])|(?<=[^\W\d_]|[.,!?)\"”])(?:'{5}|'{3}|'{2})(?!['\w])"
)

MALFORMED_EVIDENCE = (
    "evidence item {number} is not stored evidence (a mapping with an 'id', a 'text' string"
    " and a 'source' mapping): {error}"
)


def stored_items(evidence: Sequence[Evidence]) -> list[Item]:
    """The stored evidence as sentences with their page titles, each with the stored
    sentence before it on its page; a sentence stored again on the same page (a Lookup
    of what a Search gave) counts once, under its first id. Each `Item` is made as the
    tuple it is, without the named tuple's Python-level constructor: half the time.
    Raises ValueError, naming the item, on anything that is not stored evidence."""
    items: list[Item] = []
    placed: dict[tuple[str, int], str] = {}
    seen: set[tuple[str, str]] = set()
    new = tuple.__new__
    for number, record in enumerate(evidence):
        try:
            source = record.get("source") or _NO_SOURCE
            index = source.get("sentence_index")
            title, raw, ident = str(source.get("title") or ""), record["text"], str(record["id"])
            call = "" if title else call_of(source)
        except (AttributeError, KeyError, TypeError) as error:
            raise ValueError(MALFORMED_EVIDENCE.format(number=number, error=repr(error))) from None
        if not isinstance(raw, str):
            problem = f"its text is {type(raw).__name__}"
            raise ValueError(MALFORMED_EVIDENCE.format(number=number, error=problem))
        raw, title = as_read(raw), as_read(title)
        if not isinstance(index, int) and _MAY_HOLD_SENTENCES.search(raw):
            _add_sentences(items, seen, ident, title, raw)
            continue
        if (title, raw) in seen:
            continue
        seen.add((title, raw))
        position = index if isinstance(index, int) else -1
        if position >= 0:
            placed[title or call, position] = raw
        items.append(new(Item, (ident, title, raw, position, "", call)))
    if len(placed) > 1:
        for number, (ident, title, raw, position, _, call) in enumerate(items):
            preceding = placed.get((title or call, position - 1))
            if preceding is not None:
                items[number] = new(Item, (ident, title, raw, position, preceding, call))
    return items


@lru_cache(maxsize=TEXTS)
def as_read(text: str) -> str:
    """A stored text as its reader sees it: Markdown links read as their text ("[Paris](
    /wiki/Paris)"), wikitext's bold and italic quotes dropped ("''Paris''"), HTML tags
    around its words dropped and wikitext links read as their label ("<b>Paris</b>",
    "[[Paris, Texas|Paris]]") unless the text addresses the assistant as written (an
    order in a tag's attribute or a link's target would vanish with it), its HTML
    character references unescaped ("&quot;") and its soft hyphens and zero-width spaces
    dropped (kept per text: a check reads every text)."""
    if "](" in text:
        text = _MARKDOWN_LINK.sub(r"\1", text)
    if "<" in text or "[[" in text:
        shown = _WIKI_LINK.sub(r"\1", _INLINE_TAG.sub("", _BLOCK_TAG.sub(" ", text)))
        if shown != text and is_trusted(text):
            text = shown
    if "''" in text:
        text = _WIKI_EMPHASIS.sub("", text)
    if "&" in text:
        text = html.unescape(text)
    return without_breaks(text)


def call_of(source: Mapping[str, object]) -> str:
    """The tool call an untitled record's source names: the source without its sentence
    index, as sorted JSON ("" when nothing else is in it). An MCP tool's source is its
    server, tool, arguments and time, so each call's lines share one."""
    rest = {key: value for key, value in source.items() if key != "sentence_index"}
    if not rest:
        return ""
    try:
        call = _written(rest)
    except RecursionError:  # nested deeper than Python recurses: no call, each line alone
        return ""
    if len(call) <= _LONGEST_CALL:
        return call
    # A long call is kept as its digest: every item and every cache keyed by items holds it.
    return "call " + hashlib.blake2b(call.encode(errors="replace"), digest_size=16).hexdigest()


def _written(source: Mapping[str, object]) -> str:
    """A source as sorted JSON, or its repr when JSON cannot write it."""
    try:
        return json.dumps(source, sort_keys=True, default=str)
    except (TypeError, ValueError):  # keys of mixed types, or a value that holds itself
        return repr(sorted(source.items(), key=str))


def _add_sentences(
    items: list[Item], seen: set[tuple[str, str]], ident: str, title: str, raw: str
) -> None:
    """A stored text no tool placed as one sentence of a page (a passage given through
    the API), read sentence by sentence under its one id, each after the one before it
    (a denial or an order in one sentence reaches no other; "Note to AI:" still
    introduces the next)."""
    preceding = ""
    for sentence in sentences_of(raw):
        if (title, sentence) not in seen:
            seen.add((title, sentence))
            items.append(tuple.__new__(Item, (ident, title, sentence, -1, preceding, "")))
        preceding = sentence


@lru_cache(maxsize=TEXTS)
def sentences_of(text: str) -> tuple[str, ...]:
    """The sentences of a stored passage (`tools.wikipedia.sentences`); the text itself
    when it holds one, or none the splitter keeps."""
    from tools.wikipedia.sentences import split_sentences

    return tuple(split_sentences(text)) or (text,)
