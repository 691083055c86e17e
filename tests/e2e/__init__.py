"""End-to-end suite: the real Claude Code CLI against a mock Messages API."""
