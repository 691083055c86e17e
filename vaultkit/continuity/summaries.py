"""The store's summaries as SessionStart and ``vaultkit restore`` see them: which are recent,
whose, and which may be the latest session.

Lean (stdlib + lean vaultkit modules), on the SessionStart hook's path.
"""

from __future__ import annotations

import os
import re
import time

from vaultkit.base import gitconfig
from vaultkit.base.author import clean_author, os_user_name
from vaultkit.base.leanmeta import Meta, is_degraded, meta_str, read_meta
from vaultkit.base.record import Record
from vaultkit.base.store import Store, read_problem
from vaultkit.continuity import pinning
from vaultkit.session.queue import jobs

CANDIDATES = 10
HEAD_BYTES = 4096

_DIGITS = re.compile(r"\d")
_NAME_STAMP = re.compile(r"(\d{4})[-_](\d{2})[-_](\d{2})__?(\d{2})\.?(\d{2})_")


class Summary(Record):
    """One summary file as seen from its name and the head of its frontmatter."""

    path: str
    key: str  # sortable date key: frontmatter date digits (to the second), else the name's stamp
    meta: Meta
    head: str

    @property
    def name(self) -> str:
        return os.path.basename(self.path)

    @property
    def degraded(self) -> bool:
        return is_degraded(self.meta)

    @property
    def session_id(self) -> str:
        return meta_str(self.meta, "session_id")

    @property
    def author(self) -> str:
        """Whose session it was (``author:``, cleaned: it arrives through git), or ``""``."""
        return clean_author(meta_str(self.meta, "author"))


def read_safe(text: str) -> str:
    """Shared text as it may reach the agent: ``<private>`` spans dropped and secrets redacted
    again at read time, so a teammate's unredacted note never arrives raw."""
    from vaultkit.session.transcripts.redact import redact, strip_private

    return redact(strip_private(text))


def me(summaries: list[Summary], cwd: str | os.PathLike[str]) -> str:
    """This user as notes record authors (git ``user.name``, else the OS user); ``""`` when
    no summary names an author, so nothing is compared (and git is not asked)."""
    if not any(s.author for s in summaries):
        return ""
    folder = os.fspath(cwd)
    name = gitconfig.user_name(folder)
    if name is None:  # only git itself can tell (includes, worktrees)
        from vaultkit.base.author import current_author

        return current_author(folder)
    return clean_author(name or os_user_name()) or "unknown"


WRITTEN_SKEW = 60.0  # seconds between the worker writing a note and its done record


def written_here(store: Store, path: str, session_id: str) -> float | None:
    """When this machine's worker finished the session whose note ``path`` is, if it wrote the
    file as it is now (this store's private done record names it, and the file is no newer than
    that record: a pull or an edit since would be); else None. Only such notes were redacted
    by this machine as they were written and skip the redaction at read time (importing the
    redaction rules costs SessionStart tens of milliseconds). ``author:`` cannot decide this:
    anyone who can commit can write any name there."""
    done = jobs.read_done(store, session_id) if session_id else None
    if done is None:
        return None
    name = os.path.basename(path)
    if name not in (os.path.basename(done.summary_path), os.path.basename(done.wiki_path)):
        return None
    finished = pinning.parse_date(done.finished_at)
    try:
        mtime = os.stat(path).st_mtime
    except OSError:
        return None
    if finished is None or finished.epoch is None or mtime > finished.epoch + WRITTEN_SKEW:
        return None
    return finished.epoch


def is_mine(summary: Summary, user: str) -> bool:
    """True for this user's session, and for notes that name no author (written before
    ``author:`` was recorded, or by this machine)."""
    return not summary.author or not user or summary.author.casefold() == user.casefold()


def _date_key(meta: Meta, name: str) -> str:
    """``YYYYMMDDHHMM[SS]`` from the frontmatter date (its seconds order two sessions of one
    minute, as when the user switches agents), else the name's stamp."""
    digits = "".join(_DIGITS.findall(meta_str(meta, "date")))[:14]
    if len(digits) in (12, 14):
        return digits
    return name_key(name)


def name_key(name: str) -> str:
    """``YYYYMMDDHHMM`` from a vaultkit or seed note name (cheap: no datetime), else ``""``."""
    match = _NAME_STAMP.match(name)
    return "".join(match.groups()) if match is not None else ""


def read_head(path: str, limit: int) -> str:
    try:
        with open(path, "rb") as handle:
            data = handle.read(limit)
    except OSError:
        return ""
    return data.decode("utf-8", errors="replace")


def read_shared(store: Store, path: str, limit: int) -> str:
    """The head of a shared note, or ``""`` when the store may not read it (a link out of the
    store or into its private parts: :func:`vaultkit.base.store.read_problem`)."""
    return "" if read_problem(store, path) else read_head(path, limit)


