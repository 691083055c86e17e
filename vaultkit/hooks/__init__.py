"""Agent hook handlers: one module per event, each exposing ``run(payload, env) -> str | None``.

Modules here are imported by the lean entry point (:mod:`vaultkit.hookentry`), so they may import
only the standard library and lean vaultkit modules (no typer, networkx, markdown-it or YAML).
"""
