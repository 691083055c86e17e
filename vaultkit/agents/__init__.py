"""Agent integration: hook settings merge and install, slash commands, config-dir paths."""
