"""vaultkit: long-term memory for AI coding agents that is also an Obsidian knowledge base."""

__version__ = "0.1.0.dev0"
