"""Foundations for every layer: records, atomic files, log, config, store, templates (stdlib)."""
