"""Run settings: what each environment takes, how they are checked and stored."""
