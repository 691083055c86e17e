"""Forgetting sessions: every file and line a session left, and the tombstones."""
