"""No ghosts in vaultkit's own notes: the answer's links are resolved before the note is written.

Real files, a real command backend (a Python child printing the answer) and the real linter.
"""

from __future__ import annotations

import json
import sys
import textwrap
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vaultkit.base.config import Config, DistillConfig
from vaultkit.base.store import Store
from vaultkit.lint.runner import collect, load_context
from vaultkit.session.distill.pipeline import SessionInfo, distill_session
from vaultkit.session.notes.links import settle, stub_name
from vaultkit.session.notes.write import read_frontmatter

SID = "b2c3d4e5-1111-2222-3333-444455556666"
WHEN = datetime(2026, 11, 30, 9, 5, tzinfo=timezone(timedelta(hours=9)))
ROWS = json.dumps(
    {
        "sessionId": SID,
        "cwd": "/w/p",
        "type": "user",
        "message": {"role": "user", "content": "Make the gateway retries idempotent: dedup key"},
    }
)


def make_store(root: Path) -> tuple[Store, SessionInfo]:
    store = Store(root / "proj" / "sessions")
    raw = store.raw / f"2026-11-30_0905_{SID}.jsonl"
    raw.parent.mkdir(parents=True)
    raw.write_text(ROWS, encoding="utf-8")
    (store.wiki / "concepts").mkdir(parents=True)
    (store.wiki / "attachments").mkdir()
    (store.wiki / "concepts" / "Idempotency keys.md").write_text(
        "---\naliases: [dedup key]\n---\n# Idempotency keys\n\n## Retries\n", encoding="utf-8"
    )
    (store.wiki / "attachments" / "flow.png").write_bytes(b"\x89PNG\r\n")
    return store, SessionInfo(SID, raw, "proj", str(root / "proj"), None, WHEN)


def backend(folder: Path, answer: str, **distill: str) -> Config:
    """A command backend: a real child that reads the prompt and prints ``answer``."""
    path = folder / "answer.txt"
    path.write_text(answer, encoding="utf-8")
    code = folder / "llm.py"
    code.write_text(
        textwrap.dedent(f"""
            import sys
            sys.stdin.read()
            sys.stdout.write(open({str(path)!r}, encoding="utf-8").read())
        """),
        encoding="utf-8",
    )
    config = DistillConfig(backend="command", command=[sys.executable, str(code)])
    config = config.replace(**distill)
    return Config(distill=config)


def errors(folder: Path) -> list[str]:
    return [f.render() for f in collect(load_context(folder, cache=False)) if f.severity == "error"]


ANSWER = (
    "@@@TITLE@@@\nGateway retries\n@@@HANDOFF@@@\n## Done\n- see [[Gateway sandbox quirks]]\n"
    "@@@WIKI@@@\nUses [[Idempotency keys#Retries]], [[dedup key]], ![[flow.png]] and"
    " ![[missing.png]]; also [[Gateway sandbox quirks|the quirks]] and [a](Nowhere.md).\n"
)


def test_ghost_links_become_plain_text_and_are_listed(tmp_path: Path) -> None:
    store, info = make_store(tmp_path)
    outcome = distill_session(store, info, backend(tmp_path, ANSWER))
    wiki = outcome.wiki_path.read_text(encoding="utf-8").split("\n---\n", 1)[1]
    assert "[[Idempotency keys#Retries]]" in wiki and "![[flow.png]]" in wiki
    assert "the quirks" in wiki and "[[Gateway sandbox quirks" not in wiki
    assert "missing.png" in wiki and "![[missing.png]]" not in wiki and "Nowhere" not in wiki
    front = read_frontmatter(outcome.wiki_path)
    assert front["unresolved_links"] == ["missing.png", "Gateway sandbox quirks", "Nowhere.md"]
    assert "Gateway sandbox quirks" in outcome.summary_path.read_text(encoding="utf-8")
    assert errors(store.wiki) == [] and errors(store.root) == []


def test_an_offered_alias_becomes_a_link_to_its_note(tmp_path: Path) -> None:
    store, info = make_store(tmp_path)
    outcome = distill_session(store, info, backend(tmp_path, ANSWER))
    wiki = outcome.wiki_path.read_text(encoding="utf-8")
    assert "[[Idempotency keys|dedup key]]" in wiki  # offered with its alias in the prompt


