"""Continuity between sessions: baton, resume, activity log, injection, restart loop, shell."""
