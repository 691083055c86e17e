"""The file the installed hook command runs: ``PYTHON -I -S …/vaultkit/vaultkit_hook.py EVENT``.

``-S`` skips :mod:`site` (no site-packages scan, no ``.pth`` files) and ``-I`` keeps out the
user's ``PYTHON*`` variables, user site and current folder, so a hook pays for little more than
the interpreter (see :mod:`vaultkit.agents.hookcmd`). Without ``site`` nothing finds vaultkit,
so this file puts the folder that holds its own package first on ``sys.path``. Its first act
is durable: a SessionEnd hook reads stdin and spools it (:mod:`vaultkit.base.spool`) before it
imports anything else of vaultkit, so a hook killed later loses no session. Then it runs
:func:`vaultkit.hookentry.main` and leaves without the interpreter's teardown. Run any other
way (``python vaultkit_hook.py``) it still works.
"""

import os
import sys


def package_parent() -> str:
    """The folder that holds the ``vaultkit`` package this file belongs to."""
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    if sys.path and os.path.abspath(sys.path[0] or os.curdir) == here:
        del sys.path[0]  # run without -I: the package's own folder must not shadow anything
    sys.path.insert(0, package_parent())
    from vaultkit.base import spool

    words, raw, entry = sys.argv[1:], None, None
    if spool.wanted(words, os.environ):  # the first act: stdin, durable, before anything else
        raw = spool.read_stdin()
        entry = spool.write(raw, words, os.environ)
    from vaultkit.hookentry import main

    code = main(words, raw=raw, entry=entry)
    for stream in (sys.stdout, sys.stderr):
        try:  # noqa: SIM105  (contextlib would cost the hook an import)
            stream.flush()
        except (AttributeError, OSError, ValueError):
            pass
    os._exit(code)  # every file is closed: skip tearing down the interpreter (~2 ms of CPU)
