"""How the evidence ties an answer to the question: the check, the reader, its reading."""
