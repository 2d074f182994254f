"""Store addresses: which a store accepts, and how to show one without its password."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from graphrag_core.errors import ConfigError

__all__ = ["NEO4J_SCHEMES", "check_neo4j_uri", "password_of", "redact"]

NEO4J_SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")
"""The Bolt schemes of the official driver; ``http(s)`` is its preview Query API, which
needs extra packages and is not what loregraph speaks."""


def redact(url: str) -> str:
    """``url`` without its password, for messages and reports."""
    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:  # a malformed URL: show only its scheme
        return f"{url.split(':', 1)[0]}://…"
    if password is None:
        return url
    netloc = parts.netloc.replace(f":{password}@", ":***@")
    return urlunsplit(parts._replace(netloc=netloc))


def password_of(url: str | None) -> str | None:
    """The password in ``url``: None when there is none, or when ``url`` is malformed
    (``redact`` then shows its scheme only)."""
    try:
        return urlsplit(url).password if url else None
    except ValueError:
        return None


def check_neo4j_uri(uri: str, setting: str = "LOREGRAPH_NEO4J_URI") -> str:
    """``uri`` if the driver can use it, else a ConfigError saying which URI to use."""
    scheme = uri.split("://", 1)[0].lower() if "://" in uri else ""
    if scheme in NEO4J_SCHEMES:
        return uri
    hint = (
        " (http:// is Neo4j Browser's address; the Bolt address is usually on port 7687)"
        if scheme.startswith("http")
        else ""
    )
    raise ConfigError(
        f"{setting} {redact(uri)!r} is not a Neo4j Bolt URI{hint}: use one of "
        f"{', '.join(f'{s}://' for s in NEO4J_SCHEMES)}, e.g. neo4j://localhost:7687."
    )
