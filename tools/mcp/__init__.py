"""Any MCP server as an environment (`--env mcp`): see `tools.mcp.environment`."""
