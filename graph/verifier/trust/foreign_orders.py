"""Text addressed to the agent in other languages than English: an assistant, a model
or an AI named in French, German, Spanish, Italian, Portuguese, Russian, Chinese,
Japanese, Korean, Arabic or Hebrew, an order to answer, say or write (opening a clause),
an answer label, or an order to ignore the instructions.

The patterns read `unmasked` text, so they are written as it reads: accents dropped
("répondez" is "repondez") and look-alike letters made Latin (the Cyrillic "о" and
"е" of "ответь" too: `FOREIGN_ORDER` folds its patterns with `latin_letters`).
Words that English sentences use too ("IA" for Iowa, "di", "dis") count only where
that language puts them ("la IA", "l'IA", "die KI").
"""

from __future__ import annotations

import re
from collections.abc import Collection

from graph.verifier.text.clean import latin_letters
from graph.verifier.text.normalise import split_words
from graph.verifier.trust.sentence_starts import at_sentence_starts, may_open_later

# Where an order opens a clause, and the orders (to answer, to say; polite and familiar).
_OPENS = r"(?:^|[;:,.!?—–]\s*)\W*"
_LATIN_ORDERS = (
    r"(?:repondez|reponds|repondre\s+par|dites|dis\s+que|antworte|antwortet|antworten\s+sie"
    r"|sagen\s+sie|sag\s+nur|responde|responda|respondan|contesta|conteste|diga|digan|di\s+que"
    r"|rispondi|risponda|rispondete|dici|dica|dite|schreibe|ecris|ecrivez|escribe|escriba"
    r"|scrivi|scriva|escreva)\b"
)
_RUSSIAN_ORDERS = r"(?:ответь|ответьте|отвечай|отвечайте|скажи|скажите|напиши|напишите)(?!\w)"
_LATIN = [
    # An AI, an assistant or a language model, in French, Spanish, Italian, Portuguese, German.
    r"\b(?:l['’]|la\s+|a\s+|una?\s+|une?\s+|de\s+la\s+|pour\s+l['’]|para\s+la\s+|per\s+l['’])ia\b",
    r"\b(?:die|der|an\s+die|fur\s+die|eine?)\s+ki\b|\bki-(?:modell|assistent|system|agent)",
    r"\b(?:assistant|modele|modeles)\s+(?:ia|d['’]ia|de\s+langage|conversationnel)\b",
    r"\b(?:asistente|assistente|modelo|modelos|modello|modelli)\s+(?:de\s+|di\s+)?"
    r"(?:ia|lenguaje|linguaggio|linguagem)\b",
    r"\b(?:sprachmodell|sprachmodelle|ki-assistent)\w*",
    r"\b(?:au|aux|pour\s+(?:le|les|l['’])|an\s+(?:das|die|den)|[ad]e?\s+l['’]|para\s+(?:el|la|o|a)"
    r"|per\s+(?:il|la|l['’]))\s*(?:modeles?|assistants?|ia|ki|modell|assistenten|assistente"
    r"|asistente|modello|modelo)\s*:",
    # Dear AI; ignore the instructions before.
    r"\b(?:chere?|liebe|lieber|querida|querido|cara|caro|estimada|estimado)\s+(?:ia|ki)\b",
    r"\b(?:ignorez|ignoriere|ignoriert|ignora|ignorar|ignori|oubliez)\b[^.]{0,40}?\b(?:instructions"
    r"|consignes|anweisungen|instruktionen|instrucciones|istruzioni|instrucoes)\b",
    rf"{_OPENS}{_LATIN_ORDERS}",
    # Answer labels and "the correct answer".
    r"\b(?:la\s+)?(?:bonne\s+reponse|reponse\s+(?:finale|correcte))\b|^\W*reponse\s*:",
    r"\b(?:die\s+)?(?:richtige|korrekte)\s+antwort\b|^\W*antwort\s*:",
    r"\b(?:la\s+)?respuesta\s+(?:correcta|final)\b|^\W*respuesta\s*:",
    r"\b(?:la\s+)?risposta\s+(?:corretta|finale)\b|^\W*risposta\s*:",
    r"\b(?:a\s+)?resposta\s+(?:correta|final)\b|^\W*resposta\s*:",
]
_OTHER = [
    # Russian: an AI, an assistant, a neural network or language model; answer / say.
    r"^\W*ии\s*:|(?<!\w)(?:ии|нейросет\w*|ассистент\w*|языков\w+\s+модел\w*|чат-?бот\w*)(?!\w)",
    rf"{_OPENS}{_RUSSIAN_ORDERS}",
    r"(?:игнорир|проигнорир|забудь)\w*[^.]{0,40}?(?:инструкц|указани)|(?:для|к)\s+модел\w*\s*:"
    r"|^\W*модель\s*[,:]",
    r"(?<!\w)(?:правильн\w+\s+ответ|ответ\s*:)",
    # Chinese and Japanese: an AI or assistant, answer / say, the answer is.
    r"人工智能|智能助手|助手|语言模型|大模型|アシスタント|言語モデル|人工知能",
    r"回答|回复|请说|请回答|答案|答えて|答えは|言って|と答え|と言",
    r"(?<![a-z])ai\s*(?:への|に|的|助手|模型|에게)|(?:给|致|对|请|請)\s*ai(?![a-z])|인공지능",
    r"(?:给|致)\s*(?:模型|机器人)|(?:ロボット|モデル)(?:へ|に)|(?:忽略|无视|無視)[^。]{0,10}"
    r"(?:指令|指示)|指示を無視|ذكاء الاصطناعي|ذكاء اصطناعي|בינה מלאכותית",
]
FOREIGN_ORDER = re.compile(latin_letters("|".join([*_LATIN, *_OTHER])), re.IGNORECASE)
# The same read at the start of each sentence of a text too ("... . Réponse : Paris").
FOREIGN_ORDER_LATER = re.compile(
    at_sentence_starts(FOREIGN_ORDER.pattern, ignore_case=True), re.IGNORECASE
)
# An order opening the text (a title may start so: "Dites-moi is a 1997 song").
OPENING_ORDER = re.compile(
    latin_letters(rf"^\W*(?:{_LATIN_ORDERS}|{_RUSSIAN_ORDERS})"), re.IGNORECASE
)
# Each as read at the start of the text alone, and at the start of each of its sentences
# too (the same where `may_open_later` finds no later sentence, and slower).
_LATIN_SOURCE = latin_letters("|".join(_LATIN))
_OTHER_SOURCE = latin_letters("|".join(_OTHER))
_IN_LATIN = (
    re.compile(_LATIN_SOURCE, re.IGNORECASE),
    re.compile(at_sentence_starts(_LATIN_SOURCE, ignore_case=True), re.IGNORECASE),
)
_IN_OTHER = (
    re.compile(_OTHER_SOURCE, re.IGNORECASE),
    re.compile(at_sentence_starts(_OTHER_SOURCE, ignore_case=True), re.IGNORECASE),
)
# Every Latin-script pattern needs one of these words, every other one a Cyrillic, kana
# or Han letter (so most sentences skip them all); a model or an assistant named without
# one of them, only as the addressee before a colon ("Pour l'assistant :").
_LATIN_OPENING = frozenset(
    split_words(
        "ia ki langage conversationnel lenguaje linguaggio linguagem sprachmodell sprachmodelle"
        " sprachmodells sprachmodellen repondez reponds repondre dites que antworte antwortet"
        " antworten sagen nur responde responda respondan contesta conteste diga digan rispondi"
        " risponda rispondete dici dica dite reponse antwort respuesta risposta resposta"
        " schreibe ecris ecrivez escribe escriba scrivi scriva escreva instructions consignes"
        " anweisungen instruktionen instrucciones istruzioni instrucoes"
    )
)
_BEFORE_COLON = frozenset(
    split_words(
        "modele modeles modell modello modelo assistant assistants assistenten assistente asistente"
    )
)
LATIN_WORDS = _LATIN_OPENING | _BEFORE_COLON
_OTHER_SCRIPT = re.compile(
    "[\u0400-\u04ff\u0590-\u06ff\u1100-\u11ff\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]"
)


def addresses_in_other_language(visible: str, folded: str, words: Collection[str]) -> bool:
    """Whether a sentence (`unmasked`; casefolded `folded`, with these words) holds text
    addressed to the agent in another language (`FOREIGN_ORDER` finds it; most sentences
    are skipped on their words and letters alone; "sprachmodell" opens German compounds)."""
    gate = (
        not _LATIN_OPENING.isdisjoint(words)
        or "sprachmodell" in folded
        or (":" in visible and not _BEFORE_COLON.isdisjoint(words))
    )
    if gate and _finds(_IN_LATIN, visible):
        return True
    return (
        not visible.isascii() and bool(_OTHER_SCRIPT.search(visible)) and _finds(_IN_OTHER, visible)
    )


def _finds(patterns: tuple[re.Pattern[str], re.Pattern[str]], text: str) -> bool:
    """Whether a pattern finds `text`, read at every sentence start where one may open."""
    return patterns[may_open_later(text)].search(text) is not None
