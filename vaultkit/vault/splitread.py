"""One mid-sized read shared by this process and one forked child, chunk by chunk.

Below the pool's threshold (``strategy.TABLE.pool_min_files``) a process pool costs more than it
saves: importing ``concurrent.futures``, starting workers that each import the parser, and a
parent that only waits. Here the parser is imported once, then a child is forked and both
processes take chunk numbers from a pipe of tickets until it is empty, so whichever is slower
(the one importing PyYAML, or markdown-it for a note that needs it) takes fewer chunks. The
child sends its rows back marshalled. When no child can be forked, or it fails, this process
reads every chunk it did not get back: the result is the same either way.
"""

from __future__ import annotations

import contextlib
import gc
import marshal
import os
import signal
from collections.abc import Callable, Generator, Iterator, Sequence
from typing import NoReturn

from vaultkit.vault.records import Job, Parsed, ParsedRow, chunk_rows, read_one, unpack_rows

CHUNK_FILES = 6  # files per ticket: small enough to balance, large enough to cost nothing
MAX_TICKETS = 255  # one byte per ticket
Progress = Callable[[int, int], None]
Child = tuple[int, int]  # the child's process id, the read end of its result pipe
Taken = dict[int, list[Parsed]]  # chunk number -> its results


def split_read(
    root: str, jobs: Sequence[Job], progress: Progress | None = None
) -> Generator[Parsed, None, None]:
    """Results for every job, in job order, read by this process and a forked child."""
    from vaultkit.vault.parse import parse_note as _parser  # noqa: F401  once, before the fork

    size = max(CHUNK_FILES, -(-len(jobs) // MAX_TICKETS))
    chunks = [jobs[i : i + size] for i in range(0, len(jobs), size)]
    tickets = _ticket_pipe(len(chunks))
    child = None if tickets is None else _fork_reader(root, chunks, tickets)
    mine: Taken = {}
    theirs: Taken | None = None
    try:
        if child is not None:
            _load_yaml()
        done = 0
        for number in _tickets(tickets):
            mine[number] = [read_one(root, job) for job in chunks[number]]
            done += len(chunks[number])
            if progress is not None:
                progress(done, len(jobs))
        theirs = {} if child is None else _collect(child, chunks)
    finally:
        if tickets is not None:
            os.close(tickets)
        if theirs is None and child is not None:
            _abandon(child)  # the caller stopped early or this process failed
    yield from _in_order(root, chunks, mine, theirs, done, progress, len(jobs))


def _load_yaml() -> None:
    """Import PyYAML while the child is already reading: the tickets then give the child more
    chunks, and one process, not both, pays for it when a note's frontmatter needs it (nearly
    every real vault has one, a template's ``{{date}}`` if nothing else). markdown-it, which
    the fast path now rarely needs, is left to whichever process meets such a note: importing
    it here cost a 200-note vault that never needs it 24 ms and saved the help vault nothing."""
    from vaultkit.vault import yamlfront  # noqa: F401


def _in_order(
    root: str,
    chunks: Sequence[Sequence[Job]],
    mine: Taken,
    theirs: Taken,
    done: int,
    progress: Progress | None,
    total: int,
) -> Iterator[Parsed]:
    """Every chunk's results in order; a chunk neither process brought back is read here."""
    for number, chunk in enumerate(chunks):
        rows = mine.get(number)
        if rows is None:
            rows = theirs.get(number) or [read_one(root, job) for job in chunk]
            done += len(chunk)
            if progress is not None:
                progress(done, total)
        yield from rows


def _ticket_pipe(count: int) -> int | None:
    """The read end of a pipe holding the chunk numbers ``0..count-1``, one byte each; its
    write end is closed, so a read past the last ticket returns nothing (it never blocks)."""
    try:
        read_end, write_end = os.pipe()
    except OSError:
        return None
    try:
        os.write(write_end, bytes(range(count)))  # far below a pipe's capacity
    finally:
        os.close(write_end)
    return read_end


def _tickets(tickets: int | None) -> Iterator[int]:
    """Chunk numbers taken from the pipe until it is empty (each read of one byte takes one
    ticket whole, whichever process reads it)."""
    if tickets is None:
        return
    while ticket := os.read(tickets, 1):
        yield ticket[0]


def _fork_reader(root: str, chunks: Sequence[Sequence[Job]], tickets: int) -> Child | None:
    """The child taking tickets beside this process, or None when none could be forked."""
    parent = os.getpid()
    try:
        read_end, write_end = os.pipe()
    except OSError:
        return None
    gc.freeze()  # the child's collector never walks (so never copies) the inherited heap
    try:
        pid = os.fork()
    except OSError:
        os.close(read_end)
        os.close(write_end)
        return None
    finally:
        if os.getpid() == parent:
            gc.unfreeze()
    if pid == 0:
        _child_main(root, chunks, tickets, (read_end, write_end))
    os.close(write_end)
    return pid, read_end


def _child_main(
    root: str, chunks: Sequence[Sequence[Job]], tickets: int, pipe: tuple[int, int]
) -> NoReturn:
    """The forked child: read the chunks of the tickets it takes, write their rows, and leave
    at once, running no exit handlers and flushing none of the parent's buffers (``os._exit``),
    whatever happens."""
    code = 1
    try:
        os.close(pipe[0])
        gc.enable()  # the parent's collector is paused while it loads; parsing needs it
        taken: list[tuple[int, list[ParsedRow]]] = []
        for number in _tickets(tickets):
            taken.append((number, chunk_rows(root, chunks[number])))
        view = memoryview(marshal.dumps(taken))
        while view:
            view = view[os.write(pipe[1], view) :]
        code = 0
    finally:
        os._exit(code)


def _collect(child: Child, chunks: Sequence[Sequence[Job]]) -> Taken:
    """The chunks the child read, once it has exited; none when it failed or wrote nonsense."""
    pid, read_end = child
    try:
        with open(read_end, "rb") as pipe:
            blob = pipe.read()
    finally:
        status = _reap(pid)
    if status != 0:
        return {}
    try:
        taken: list[tuple[int, list[ParsedRow]]] = marshal.loads(blob)
        found = {number: unpack_rows(rows) for number, rows in taken}
    except (EOFError, ValueError, TypeError):
        return {}
    return {n: rows for n, rows in found.items() if _matches(rows, chunks, n)}


def _matches(rows: Sequence[Parsed], chunks: Sequence[Sequence[Job]], number: int) -> bool:
    return 0 <= number < len(chunks) and [r.path for r in rows] == [p for p, _ in chunks[number]]


def _reap(pid: int) -> int | None:
    """Wait for the child; its exit code, or None when it was killed or is not ours."""
    try:
        _, status = os.waitpid(pid, 0)
    except ChildProcessError:
        return None
    return os.WEXITSTATUS(status) if os.WIFEXITED(status) else None


def _abandon(child: Child) -> None:
    pid, read_end = child
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    os.close(read_end)
    _reap(pid)
