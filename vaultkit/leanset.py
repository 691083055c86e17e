"""The lean set: every vaultkit module a hook process may import, declared once.

A hook shares Claude Code's 1.5 s with every other hook of a burst, so these modules import
only the standard library and each other, and they are where the import-weight tricks live:
``TYPE_CHECKING = False`` instead of importing :mod:`typing`, the private stdlib shims
(:mod:`vaultkit.base.leanjson`, :mod:`vaultkit.base.leanglob`, :mod:`vaultkit.base.leanmeta`),
:class:`vaultkit.base.record.Record` instead of dataclasses, and function-level imports for
paths a hook seldom takes. Every other module is plain Python. ``tests/test_import_weight.py``
proves the set is exactly what the hook entry points reach (the agents' parts a hook loads by
name included), that the real hook processes load nothing of vaultkit outside it, and that the
tricks stay inside it.
"""

LEAN: tuple[str, ...] = (
    "vaultkit",
    "vaultkit.agents",
    "vaultkit.agents.adapter",
    "vaultkit.agents.childenv",
    "vaultkit.agents.claude",
    "vaultkit.agents.claude.context",
    "vaultkit.agents.claude.reader",
    "vaultkit.agents.claude.scan",
    "vaultkit.agents.claude.window",
    "vaultkit.agents.codex",
    "vaultkit.agents.codex.reader",
    "vaultkit.agents.codex.scan",
    "vaultkit.agents.gemini",
    "vaultkit.agents.gemini.reader",
    "vaultkit.agents.gemini.scan",
    "vaultkit.agents.jsonlines",
    "vaultkit.agents.known",
    "vaultkit.agents.payload",
    "vaultkit.agents.readers",
    "vaultkit.agents.registration",
    "vaultkit.agents.scan",
    "vaultkit.agents.transcripts",
    "vaultkit.base",
    "vaultkit.base.author",
    "vaultkit.base.config",
    "vaultkit.base.fsio",
    "vaultkit.base.gitattributes",
    "vaultkit.base.gitconfig",
    "vaultkit.base.gitignore",
    "vaultkit.base.leanglob",
    "vaultkit.base.leanjson",
    "vaultkit.base.leanmeta",
    "vaultkit.base.log",
    "vaultkit.base.pulled",
    "vaultkit.base.record",
    "vaultkit.base.spool",
    "vaultkit.base.statedir",
    "vaultkit.base.store",
    "vaultkit.continuity",
    "vaultkit.continuity.activity",
    "vaultkit.continuity.baton",
    "vaultkit.continuity.inject",
    "vaultkit.continuity.pinning",
    "vaultkit.continuity.resume",
    "vaultkit.continuity.startup",
    "vaultkit.continuity.summaries",
    "vaultkit.errors",
    "vaultkit.hookentry",
    "vaultkit.hooks",
    "vaultkit.hooks.common",
    "vaultkit.hooks.session_end",
    "vaultkit.hooks.session_start",
    "vaultkit.hooks.user_prompt_submit",
    "vaultkit.session",
    "vaultkit.session.forget",
    "vaultkit.session.forget.tombstones",
    "vaultkit.session.notes",
    "vaultkit.session.notes.naming",
    "vaultkit.session.queue",
    "vaultkit.session.queue.backfill",
    "vaultkit.session.queue.finished",
    "vaultkit.session.queue.health",
    "vaultkit.session.queue.intake",
    "vaultkit.session.queue.jobs",
    "vaultkit.session.queue.recover",
    "vaultkit.session.queue.runlock",
    "vaultkit.session.queue.spawn",
    "vaultkit.session.transcripts",
    "vaultkit.session.transcripts.condense",
    "vaultkit.session.transcripts.redact",
    "vaultkit.session.transcripts.secretrules",
    "vaultkit.vaultkit_hook",
)

# The agents' parts a hook loads by name (vaultkit.agents.known): each registered agent's
# package, ``scan``, ``context`` and ``reader`` (the reader only when a baton is dropped).
AGENT_PARTS = ("", "scan", "context", "reader")
ENTRY_POINTS = (
    "vaultkit.vaultkit_hook",
    "vaultkit.hookentry",
    "vaultkit.hooks.session_end",
    "vaultkit.hooks.session_start",
    "vaultkit.hooks.user_prompt_submit",
)
