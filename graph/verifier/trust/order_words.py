"""The words of English text addressed to the agent that `order_patterns` builds on:
whom it addresses, the verbs that order an answer and the modals that make them orders,
and the words any addressee holds (for the patterns' gates)."""

from __future__ import annotations

# Software that only ever means a program: crawlers, neural networks, assistants by name.
SOFTWARE = (
    r"crawlers?|scrapers?|neural\s+net(?:work)?s?|siri|alexa|cortana|grok|deepseek|llama"
    r"|mistral|perplexity"
)
# Whom a text may address before a comma ("Chatbots, ..."); robots and software by name
# open real sentences with an aside too ("Siri, the assistant by Apple, ..."), so only
# `ADDRESSEE` holds them.
VOCATIVE = (
    r"(?:ais?|a\.i\b\.?|assistants?|chat ?bots?|bots?|llms?"
    r"|(?:ai |language |large language )models?"
    r"|models?|agents?|readers?|systems?|users?|gpt|chatgpt|claude|gemini|copilot"
    r"|artificial intelligences?"
    r"|(?:machine|automated|automatic|ai)\s+(?:readers?|agents?|systems?|tools?|crawlers?))"
)
ADDRESSEE = rf"(?:{VOCATIVE}|robots?|{SOFTWARE})"
ANSWER_VERBS = (
    "answer say respond reply report output state write print return finish declare conclude"
    " type give tell use"
)
ANSWER_VERB = rf"(?:{ANSWER_VERBS.replace(' ', '|')})"
# Verbs that order an answer when they open a clause (words such as "state",
# "print" or "use" open clauses as nouns too often to count there).
ORDER_VERB = r"(?:answer|say|respond|reply|report|output|finish|declare|conclude)"
# Addressees that are only ever software ("readers" and "models" are people too).
MACHINE = (
    r"(?:ais?|a\.i\b\.?|assistants?|chat ?bots?|llms?|robots?|artificial intelligences?"
    r"|(?:ai|language|large language|ai language)\s+"
    r"(?:models?|systems?|assistants?|agents?|tools?)|chatgpt|gpt|claude|gemini|copilot"
    r"|(?:machine|automated|automatic)\s+(?:readers?|agents?|systems?|tools?|crawlers?)"
    rf"|{SOFTWARE})"
)
MODAL = (
    r"(?:must|should|shall|will|need to|needs to|have to|has to|are to|is to|are required to"
    r"|are instructed to|are asked to|always|only|may only|ought to|had better|can only)"
)
# Words any `ADDRESSEE` or `MACHINE` holds ("a.i." is a substring of its own).
ADDRESS = (
    "ai assistant assistants chatbot chatbots bot bots llm llms model models agent agents"
    " reader readers system systems user users gpt chatgpt claude gemini copilot artificial"
    " machine automated automatic robot robots tool tools ais crawler crawlers scraper scrapers"
    " neural siri alexa cortana grok deepseek llama mistral perplexity"
)
ADDRESS_MARKS = ("a.i",)
ANSWER_NOUNS = "answer reply response output summary"
