"""The SessionEnd hook's spool entry: what a hook writes first, read back whole or not at all."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from vaultkit.base import spool


def test_an_entry_reads_back_as_written_whatever_the_bytes() -> None:
    raw = b'{"session_id": "s1"}\n\x00\xff binary \x00\x00 tail'
    argv = ("SessionEnd", "--agent", "codex", "word with spaces", "caf\u00e9")
    entry = spool.decode(spool.encode(raw, "/some where/proj", argv))
    assert entry == spool.Entry(raw, "/some where/proj", argv)


@pytest.mark.parametrize("cut", [1, 5, 17, 30])
def test_an_entry_cut_short_is_not_an_entry(cut: int) -> None:
    data = spool.encode(b'{"session_id": "s1", "cwd": "/p"}', "/p", ("SessionEnd",))
    assert spool.decode(data[:-cut]) is None
    assert spool.decode(b"") is None
    assert spool.decode(b"not an entry\0\0x") is None


def test_write_puts_one_private_entry_in_the_data_folders_spool(tmp_path: Path) -> None:
    env = {"VAULTKIT_HOME": str(tmp_path / "data")}
    path = spool.write(b"{}", ["SessionEnd"], env)
    assert path is not None and os.path.dirname(path) == spool.spool_dir(env)
    assert os.path.dirname(path) == str(tmp_path / "data" / "spool")
    born, pid, suffix = os.path.basename(path).split(".")
    assert (int(pid), "." + suffix) == (os.getpid(), spool.SUFFIX) and int(born) > 0
    assert os.stat(path).st_mode & 0o777 == 0o600
    assert spool.decode(Path(path).read_bytes()) == spool.Entry(b"{}", os.getcwd(), ("SessionEnd",))
    assert os.listdir(spool.spool_dir(env)) == [os.path.basename(path)], "no temp file left"
    spool.remove(path)
    spool.remove(path)  # gone already: never raises
    assert os.listdir(spool.spool_dir(env)) == []


def test_an_unwritable_spool_gives_none_not_an_error(tmp_path: Path) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("a file where the data folder would be")
    assert spool.write(b"{}", ["SessionEnd"], {"VAULTKIT_HOME": str(blocker)}) is None


@pytest.mark.parametrize(
    ("argv", "env", "wanted"),
    [
        (["SessionEnd"], {}, True),
        (["SessionEnd", "--agent", "codex"], {}, True),
        (["--agent", "gemini", "SessionEnd"], {}, True),
        (["SessionEnd", "--plugin"], {}, True),
        ([], {}, True),  # the payload names the event: spooled, dropped if it is not SessionEnd
        (["SessionStart"], {}, False),
        (["UserPromptSubmit"], {}, False),
        (["SessionEnd", "--help"], {}, False),
        (["SessionEnd"], {"VAULTKIT_CHILD": "1"}, False),
        (["SessionEnd"], {"CLAUDE_WIKI_CHILD": "1"}, False),
    ],
)
def test_only_a_session_end_outside_vaultkits_own_processes_spools(
    argv: list[str], env: dict[str, str], wanted: bool
) -> None:
    assert spool.wanted(argv, env) is wanted


def test_publish_bytes_leaves_only_the_whole_file_and_never_replaces_one(tmp_path: Path) -> None:
    from vaultkit.base.fsio import publish_bytes

    target = tmp_path / "spool" / "entry.end"
    publish_bytes(str(target), b"whole")
    assert target.read_bytes() == b"whole"
    assert os.listdir(target.parent) == ["entry.end"]
    if getattr(os, "O_TMPFILE", 0) and os.path.isdir("/proc/self/fd"):
        with pytest.raises(FileExistsError):
            publish_bytes(str(target), b"other")
        assert target.read_bytes() == b"whole"
        assert os.listdir(target.parent) == ["entry.end"], "the unnamed file leaves nothing"
