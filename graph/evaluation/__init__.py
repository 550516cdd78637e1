"""Benchmarks and scoring: HotpotQA answers, the verifier."""
