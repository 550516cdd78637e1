"""What counts as evidence: text addressed to the assistant, and clauses that deny or doubt."""
