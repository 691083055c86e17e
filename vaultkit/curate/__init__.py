"""Curating a vault: moves that keep every link whole (plan pure, apply with a journal)."""

JOURNAL_NAME = "mv-journal.json"  # in the vault's state folder while a move is under way
