"""Stored sentences as items, and the spans of each kind they hold."""
