"""How many results the verifier's caches keep.

A check reads the same sentences, names and words many times (every candidate span,
every rule), so each reading is cached. The caches need hold only what recent checks
read: a few episodes' sentences and names, and a working vocabulary. Larger bounds buy
nothing on later checks and cost memory and garbage-collector pauses.
`benchmarks/verifier_memory.py` checks the bench's cases on pages no earlier check read:
after 60,000 checks, caches of 65,536 entries held 1.38 million results, still growing,
in an 859 MB process whose full collection took 2.2 s; with these bounds, 0.30 million
results, 289 MB and 0.66 s. The benchmark's checks are as fast either way.
"""

from __future__ import annotations

# Sentences, titles, names and spans: a few hundred per check.
TEXTS = 4096
# Words and names looked up in the lexicon: a working vocabulary.
WORDS = 16384