def test_stub_mode_links_ghosts_to_stubs_in_their_own_folder(tmp_path: Path) -> None:
    store, info = make_store(tmp_path)
    config = backend(tmp_path, ANSWER, ghost_links="stub", stub_folder="stubs")
    outcome = distill_session(store, info, config)
    stub = store.wiki / "stubs" / "Gateway sandbox quirks.md"
    assert read_frontmatter(stub)["type"] == "stub"
    assert f"[[{outcome.wiki_path.stem}]]" in stub.read_text(encoding="utf-8")
    wiki = outcome.wiki_path.read_text(encoding="utf-8")
    assert "[[Gateway sandbox quirks|the quirks]]" in wiki and "![[missing.png]]" not in wiki
    assert "Gateway sandbox quirks" in read_frontmatter(outcome.wiki_path)["unresolved_links"]
    assert [p.name for p in (store.wiki / "stubs").iterdir()] == ["Gateway sandbox quirks.md"]
    assert errors(store.wiki) == [] and errors(store.root) == []
    found = [f.render() for f in collect(load_context(store.wiki, cache=False))]
    assert not [f for f in found if "stubs/" in f]  # linked both ways: no orphan, no ghost


def test_unsafe_names_never_become_stub_files() -> None:
    assert stub_name("../../etc/passwd") is None and stub_name("a/b") is None
    assert stub_name(".hidden") is None and stub_name("x.md") is None
    assert stub_name("Gateway sandbox quirks") == "Gateway sandbox quirks"


LINKISH = st.sampled_from(
    [
        "[[",
        "]]",
        "![[",
        "|",
        "#",
        "^",
        "[",
        "](",
        ")",
        "`",
        "```",
        "\n",
        " ",
        "%%",
        "$$",
        "[[Idempotency keys]]",
        "[[dedup key]]",
        "[[Ghost]]",
        "![[flow.png]]",
        "![[no.pdf]]",
        "[[concepts/Idempotency keys#Retries|r]]",
        "[[#Self]]",
        "[x](Ghost%20Two.md)",
        "[y](<a b.md>)",
        "[[a\\|b]]",
        "| [[T|x]] |",
        "\\[[",
        "<div>",
        "@@@WIKI@@@",
        "# H",
        "---",
        "[[../x]]",
        "[[Idempotency keys.md]]",
        "[^1]",
        "[^1]: n",
        "> [!note] [[C]]",
    ]
)
PIECES = st.lists(st.one_of(LINKISH, st.text(max_size=6)), max_size=30).map("".join)


@pytest.mark.slow
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(title=PIECES, handoff=PIECES, wiki=PIECES, stub=st.booleans())
def test_whatever_the_backend_answers_the_notes_lint_without_errors(
    tmp_path_factory: pytest.TempPathFactory, title: str, handoff: str, wiki: str, stub: bool
) -> None:
    root = tmp_path_factory.mktemp("any")
    store, info = make_store(root)
    answer = f"@@@TITLE@@@\n{title}\n@@@HANDOFF@@@\n{handoff}\n@@@WIKI@@@\n{wiki}\n"
    config = backend(root, answer, ghost_links="stub" if stub else "text")
    distill_session(store, info, config)
    assert errors(store.wiki) == [] and errors(store.root) == []


@given(text=PIECES)
@settings(max_examples=200, deadline=None)
def test_settled_text_has_no_ghost(text: str) -> None:
    from vaultkit.vault.parse import parse_note
    from vaultkit.vault.resolve import build_file_index, resolve_target

    paths = ["concepts/Idempotency keys.md", "attachments/flow.png"]
    settled = settle(text, paths, {"concepts/Idempotency keys.md": ["dedup key"]})
    index = build_file_index(paths)
    note = parse_note("n.md", settled.text.encode("utf-8"))
    ghosts = [
        link
        for link in note.links
        if not link.is_self and resolve_target(index, "n.md", link.target).ghost
    ]
    assert ghosts == []
