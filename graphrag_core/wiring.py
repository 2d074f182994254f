"""The composition root: the only place that turns settings into adapters."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime

from extraction.token_estimate import encoding_for
from graphrag_core.analytics.gds import runner_for
from graphrag_core.config import StoreSettings
from graphrag_core.errors import ConfigError
from graphrag_core.models import StoreHealth
from graphrag_core.ports import Embedder, GraphStore, SnapshotFiles, TokenCounter
from graphrag_core.services.extraction import LlmSetup
from graphrag_core.services.health import store_health
from graphrag_core.services.service import LoregraphService
from graphrag_core.services.store_copy import PartReport, copy_campaigns
from graphrag_core.settings import Settings
from graphrag_core.uris import check_neo4j_uri, redact


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


@dataclass(frozen=True)
class StoreSettingNames:
    """What the user calls each store setting, for messages: environment variables for the
    configured store, ``--to-*`` options for a migration's target."""

    kind: str
    """How the kind was chosen, with ``{}`` for the kind: ``LOREGRAPH_STORE={}``."""
    falkordb_url: str
    neo4j_uri: str
    neo4j_user: str
    neo4j_password: str
    neo4j_database: str


CONFIGURED_STORE = StoreSettingNames(
    kind="LOREGRAPH_STORE={}",
    falkordb_url="LOREGRAPH_FALKORDB_URL",
    neo4j_uri="LOREGRAPH_NEO4J_URI",
    neo4j_user="LOREGRAPH_NEO4J_USER",
    neo4j_password="LOREGRAPH_NEO4J_PASSWORD",  # noqa: S106 (a setting's name)
    neo4j_database="LOREGRAPH_NEO4J_DATABASE",
)


def check_store_section(section: StoreSettings, names: StoreSettingNames) -> StoreSettings:
    """``section`` if it says where its store is, else a ConfigError naming the settings
    (``names``) that do."""
    kind = names.kind.format(section.kind)
    if section.kind == "falkordb" and not section.falkordb_url:
        raise ConfigError(f"{kind} needs {names.falkordb_url} (e.g. redis://localhost:6379)")
    if section.kind == "neo4j":
        if not section.neo4j_uri:
            raise ConfigError(
                f"{kind} needs {names.neo4j_uri} (e.g. neo4j://localhost:7687) and the "
                f"password, {names.neo4j_password} (user and database: {names.neo4j_user}, "
                f"{names.neo4j_database}; default neo4j)"
            )
        check_neo4j_uri(section.neo4j_uri, setting=names.neo4j_uri)
    return section


def build_store(section: StoreSettings, dimension: int) -> GraphStore:
    """Open the configured graph store (starting the embedded engine if that is the one)."""
    from graphrag_core.stores.falkordb import FalkorDBStore

    check_store_section(section, CONFIGURED_STORE)
    if section.kind == "falkordb-embedded":
        return FalkorDBStore.embedded(
            section.data_dir,
            graph_name=section.graph_name,
            startup_timeout_s=section.startup_timeout_s,
            dimension=dimension,
        )
    if section.kind == "falkordb":
        return FalkorDBStore.from_url(
            section.falkordb_url or "", graph_name=section.graph_name, dimension=dimension
        )
    from graphrag_core.stores.neo4j import Neo4jStore

    return Neo4jStore.connect(
        section.neo4j_uri or "",
        section.neo4j_user,
        section.neo4j_password,
        section.neo4j_database,
        dimension=dimension,
    )


def connect_gds(section: StoreSettings) -> object:
    """A Graph Data Science client for the Neo4j store (optional extra ``loregraph[gds]``)."""
    from graphdatascience import GraphDataScience

    return GraphDataScience(
        section.neo4j_uri or "",
        auth=(section.neo4j_user, section.neo4j_password or ""),
        database=section.neo4j_database,
    )


def build_embedder(settings: Settings) -> Embedder:
    from graphrag_core.providers.sentence_transformers import SentenceTransformerEmbedder

    section = settings.embedding
    bulk = SentenceTransformerEmbedder(
        batch_size=section.batch_size, device=section.device, query_threads=section.query_threads
    )
    if section.query_encoder == "sentence-transformers":
        return bulk
    from graphrag_core.providers.numpy_minilm import NumpyMiniLM, QuerySplitEmbedder

    return QuerySplitEmbedder(bulk, NumpyMiniLM(threads=section.query_threads))


