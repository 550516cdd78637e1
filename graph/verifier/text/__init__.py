"""Text folded for matching: normalisation, cleaning, word stems, per-check caches."""
