"""The game master's web page, served by the HTTP surface."""
