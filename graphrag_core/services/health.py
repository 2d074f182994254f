"""``doctor``'s use case: the configured store's health report — which store, whether it
answers, its version, migrations and indexes (present, online, of the embedder's vector
dimension) — with every problem saying what to do. Never a password in the report, and never
a crash: any failure, a vendor's too, is a problem in the report."""

from __future__ import annotations

from collections.abc import Callable

from graphrag_core.config import StoreSettings
from graphrag_core.errors import LoregraphError
from graphrag_core.models import StoreHealth
from graphrag_core.ports import GraphStore
from graphrag_core.uris import password_of, redact


def store_health(section: StoreSettings, open_store: Callable[[], GraphStore]) -> StoreHealth:
    """The health of the store ``section`` describes, opened with ``open_store``; the
    store's passwords are scrubbed from every field."""
    health = _raw_health(section, open_store)
    secrets = [s for s in (section.neo4j_password, password_of(section.falkordb_url)) if s]

    def scrub(text: str) -> str:
        for secret in secrets:
            text = text.replace(secret, "***")
        return text

    return health.model_copy(
        update={"where": scrub(health.where), "problems": tuple(map(scrub, health.problems))}
    )


def store_location(section: StoreSettings) -> str:
    """Where the store is, without its password."""
    if section.kind == "falkordb-embedded":
        return str(section.data_dir)
    if section.kind == "falkordb":
        url = section.falkordb_url
        return redact(url) if url else "not configured (set LOREGRAPH_FALKORDB_URL)"
    uri = section.neo4j_uri
    return redact(uri) if uri else "not configured (set LOREGRAPH_NEO4J_URI)"


def _raw_health(section: StoreSettings, open_store: Callable[[], GraphStore]) -> StoreHealth:
    try:
        store = open_store()
    except Exception as exc:  # doctor reports every failure, a vendor's too
        return _unreachable(section, exc)
    try:
        return store.health()
    except Exception as exc:
        return _unreachable(section, exc)
    finally:
        store.close()


def _unreachable(section: StoreSettings, exc: Exception) -> StoreHealth:
    why = str(exc) if isinstance(exc, LoregraphError) else f"unexpected {type(exc).__name__}: {exc}"
    return StoreHealth(
        kind=section.kind, where=store_location(section), reachable=False, problems=(why,)
    )
