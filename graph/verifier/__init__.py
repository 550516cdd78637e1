"""Decide whether stored evidence supports a proposed final answer to a question.

`verify_answer(question, answer, evidence)` is a pure function (the snapshot's name
lexicon and the learned combiner are its defaults, exactly what the agent runs); its
verdict's `outcome` is one of three:

- `rejected`: a definite failure. The answer is empty or absent from the evidence; of
  the wrong form (a year asked, none given; yes/no asked, a name given; neither of two
  named alternatives); of a class a strong source contradicts; disagreeing with a
  comparison computed from the evidence; or stated only in text addressed to the
  assistant or in a clause that denies or doubts it.
- `grounded`: the evidence states it and nothing contradicts it, but its tie to what the
  question asks is not confirmed (a loose tie, a comparison the pages cannot decide, an
  answer the question itself names or describes, part of a longer name).
- `verified`: the tie is confirmed: computed, or scored above the combiner's threshold
  (or, in the agent, confirmed by a judge model: `graph.verifier.judge`).

The verdict's `grounding` says how far the check went: `computed`, `stated`,
`undecided`, `judge-confirmed`, or `none`.

`verify.py` is the pipeline; each stage has its folder, each folder imports only those
listed before it:

- `text/`: fold text for matching (normalise, clean, word stems, word lists);
- `trust/`: what counts as evidence (text addressed to the assistant; denials);
- `evidence/`: the stored sentences as items, and the spans of each kind they hold;
- `kinds/`: what the question asks for, and what a name is (the lexicon, classes);
- `read/`: locate the answer and read how the evidence ties it to the question;
- `rules/`: comparisons computed, and misreadings (ranks, ranges, titles, name parts);
- `score/`: the reading's signals, scored by the learned combiner;
- `verdicts.py`, `answers.py`: the outcome and its reason.

At its edge, `checkers.py` gives the agent one `Checker`: the rules, the judge
(`judge.py`), or the rules then the judge.
"""

from graph.verifier.kinds.answer_types import NameLexicon
from graph.verifier.verdicts import (
    GROUNDING_COMPUTED,
    GROUNDING_JUDGED,
    GROUNDING_NONE,
    GROUNDING_STATED,
    GROUNDING_UNDECIDED,
)
from graph.verifier.verify import verify_answer

__all__ = [
    "GROUNDING_COMPUTED",
    "GROUNDING_JUDGED",
    "GROUNDING_NONE",
    "GROUNDING_STATED",
    "GROUNDING_UNDECIDED",
    "NameLexicon",
    "verify_answer",
]
