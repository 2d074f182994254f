"""The schema part of a Cypher store: apply the ordered migrations, check the indexes the
database really holds (names, state, vector dimension) and report health for ``doctor``.
Dialect-agnostic: the adapter lists its indexes in the shared :class:`FoundIndex` shape and
supplies the dialect's words for the advice.
"""

from __future__ import annotations

import logging
import time
from abc import ABC, abstractmethod
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, ClassVar

from graphrag_core.errors import ConfigError, StoreError, StoreUnavailableError
from graphrag_core.models import StoreHealth
from graphrag_core.stores.rows import Row
from graphrag_core.stores.schema import (
    MIGRATIONS,
    FoundIndex,
    IndexCheck,
    IndexSpec,
    SchemaHints,
    check_indexes,
    index_problems,
)
from graphrag_core.stores.statements import Statement

logger = logging.getLogger(__name__)

INDEX_WAIT_S = 120.0
"""How long opening a store waits for its indexes to come online."""


class SchemaStore(ABC):
    """Migrations, index checks and health over ``_read`` / ``_write``."""

    kind: str
    where: str
    dimension: int
    key_kind: ClassVar[str] = "key"
    """What stands for a ``key`` index in this dialect (see ``schema.IndexKind``)."""
    exact_vectors: ClassVar[bool] = False
    """The dialect keeps no vector index and searches vectors exactly; its vector migrations
    create nothing, and a dimension is checked against the vectors stored."""

    @abstractmethod
    def _read(self, name: str, params: dict[str, Any]) -> list[Row]: ...

    @abstractmethod
    def _write(self, statements: Sequence[Statement]) -> None: ...

    @abstractmethod
    def _create_index(self, name: str) -> None:
        """Run migration ``name``; an index that already exists is not an error."""

    @abstractmethod
    def _found_indexes(self) -> list[FoundIndex]:
        """Every index the database holds."""

    @abstractmethod
    def _schema_hints(self) -> SchemaHints: ...

    @abstractmethod
    def server_version(self) -> str:
        """The server's product and version, for ``doctor``."""

    def _drop_vector_indexes(self) -> None:
        """Drop vector indexes a store of an earlier version created (exact dialects)."""
        return

    def _stored_dimensions(self) -> list[tuple[IndexSpec, int]]:
        """Vector specs whose stored vectors have another dimension (exact dialects)."""
        return []

    def _version_problems(self, version: str) -> list[str]:
        """Why this server version cannot run loregraph's statements (none by default)."""
        return []

    def migrate(self) -> None:
        """Apply pending migrations, recreate an index dropped after it was recorded, wait
        for indexes being built, and refuse (ConfigError) a store whose indexes cannot serve
        this embedder."""
        pending = self._apply_pending()
        if self.exact_vectors:
            self._drop_vector_indexes()
        check = self._listed_indexes(may_skip=not pending)
        if check is None:
            return
        if check.missing:
            for spec in check.missing:
                self._create_index(spec.migration)
            check = self.index_check()
        check = self._await_online(check)
        failed = tuple((spec, "FAILED") for spec in check.failed)
        blocking = IndexCheck(check.missing, failed, check.wrong_dimension)
        if blocking.blocking:
            problems = index_problems(blocking, self.dimension, self._schema_hints())
            raise ConfigError(f"the store at {self.where} cannot be used: " + " ".join(problems))

    def _apply_pending(self) -> list[str]:
        applied = self.migrations_applied()
        pending = [name for name in MIGRATIONS if name not in applied]
        for name in pending:
            self._create_index(name)
            now = datetime.now(UTC).isoformat()
            self._write([("migration_record", {"name": name, "applied_at": now})])
        return pending

    def _listed_indexes(self, *, may_skip: bool) -> IndexCheck | None:
        """The index check, or None where listing is refused and the schema was set up
        before (a Neo4j role that may read and write but not SHOW INDEXES; ``doctor``
        reports what it cannot see)."""
        try:
            return self.index_check()
        except StoreUnavailableError:
            raise
        except StoreError as exc:
            if not may_skip:
                raise
            logger.warning("index check skipped: %s", exc)
            return None

    def _await_online(self, check: IndexCheck) -> IndexCheck:
        """Wait (up to :data:`INDEX_WAIT_S`) for indexes still being built: a search on a
        FalkorDB vector index under construction fails, and a new index on a big graph takes
        a while. A FAILED index is not waited for."""
        deadline, delay = time.monotonic() + INDEX_WAIT_S, 0.01
        if check.not_online:
            logger.info("waiting for indexes to come online: %s", check.not_online)
        while check.not_online and not check.failed and time.monotonic() < deadline:
            time.sleep(delay)
            delay = min(delay * 2, 0.5)
            check = self.index_check()
        return check

    def migrations_applied(self) -> set[str]:
        return {row["name"] for row in self._read("migrations_applied", {})}

    def index_check(self) -> IndexCheck:
        """The indexes the database holds against the expected ones, at this dimension."""
        check = check_indexes(
            self._found_indexes(), self.dimension, self.key_kind, exact_vectors=self.exact_vectors
        )
        if not self.exact_vectors:
            return check
        wrong = (*check.wrong_dimension, *self._stored_dimensions())
        return IndexCheck(check.missing, check.not_online, wrong)

    def health(self) -> StoreHealth:
        """Reachability, version, migrations and indexes, each problem with what to do."""
        base = {"kind": self.kind, "where": self.where, "migrations_expected": MIGRATIONS}
        try:
            version = self.server_version()
            applied = self.migrations_applied()
            check = self.index_check()
        except StoreError as exc:
            reachable = not isinstance(exc, StoreUnavailableError)
            return StoreHealth(**base, reachable=reachable, problems=(str(exc),))
        pending = [name for name in MIGRATIONS if name not in applied]
        # an index of a pending migration is missing for that reason alone: one line says it
        visible = IndexCheck(
            tuple(spec for spec in check.missing if spec.migration in applied),
            check.not_online,
            check.wrong_dimension,
        )
        problems = [
            *self._version_problems(version),
            *_pending(pending),
            *index_problems(visible, self.dimension, self._schema_hints()),
        ]
        return StoreHealth(
            **base,
            reachable=True,
            version=version,
            migrations_applied=tuple(name for name in MIGRATIONS if name in applied),
            indexes_missing=tuple(sorted(spec.key for spec in check.missing)),
            problems=tuple(problems),
        )


def _pending(pending: Sequence[str]) -> list[str]:
    if not pending:
        return []
    return [
        f"{len(pending)} migration(s) not applied ({', '.join(pending)}): run any loregraph "
        "command that opens the store (e.g. `loregraph campaigns`)."
    ]
