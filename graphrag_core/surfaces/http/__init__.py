"""The HTTP API (FastAPI): routes that parse a request, call a service function and render."""
