"""The MCP server: the project's memory as read-only tools for the agent (official MCP SDK)."""
