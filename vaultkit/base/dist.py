"""How vaultkit is published: its distribution name, its commands and the line that installs it.

The name ``vaultkit`` on PyPI is another project's, so vaultkit is published as
``vaultkit-memory`` (checked free with ``pip index versions vaultkit-memory``); the commands it
installs keep their names. Every message that tells a user how to install vaultkit takes the
command from here, so they all say the same thing. No imports: hooks and launchers read it.
"""

DISTRIBUTION = "vaultkit-memory"
CLI = "vaultkit"  # the command line tool, and `vaultkit mcp`
HOOK = "vaultkit-hook"  # the hook entry point the agents run
INSTALL = f"pipx install {DISTRIBUTION}"  # or: uv tool install / pip install DISTRIBUTION
INSTALL_ANY = f"{INSTALL} (or: uv tool install {DISTRIBUTION})"
