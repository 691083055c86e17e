"""``vaultkit lint --baseline FILE``: today's findings recorded, later runs report only new ones.

A vault that keeps unresolved links on purpose (notes not written yet, template properties)
can still check everything else. Each finding is recorded by what stays put when lines move
and unrelated notes change: its note, its code and its message without the parts that depend
on other notes (a ghost's "did you mean", an ambiguous link's candidates), with how many such
findings the note has. A later run reports, per key, only the findings beyond the recorded
count, and the file shrinks as findings are fixed: it is rewritten with the lower counts (only
after a run over the whole vault, so a run on some notes never forgets the others'). The file
is JSON, one entry a line, sorted, so its diff in a commit shows what was fixed.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from vaultkit.base.fsio import atomic_write_text
from vaultkit.errors import VaultkitError
from vaultkit.vault.model import Finding

VERSION = 1
Key = tuple[str, str, str]  # (note path, code, stable message)


def stable_message(finding: Finding) -> str:
    """The part of ``finding``'s message that no other note's change alters."""
    text = finding.message.split("; did you mean ", 1)[0]
    if finding.code == "VK104":
        text = text.split(" matches ", 1)[0]
    return text


def key_of(finding: Finding) -> Key:
    return (finding.path, finding.code, stable_message(finding))


def counts(findings: Iterable[Finding]) -> Counter[Key]:
    return Counter(key_of(f) for f in findings)


@dataclass(frozen=True, slots=True)
class Split:
    """Findings not in the baseline, how many it hid, and its counts as they are now."""

    new: list[Finding]
    known: int
    now: Counter[Key]


def split(findings: Sequence[Finding], recorded: Mapping[Key, int]) -> Split:
    """Per key, the first ``recorded`` findings are known; the rest are new."""
    seen: Counter[Key] = Counter()
    new: list[Finding] = []
    for f in findings:
        key = key_of(f)
        seen[key] += 1
        if seen[key] > recorded.get(key, 0):
            new.append(f)
    now = Counter({k: min(c, recorded[k]) for k, c in seen.items() if k in recorded})
    return Split(new, len(findings) - len(new), now)


def read(path: Path) -> Counter[Key] | None:
    """The counts in the baseline file, None when it does not exist yet."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise VaultkitError(f"{path}: cannot read the baseline: {exc}", hint=_HINT) from exc
    try:
        data = json.loads(text)
        if data.get("version") != VERSION:
            raise ValueError(f"version {data.get('version')!r}, not {VERSION}")
        rows = data["findings"]
        found = Counter({(r["path"], r["code"], r["message"]): int(r["count"]) for r in rows})
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise VaultkitError(f"{path}: not a vaultkit lint baseline ({exc})", hint=_HINT) from exc
    return found


_HINT = "delete the file and run `vaultkit lint --baseline FILE` again to record today's findings"


def render(recorded: Mapping[Key, int]) -> str:
    """The baseline file's text: one finding key a line, sorted."""
    rows = [
        json.dumps({"path": p, "code": c, "message": m, "count": n}, ensure_ascii=False)
        for (p, c, m), n in sorted(recorded.items())
        if n > 0
    ]
    body = ",\n".join(f"    {row}" for row in rows)
    inner = f"\n{body}\n  " if rows else ""
    return f'{{\n  "version": {VERSION},\n  "findings": [{inner}]\n}}\n'


def write(path: Path, recorded: Mapping[Key, int]) -> None:
    try:
        atomic_write_text(path, render(recorded))
    except OSError as exc:
        raise VaultkitError(
            f"{path}: cannot write the baseline: {exc}", hint="choose a writable path"
        ) from exc