def build_llm(settings: Settings) -> LlmSetup | None:
    """The LLM extractor's setup, or ``None`` when no model is configured."""
    section = settings.llm_section()
    if not section.model:
        return None
    from extraction.pricing import load_prices
    from graphrag_core.providers.openai import OpenAIChatModel

    return LlmSetup(OpenAIChatModel(section), section, load_prices(section.price_table))


class LazyTokenCounter:
    """Loads the BPE tables of ``encoding`` on the first count (a command that counts no
    tokens never pays for them), once: concurrent first counts (a server's first previews)
    wait for one load instead of each loading the tables."""

    def __init__(self, encoding: str = "o200k_base") -> None:
        self._encoding = encoding
        self._inner: TokenCounter | None = None
        self._lock = threading.Lock()

    def count(self, text: str) -> int:
        inner = self._inner
        if inner is None:
            with self._lock:
                if self._inner is None:
                    from graphrag_core.providers.bpe_tokens import BpeTokenCounter

                    self._inner = BpeTokenCounter(self._encoding)
                inner = self._inner
        return inner.count(text)


def build_service(settings: Settings, *, embedder: Embedder | None = None) -> LoregraphService:
    embedder = embedder or build_embedder(settings)
    store = build_store(settings.store_section(), embedder.dimension)
    try:
        store.migrate()
    except BaseException:
        store.close()
        raise
    llm = build_llm(settings)
    return LoregraphService(
        store=store,
        embedder=embedder,
        clock=SystemClock(),
        data_dir=settings.data_dir,
        ingest=settings.ingest,
        ranking=settings.ranking,
        embedding=settings.embedding,
        analytics=settings.analytics,
        analytics_runner=runner_for(
            settings.store, settings.analytics, lambda: connect_gds(settings.store_section())
        ),
        chat=llm.chat if llm else None,  # a configured model also writes the summaries
        llm=llm,
        token_counter=LazyTokenCounter(encoding_for(llm.chat.model_id)[0] if llm else "o200k_base"),
        snapshots=snapshot_files(settings),
    )


def snapshot_files(settings: Settings) -> SnapshotFiles:
    """The read snapshots under ``<data dir>/snapshots``, labelled with the store they were
    read from (two stores sharing a data dir never serve each other's)."""
    from graphrag_core.stores.snapshot_files import SnapshotDirectory

    section = settings.store_section()
    where = {
        "falkordb-embedded": str(section.data_dir.resolve()),
        "falkordb": redact(section.falkordb_url or ""),
        "neo4j": f"{section.neo4j_uri}/{section.neo4j_database}",
    }.get(section.kind, section.kind)
    identity = f"{section.kind}:{where}:{section.graph_name}"
    return SnapshotDirectory(settings.data_dir / "snapshots", identity)


@contextmanager
def open_service(
    settings: Settings, *, embedder: Embedder | None = None
) -> Iterator[LoregraphService]:
    """A service whose store (and embedded engine, if it started one) is closed on exit."""
    service = build_service(settings, embedder=embedder)
    try:
        yield service
    finally:
        service.close()


def check_store_health(settings: Settings) -> StoreHealth:
    """``doctor``: the configured store's health report (never raises, never a password)."""
    section = settings.store_section()
    return store_health(section, lambda: build_store(section, build_embedder(settings).dimension))


_ANY_DIMENSION = 384  # the source of a copy is only read: reads do not depend on it


def copy_between_stores(
    settings: Settings, target: StoreSettings, campaign: str, every: bool, replace: bool
) -> list[PartReport]:
    """``migrate``: copy ``campaign`` (or ``every`` one) from the configured store to
    ``target``, then verify the copy; both stores are closed afterwards."""
    source = build_store(settings.store_section(), _ANY_DIMENSION)
    try:
        return copy_campaigns(
            source,
            lambda dimension: build_store(target, dimension),
            campaign,
            every=every,
            replace=replace,
            any_dimension=_ANY_DIMENSION,
        )
    finally:
        source.close()
