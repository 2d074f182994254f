"""The surfaces: thin layers that parse, call a service function and render. ``cli/`` is the
``loregraph`` command line; ``http/``, ``mcp/`` and ``web/`` are the homes of the HTTP API, the
MCP server and the game master's web page. Nothing imports a surface."""
