"""Text addressed to the agent in other languages than English: an assistant, a model
or an AI named in French, German, Spanish, Italian, Portuguese, Russian, Chinese or
Japanese, an order to answer or say, or an answer label.

Patterns for Latin-script languages read `unmasked` text (accents dropped, so
"répondez" is "repondez"); the others read `clean` text.
Words that English sentences use too ("IA" for Iowa, "di", "dis") count only
where that language puts them ("la IA", "l'IA", "die KI").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from graph.verifier.normalise import split_words

_LATIN = [
    # An AI, an assistant or a language model, in French, Spanish, Italian, Portuguese, German.
    r"\b(?:l['’]|la\s+|a\s+|una?\s+|une?\s+|de\s+la\s+|pour\s+l['’]|para\s+la\s+|per\s+l['’])ia\b",
    r"\b(?:die|der|an\s+die|fur\s+die|eine?)\s+ki\b|\bki-(?:modell|assistent|system|agent)",
    r"\b(?:assistant|modele|modeles)\s+(?:ia|d['’]ia|de\s+langage|conversationnel)\b",
    r"\b(?:asistente|assistente|modelo|modelos|modello|modelli)\s+(?:de\s+|di\s+)?"
    r"(?:ia|lenguaje|linguaggio|linguagem)\b",
    r"\b(?:sprachmodell|sprachmodelle|ki-assistent)\w*",
    r"\b(?:au|aux|pour\s+(?:le|les|l['’])|an\s+(?:das|die|den))\s*(?:modeles?|assistants?|ia|ki"
    r"|modell|assistenten)\s*:|^\W*(?:ki|ia)\s*:",
    # Orders to answer or say, in the polite and familiar forms.
    r"\b(?:repondez|reponds|repondre\s+par|dites|dis\s+que)\b",
    r"\b(?:antworte|antwortet|antworten\s+sie|sagen\s+sie|sag\s+nur)\b",
    r"\b(?:responde|responda|respondan|contesta|conteste|diga|digan|di\s+que)\b",
    r"\b(?:rispondi|risponda|rispondete|dici|dica|dite)\b",
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
    r"(?<!\w)(?:ответь|ответьте|отвечай|отвечайте|скажи|скажите|напиши|напишите)(?!\w)",
    r"(?<!\w)(?:правильн\w+\s+ответ|ответ\s*:)",
    # Chinese and Japanese: an AI or assistant, answer / say, the answer is.
    r"人工智能|智能助手|助手|语言模型|大模型|アシスタント|言語モデル|人工知能",
    r"回答|回复|请说|请回答|答案|答えて|答えは|言って|と答え|と言",
    r"(?<![a-z])ai\s*(?:への|に|的|助手|模型)|(?:给|致|对|请|請)\s*ai(?![a-z])",
]
_IN_LATIN = re.compile("|".join(_LATIN), re.IGNORECASE)
_IN_OTHER = re.compile("|".join(_OTHER), re.IGNORECASE)


# Every Latin-script pattern needs one of these words (most sentences skip them).
_LATIN_WORDS = frozenset(
    split_words(
        "ia ki assistant assistants pour modele modeles asistente assistente modelo modelos modello"
        " modelli sprachmodell sprachmodelle sprachmodells sprachmodellen assistenten"
        " modell au aux repondez reponds repondre dites dis antworte antwortet antworten"
        " sagen sag responde responda respondan contesta conteste diga digan di rispondi"
        " risponda rispondete dici dica dite reponse antwort respuesta risposta resposta"
    )
)


def addressed_in_other_language(unmasked: str, visible: str, words: Sequence[str]) -> bool:
    """Whether a sentence addresses the agent in another language: `unmasked` is it as
    `clean.unmasked` reads it (folded), `words` its words, `visible` it as `clean.clean`
    reads it (Cyrillic kept Cyrillic)."""
    if not _LATIN_WORDS.isdisjoint(words) and _IN_LATIN.search(unmasked):
        return True
    return not visible.isascii() and _IN_OTHER.search(visible) is not None
