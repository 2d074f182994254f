"""Use cases: ingest, changelog, views, analytics, GM decisions, store copy, health. They
receive ports (never build adapters) and take data (bytes, dicts), so that the CLI, the HTTP
API and the MCP server call the same functions; :class:`services.service.LoregraphService`
is their table of contents."""
