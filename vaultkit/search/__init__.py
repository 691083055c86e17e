"""Recall: a full-text index of notes and transcripts (derived state), queries and related notes."""
