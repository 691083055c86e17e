"""The file the installed hook command runs: ``PYTHON -I -S …/vaultkit/vaultkit_hook.py EVENT``.

``-S`` skips :mod:`site` (no site-packages scan, no ``.pth`` files) and ``-I`` keeps out the
user's ``PYTHON*`` variables, user site and current folder, so a hook pays for little more than
the interpreter (see :mod:`vaultkit.agents.hookcmd`). Without ``site`` nothing finds vaultkit,
so this file puts the folder that holds its own package first on ``sys.path`` and runs
:func:`vaultkit.hookentry.main`, then leaves without the interpreter's teardown. Run any other
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
    from vaultkit.hookentry import main

    code = main()
    for stream in (sys.stdout, sys.stderr):
        try:  # noqa: SIM105  (contextlib would cost the hook an import)
            stream.flush()
        except (AttributeError, OSError, ValueError):
            pass
    os._exit(code)  # every file is closed: skip tearing down the interpreter (~2 ms of CPU)
