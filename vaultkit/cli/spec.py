"""Command options declared once: each :class:`Opt` gives the typer parameter
(:func:`vaultkit.cli.options.typer_option`) and the quick parser's table (:func:`spellings`)."""

from __future__ import annotations

from vaultkit.base.record import Record


class Opt(Record):
    """One option: the field it sets, its spellings, its help, whether it takes a value, and
    the name its value has in the help (typer's own when None)."""

    field: str
    names: tuple[str, ...]
    help: str
    valued: bool = True
    metavar: str | None = None


def spellings(*opts: Opt) -> dict[str, str]:
    """Option spelling -> field, what :func:`vaultkit.cli.quickwords.split` reads (both sides of
    typer's ``--on/--off`` pair)."""
    return {word: opt.field for opt in opts for name in opt.names for word in name.split("/")}


def valued(*opts: Opt) -> set[str]:
    """The fields of ``opts`` that take a value."""
    return {opt.field for opt in opts if opt.valued}


GRAPH_FORMAT = Opt("fmt", ("--format", "-f"), "Export format.")
GRAPH_OUTPUT = Opt("output", ("--output", "-o"), "Write to FILE (atomically).")
TEXT_FORMAT = Opt("fmt", ("--format", "-f"), "Output format.")
INCOMING = Opt("incoming", ("--incoming",), "Only backlinks.", valued=False)
OUTGOING = Opt("outgoing", ("--outgoing",), "Only outgoing links.", valued=False)

CODES_HELP = "Codes or prefixes (repeat or comma-separate), e.g. VK1 or VK101."
LINT = (
    TEXT_FORMAT,
    Opt("select", ("--select",), CODES_HELP, metavar="CODES"),
    Opt("ignore", ("--ignore",), CODES_HELP, metavar="CODES"),
    Opt("strict", ("--strict",), "Warnings fail the run too.", valued=False),
    Opt(
        "fix",
        ("--fix",),
        "Apply the safe fixes (INDEX.md); each is listed on stderr.",
        valued=False,
    ),
    Opt(
        "dry_run",
        ("--diff", "--dry-run"),
        "Print the fixes as a diff; write nothing.",
        valued=False,
    ),
    Opt(
        "unsafe_fixes",
        ("--unsafe-fixes",),
        "Also the fixes that guess a meaning: an alias-only link [[UID]] becomes [[Note|UID]] "
        "(review with --diff first).",
        valued=False,
    ),
    Opt("quiet", ("--quiet", "-q"), "No progress, no summary.", valued=False),
    Opt(
        "no_cache",
        ("--no-cache",),
        "Read and lint every note afresh; neither read nor write .vaultkit/ caches.",
        valued=False,
    ),
    Opt(
        "files_from",
        ("--files-from",),
        "Read more note paths from FILE, one a line ('-': standard input).",
        metavar="FILE",
    ),
    Opt(
        "baseline",
        ("--baseline",),
        "Report only findings not recorded in FILE; a missing FILE records today's. Fixed "
        "findings drop out of it.",
        metavar="FILE",
    ),
    Opt(
        "staged",
        ("--staged",),
        "Also the notes git has staged, deleted and renamed ones included (pre-commit).",
        valued=False,
    ),
)
LINT_OPT = {opt.field: opt for opt in LINT}  # field -> its Opt, for the typer parameters

LIMIT = Opt("limit", ("--limit", "-n"), "Show at most N results.")
SEARCH = (
    Opt("kind", ("--type", "-t"), "Only wiki, summary, transcript or note (repeatable)."),
    Opt("since", ("--since",), "Only documents dated on or after DATE (YYYY-MM-DD)."),
    Opt("tag", ("--tag",), "Only notes with this tag (or a child tag); repeatable."),
    Opt("agent", ("--agent",), "Only notes written for this agent (frontmatter agent:)."),
    Opt(
        "author",
        ("--author",),
        "Only notes written by this person (frontmatter author:, their git user.name when the "
        "note was written; case ignored).",
    ),
    LIMIT,
    TEXT_FORMAT,
    Opt(
        "refresh",
        ("--refresh/--no-refresh",),
        "Re-read changed files first, or trust the index (default: re-read unless the index "
        "holds over 20,000 documents).",
        valued=False,
    ),
    Opt("quiet", ("--quiet", "-q"), "No progress bar.", valued=False),
    Opt(
        "all_projects",
        ("--all-projects",),
        "Search every store this user has: the projects vaultkit has worked in (recorded in the "
        "data folder's projects.txt) and the data folder's own stores. Each hit is shown with "
        "its store.",
        valued=False,
    ),
)
SEARCH_OPT = {opt.field: opt for opt in SEARCH}  # field -> its Opt, for the typer parameters
