"""Curating a vault: moves that keep every link whole (plan pure, apply with a journal)."""
