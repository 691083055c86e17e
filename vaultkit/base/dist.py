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
# What the Claude Code plugin says when vaultkit is not installed (its SessionStart hook, shown to
# the user, and its MCP server's error): one line, the exact command.
MISSING = (
    f"vaultkit is not installed, so the vaultkit plugin cannot remember this session: install it"
    f" with `{INSTALL}` (or `uv tool install {DISTRIBUTION}`), then start a new session."
)
