"""Where episodes are kept: checkpoint savers, database locations, thread leases and the
thread registry (one small module each)."""
