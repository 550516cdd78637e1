"""Decide whether stored evidence supports a proposed final answer to a question.

`verify_answer` is a pure function of (question, answer, evidence), with an
injectable `NameLexicon` that says what names are: no I/O of its own, no
model. An answer is *verified* only when the stored evidence states that it
answers the question:

- it is stated by a trusted stored sentence (text addressed to an assistant,
  model, AI or reader never is), after folding case, accents, numbers, dates
  and units, and Unicode tricks;
- it is the class of thing the question asks for (a label, a person, a year);
- it is tied to what the question asks: its sentence (with its page's
  subject, for a "He ...") carries the question's words, and of the spans of
  its kind there, it sits nearest the question's relation word (for a date,
  the event the question dates; for a number, what it counts or measures);
- a yes/no or either/or answer agrees with the comparison computed from the
  dates, numbers, nationalities or attributes each entity's page states.

The verdict's `grounding` says how far the check went: `computed`, `stated`
(stated and tied to the question), `judge-confirmed` (an optional judge model
agreed, see `graph.verifier.judge`), or `none`.
"""

from graph.verifier.answer_types import NameLexicon
from graph.verifier.verdicts import (
    GROUNDING_COMPUTED,
    GROUNDING_JUDGED,
    GROUNDING_NONE,
    GROUNDING_STATED,
)
from graph.verifier.verify import verify_answer

__all__ = [
    "GROUNDING_COMPUTED",
    "GROUNDING_JUDGED",
    "GROUNDING_NONE",
    "GROUNDING_STATED",
    "NameLexicon",
    "verify_answer",
]
