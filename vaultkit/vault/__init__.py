"""The vault engine: parse notes, resolve links as Obsidian does, graph, INDEX.md, note cache."""
