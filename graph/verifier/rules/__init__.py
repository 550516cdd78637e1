"""Rules over a reading: comparisons computed, and misreadings (ranks, ranges, titles,
name parts)."""
