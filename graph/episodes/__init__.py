"""Episodes on a thread: run and resume them, their history, audit log and results."""