def note_files(
    store: Store, folder: str, limit: int | None = None, not_after: str = ""
) -> list[str]:
    """``*.md`` files directly in ``folder`` (not INDEX.md), newest name stamp first; past
    ``limit`` only those of the last one's minute (names order a minute by session id, so
    which of them is newer only the frontmatter says). Links the store may not follow, and
    everything in a ``folder`` that is such a link, are left out; so are names stamped after
    ``not_after`` (``YYYYMMDDHHMM``), so that future-dated names cannot crowd out the rest."""
    if read_problem(store, folder):
        return []
    try:
        with os.scandir(folder) as found:
            names = [
                e.name
                for e in found
                if e.name.endswith(".md")
                and e.is_file()
                and not (e.is_symlink() and read_problem(store, e.path))
            ]
    except OSError:
        return []
    keyed = sorted(((name_key(n), n) for n in names if n.lower() != "index.md"), reverse=True)
    if not_after:
        keyed = [(key, n) for key, n in keyed if key[:12] <= not_after]
    end = len(keyed) if limit is None else max(0, limit)
    while 0 < end < len(keyed) and keyed[end][0] == keyed[end - 1][0]:
        end += 1
    return [os.path.join(folder, n) for _, n in keyed[:end]]


def recent_summaries(
    store: Store, limit: int = CANDIDATES, now: float | None = None
) -> list[Summary]:
    """The newest summaries (by frontmatter date, else name stamp), newest first; names
    stamped in the future in every time zone are not among them."""
    not_after = pinning.future_key(time.time() if now is None else now)
    found = []
    for path in note_files(store, store.at("summary"), limit, not_after):
        head = read_shared(store, path, HEAD_BYTES)
        meta, _ = read_meta(head)
        found.append(Summary(path, _date_key(meta, os.path.basename(path)), meta, head))
    found.sort(key=lambda s: (s.key, s.name), reverse=True)
    return found[: max(0, limit)]


def future_named(store: Store, now: float) -> list[str]:
    """Names in ``summary/`` stamped in the future in every time zone (never candidates)."""
    not_after = pinning.future_key(now)
    names = [os.path.basename(p) for p in note_files(store, store.at("summary"))]
    return [safe_name(n) for n in names if name_key(n)[:12] > not_after]


def pinned(store: Store, summary: Summary, now: float) -> str:
    """Why ``summary`` may not be the latest session (:mod:`vaultkit.continuity.pinning`),
    else ``""``; this machine's done record of its session says when it was distilled."""
    finished = ""
    if summary.session_id:
        done = jobs.read_done(store, summary.session_id)
        finished = done.finished_at if done is not None else ""
    date = meta_str(summary.meta, "date")
    return pinning.pinned_reason(date, name_key(summary.name), now, finished)


class Choice(Record):
    """The summary SessionStart leads with, the others it may show, and those it passed over
    as the latest session (each with why)."""

    chosen: Summary | None
    others: tuple[Summary, ...]
    passed: tuple[tuple[Summary, str], ...]


def latest(
    store: Store, summaries: list[Summary], branch: str, now: float, user: str = ""
) -> Choice:
    """:func:`choose` among the summaries that may be the latest session."""
    reasons = {s.path: pinned(store, s, now) for s in summaries}
    eligible = [s for s in summaries if not reasons[s.path]]
    chosen = choose(eligible, branch, user)
    others = tuple(s for s in eligible if s is not chosen)
    return Choice(chosen, others, tuple((s, reasons[s.path]) for s in summaries if reasons[s.path]))


def explain(choice: Choice, branch: str) -> tuple[str, list[tuple[str, str]]]:
    """Why SessionStart leads with the summary it chose, and the name of each summary it
    passed over as the latest session with why (``vaultkit restore`` and ``doctor`` say so)."""
    chosen = choice.chosen
    passed = [(safe_name(s.name), why) for s, why in choice.passed]
    if chosen is None:
        return ("no summary may be the latest session" if passed else "no summary yet"), passed
    why = []
    if branch and meta_str(chosen.meta, "git_branch") == branch:
        why.append(f"on the current branch {branch}")
    why.append("degraded, but no better one" if chosen.degraded else "not degraded")
    if not any(s.key > chosen.key for s in choice.others):
        why.append("the newest")
    return f"{safe_name(chosen.name)}: {', '.join(why)}", passed


def choose(summaries: list[Summary], branch: str, user: str = "") -> Summary | None:
    """Prefer this user's own session on the current branch, then the current branch, then
    this user's, then non-degraded, then the newest."""
    if not summaries:
        return None

    def rank(s: Summary) -> tuple[bool, bool, bool, bool, str, str]:
        on_branch = bool(branch) and meta_str(s.meta, "git_branch") == branch
        mine = is_mine(s, user)
        return (on_branch and mine, on_branch, mine, not s.degraded, s.key, s.name)

    return max(summaries, key=rank)


def safe_name(name: str) -> str:
    """A note's file name as injected text: it came through git, so one plain line."""
    kept = "".join(ch if ch.isprintable() else " " for ch in read_safe(name))
    return " ".join(kept.replace("`", "'").split())[:120]
