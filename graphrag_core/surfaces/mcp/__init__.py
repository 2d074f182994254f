"""The MCP server for agents: tools that call the same service functions as the CLI."""
