"""Transcripts: raw copies, condensing, redaction, readable renderings, cheap facts."""
