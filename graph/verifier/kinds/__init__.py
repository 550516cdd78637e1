"""What a question asks for, and what a name is (lexicon, categories, classes)."""
