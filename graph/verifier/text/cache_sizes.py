"""How many results the verifier's caches keep.

A check reads the same sentences, names and words many times (every candidate span,
every rule), so each reading is cached. The caches need hold only what recent checks
read: a few episodes' sentences and names, and a working vocabulary. Larger bounds buy
nothing on later checks and cost memory and garbage-collector pauses. After 60,000 checks
of distinct (mutated) pages, caches of 65,536 entries held 1.2 million results in a
766 MB process, and a full collection stalled a check for 1.4 s; with these bounds, 0.33
million results, 326 MB and 0.56 s. The benchmark's checks are as fast either way.
"""

from __future__ import annotations

# Sentences, titles, names and spans: a few hundred per check.
TEXTS = 4096
# Words and names looked up in the lexicon: a working vocabulary.
WORDS = 16384
