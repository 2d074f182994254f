"""The application service: the one place the CLI, the HTTP API and the MCP server call.

Surfaces stay thin; every use case lives here, with ports handed in by the composition root
(:mod:`graphrag_core.wiring`)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import tee
from pathlib import Path
from typing import Any

from changelog.impact import RebuildPolicy
from changelog.normalise import content_hash
from changelog.posting import plan_post
from changelog.schema import ChangeSetInput
from extraction.resolution import EntityResolver
from extraction.version import extractor_tag
from graphrag_core.analytics.runners import AnalyticsRunner
from graphrag_core.analytics_models import AnalyticsSnapshot, BuildReport
from graphrag_core.config import (
    AnalyticsSettings,
    EmbeddingSettings,
    IngestSettings,
    PresetName,
    RankingSettings,
)
from graphrag_core.errors import ChangelogError, RequestError
from graphrag_core.input_safety import question_problem
from graphrag_core.models import (
    AskResult,
    CampaignView,
    ChangeSetRecord,
    Entity,
    EntityView,
    IngestReport,
    SourceUpload,
    StoreHealth,
)
from graphrag_core.ports import (
    ChatModel,
    Clock,
    Embedder,
    GraphStore,
    NullProgress,
    ProgressListener,
    SnapshotFiles,
    TokenCounter,
)
from graphrag_core.services.agent_use_cases import AgentUseCases
from graphrag_core.services.analytics import AnalyticsService
from graphrag_core.services.cache import CampaignCache, PinnedRevisions
from graphrag_core.services.changelog import (
    ChangeSetSource,
    PostResult,
    importance_by_degree,
    post_changeset,
    posting_lock,
    read_changeset,
)
from graphrag_core.services.entity_views import entity_view
from graphrag_core.services.evaluation import evaluate
from graphrag_core.services.extraction import LlmSetup, cached_keys, replayed_ledger, run_extraction
from graphrag_core.services.gc_pause import paused_gc
from graphrag_core.services.ingest import (
    Classification,
    SourceScan,
    StoredState,
    campaign_root,
    classify,
    embed_texts,
    known_entities,
    load_stored,
    plan_delta,
    protected_paths,
    read_sources,
    read_uploads,
    texts_to_embed,
    with_profiles,
)
from graphrag_core.services.llm_use_cases import LlmUseCases, check_campaign, require_campaign
from graphrag_core.services.manifest import (
    failed_last_time,
    ingest_roots,
    read_manifests,
    remove_manifests,
    write_manifest,
)
from graphrag_core.services.read_snapshot import ReadSnapshot
from graphrag_core.services.rebuilds import Rebuilds
from graphrag_core.services.vector_index import SnapshotSearch, VectorIndex
from graphrag_core.services.views import StoredCampaign
from graphrag_core.services.views import load_stored as load_stored_campaign
from graphrag_core.services.withdrawal import WithdrawResult, withdraw_changeset
from ranking.eval_models import EvalReport, QuestionSet
from ranking.historical import is_historical
from ranking.inputs import RankInputs
from ranking.lexical import LexicalIndex
from ranking.names import NameIndex
from ranking.ranker import Ranker

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class PostOutcome:
    """A posted change set and the analytics rebuild it triggered: None when it called for
    none, or when a build that started after its write ran meanwhile (see
    :mod:`.rebuilds`)."""

    post: PostResult
    build: BuildReport | None


@dataclass(frozen=True)
class WithdrawOutcome:
    """A recorded withdrawal and the analytics rebuild it triggered, if any."""

    withdrawal: WithdrawResult
    build: BuildReport | None


class IndexedView:
    """A campaign view with the indexes and signal inputs the ranker reads, each built once,
    on first use: a view read only for its states (the one a community summary was written
    at, to patch stale findings) never builds the BM25 index or the ranking inputs."""

    def __init__(
        self,
        view: CampaignView,
        inputs: Callable[[CampaignView], RankInputs],
        lexical: Callable[[CampaignView], LexicalIndex] = LexicalIndex.build,
    ) -> None:
        self.view = view
        self._make_inputs = inputs
        self._make_lexical = lexical
        self._lock = threading.Lock()
        self._lexical: LexicalIndex | None = None
        self._inputs: RankInputs | None = None

    @property
    def lexical(self) -> LexicalIndex:
        with self._lock:
            if self._lexical is None:
                with paused_gc():
                    self._lexical = self._make_lexical(self.view)
            return self._lexical

    @property
    def inputs(self) -> RankInputs:
        with self._lock:
            if self._inputs is None:
                with paused_gc():
                    self._inputs = self._make_inputs(self.view)
            return self._inputs

    @property
    def names(self) -> NameIndex:
        return self.inputs.names


class LoregraphService(LlmUseCases, AgentUseCases):
    """Ingest, post changelogs, ask and inspect entities, for any campaign of one store."""

    def __init__(
        self,
        *,
        store: GraphStore,
        embedder: Embedder,
        clock: Clock,
        data_dir: Path,
        ingest: IngestSettings | None = None,
        ranking: RankingSettings | None = None,
        embedding: EmbeddingSettings | None = None,
        rebuild: RebuildPolicy | None = None,
        analytics: AnalyticsSettings | None = None,
        chat: ChatModel | None = None,
        analytics_runner: AnalyticsRunner | None = None,
        llm: LlmSetup | None = None,
        token_counter: TokenCounter | None = None,
        snapshots: SnapshotFiles | None = None,
    ) -> None:
        """``snapshots``: where the campaigns' read snapshots are kept (see
        :mod:`.read_snapshot`); None keeps none (every first query reads the store)."""
        self.store = store
        self.embedder = embedder
        self.clock = clock
        self.data_dir = data_dir
        self.ingest_settings = ingest or IngestSettings()
        self.ranking_settings = ranking or RankingSettings()
        self.embedding_settings = embedding or EmbeddingSettings()
        self.rebuild_policy = rebuild or RebuildPolicy()
        self.llm = llm
        self.token_counter = token_counter
        self._snapshot = ReadSnapshot(store, snapshots, embedder) if snapshots else None
        # read once per request inside self.revisions.pinned() (ask, preview, expand, context)
        self.revisions = PinnedRevisions(store.campaign_revision)
        self._views: CampaignCache[IndexedView] = CampaignCache(self.revisions)
        # what views are cut from, read once per revision for every audience and as_of
        self._stored: CampaignCache[StoredCampaign] = CampaignCache(self.revisions, limit=4)
        self._entities: CampaignCache[list[Entity]] = CampaignCache(
            store.campaign_revision, limit=4
        )
        self._vectors: CampaignCache[VectorIndex | None] = CampaignCache(self.revisions, limit=4)
        self._rebuilds = Rebuilds(store.campaign_revision)
        snapshot = self._snapshot
        self.analytics = AnalyticsService(
            store,
            embedder,
            clock,
            analytics or AnalyticsSettings(),
            chat=chat,
            runner=analytics_runner,
            concurrency=llm.settings.concurrency if llm else 1,
            load=snapshot.analytics if snapshot else None,
            after_save=self._after_build if snapshot else None,
            revisions=self.revisions,
        )

    def close(self) -> None:
        self.analytics.close()
        self.store.close()

    # ------------------------------------------------------------------ ingest

    def ingest(
        self,
        path: Path,
        campaign: str,
        progress: ProgressListener | None = None,
        *,
        use_llm: bool = False,
        retry_failed: bool = False,
    ) -> IngestReport:
        """Bring the store in line with the sources under ``path``; see :mod:`.ingest`.
        ``use_llm``: extract with the configured LLM (its cache makes unchanged chunks free);
        ``retry_failed``: ask it again for chunks whose output was unusable last time."""
        progress = progress or NullProgress()
        check_campaign(campaign)
        stored = load_stored(self.store, campaign)
        # one lazy read of the manifests serves both: the roots are read only for a single file
        for_roots, for_failures = tee(read_manifests(self.data_dir, campaign))
        roots = ingest_roots(for_roots)
        root = campaign_root(path, stored.sources, roots) if path.exists() else None
        scan = read_sources(path, progress, root=root)
        return self._ingest_scan(
            scan, stored, campaign, progress, for_failures, use_llm, retry_failed
        )

    def ingest_files(
        self,
        files: Sequence[SourceUpload],
        campaign: str,
        progress: ProgressListener | None = None,
        *,
        use_llm: bool = False,
        retry_failed: bool = False,
    ) -> IngestReport:
        """Ingest uploaded files (bytes with their campaign paths: an HTTP upload, an MCP
        argument) through the same steps as :meth:`ingest`; an upload adds or updates its
        files and withdraws none, like a single-file ingest."""
        progress = progress or NullProgress()
        check_campaign(campaign)
        stored = load_stored(self.store, campaign)
        scan = read_uploads(files, self.data_dir / "uploads" / campaign, progress)
        manifests = read_manifests(self.data_dir, campaign)
        return self._ingest_scan(scan, stored, campaign, progress, manifests, use_llm, retry_failed)

    def _ingest_scan(
        self,
        scan: SourceScan,
        stored: StoredState,
        campaign: str,
        progress: ProgressListener,
        manifests: Iterable[dict[str, Any]],
        use_llm: bool,
        retry_failed: bool,
    ) -> IngestReport:
        llm = self._llm_setup(retry_failed=retry_failed) if use_llm else None
        failed_before = failed_last_time(manifests, [d.path for d in scan.documents])
        tag = extractor_tag(llm=llm is not None)
        classification = classify(scan, stored.sources, failed_before, tag)
        if llm is not None and not classification.dirty:
            total, cached = cached_keys(
                scan.documents, self.ingest_settings, llm, self.store, campaign
            )
            classification = classification.with_pending_llm(total - len(cached))
        report = IngestReport(
            campaign=campaign,
            root=str(scan.root),
            files={d.path: d.sha256 for d in scan.documents},
            added=classification.added,
            changed=classification.changed,
            removed=classification.removed,
            unchanged=classification.unchanged,
            recovered=classification.recovered,
            outdated=classification.outdated,
            failures=scan.failures,
            entities=len(stored.entities),
            relations=len(stored.relations),
            chunks=len(stored.chunks),
        )
        if classification.dirty:
            report = self._write_ingest(
                campaign, scan, stored, classification, report, progress, llm
            )
        elif llm is not None:  # zero calls: say so in the manifest
            ledger = replayed_ledger(total)
            report = report.model_copy(
                update={"extractor": f"llm:{llm.chat.model_id}", "ledger": ledger}
            )
        write_manifest(self.data_dir, report, self.clock.now())
        return report

    def _write_ingest(
        self,
        campaign: str,
        scan: SourceScan,
        stored: StoredState,
        classification: Classification,
        report: IngestReport,
        progress: ProgressListener,
        llm: LlmSetup | None = None,
    ) -> IngestReport:
        progress.start("extract", None)
        keep = protected_paths(scan, stored.sources)
        known, defined_elsewhere = known_entities(stored, keep)
        outcome = run_extraction(
            scan.documents, self.ingest_settings, self.store, campaign,
            llm=llm, embedder=self.embedder, progress=progress,
            known=known, defined_elsewhere=defined_elsewhere, stored=stored.entities.values(),
        )  # fmt: skip
        extraction = with_profiles(outcome.extraction, stored, scan, keep, self.ingest_settings)
        progress.finish("extract")
        delta = plan_delta(extraction, stored, scan, classification, keep)
        texts = texts_to_embed(delta, stored)
        vectors = embed_texts(texts, self.embedder, progress, self.embedding_settings.batch_size)
        delta = delta.model_copy(update={"vectors": vectors})
        progress.start("write", None)
        self.store.apply_delta(campaign, delta)
        progress.finish("write")
        self._forget(campaign)
        after = load_stored(self.store, campaign)
        if self._snapshot is not None:  # the vectors just written, for the next reader
            self._snapshot.refresh_vectors(
                campaign, after.entities.values(), after.chunks.values(),
                self.analytics.stored(campaign), vectors,
            )  # fmt: skip
        return report.model_copy(
            update={
                "entities": len(after.entities),
                "relations": len(after.relations),
                "chunks": len(after.chunks),
                "embedded": len(vectors),
                "wrote": True,
                "extractor": outcome.extractor,
                "ledger": outcome.ledger,
                "extraction_records": tuple(outcome.records),
                "decision_warnings": tuple(outcome.decision_warnings),
            }
        )

    # ------------------------------------------------------------------ changelog

    def post_changelog(
        self,
        changeset: ChangeSetSource,
        campaign: str,
        *,
        source_name: str | None = None,
        amend: bool = False,
        progress: ProgressListener | None = None,
    ) -> PostResult:
        """Post a change set; when its impact schedules or forces a rebuild, rebuild the
        analytics once the change set is stored."""
        return self.post_and_rebuild(
            changeset, campaign, source_name=source_name, amend=amend, progress=progress
        ).post

    def post_and_rebuild(
        self,
        changeset: ChangeSetSource,
        campaign: str,
        *,
        source_name: str | None = None,
        amend: bool = False,
        progress: ProgressListener | None = None,
    ) -> PostOutcome:
        """:meth:`post_changelog`, also returning the report of the rebuild it triggered.
        ``changeset``: a file, JSON/YAML text or a parsed mapping (an HTTP body);
        ``source_name`` is what its changes cite (default: the file name, or "changeset")."""
        parsed, source = read_changeset(changeset, source_name)
        check_campaign(campaign)
        builds = self._rebuilds.finished(campaign)
        snapshot = self.analytics.stored(campaign)
        # a repeat of a stored post (a retry, a second recap job) reads no entities when a
        # build's importance scores it (without one, the interim importance needs them)
        entities = self._post_entities(campaign, parsed, amend, snapshot is None)
        with posting_lock(self.data_dir, campaign):  # plan and write as one step
            if entities is None:  # decided again under the lock: it may write after all
                entities = self._post_entities(campaign, parsed, amend, False) or []
            result = post_changeset(
                self.store,
                campaign,
                parsed,
                source,
                resolver=EntityResolver(entities),
                entities=entities,
                # only read for the interim importance, when there is no build's
                relations=self.store.load_relations(campaign) if snapshot is None else (),
                policy=self.rebuild_policy,
                now=self.clock.now(),
                amend=amend,
                importance=snapshot.importance() if snapshot else None,
                since_session=snapshot.last_rebuild_session if snapshot else 0,
            )
            written_at = self.store.campaign_revision(campaign)
        if result.action != "duplicate":
            self._forget(campaign)
        if snapshot is not None and result.rebuild != "none" and result.action != "duplicate":

            def rebuild() -> BuildReport:  # from the snapshot read above, unless one replaced it
                kept = snapshot if self._rebuilds.finished(campaign) == builds else None
                return self.analytics.build(campaign, progress or NullProgress(), previous=kept)

            build = self._rebuilds.after_write(campaign, written_at, rebuild)
            return PostOutcome(result, build)
        return PostOutcome(result, None)

    def withdraw(
        self,
        campaign: str,
        session_id: int,
        *,
        revision: int | None = None,
        at_session: int | None = None,
        note: str = "",
        by: str = "cli",
        progress: ProgressListener | None = None,
    ) -> WithdrawOutcome:
        """Withdraw ``revision`` (default: the latest live one) of a posted session, from
        ``at_session`` on (default: the campaign's latest posted session); append-only, see
        ``graphrag_core.services.withdrawal``. Rebuilds the analytics when its impact calls
        for it, as a post does."""
        check_campaign(campaign)
        builds = self._rebuilds.finished(campaign)
        snapshot = self.analytics.stored(campaign)
        importance = snapshot.importance() if snapshot else None
        with posting_lock(self.data_dir, campaign):
            if importance is None:
                importance = importance_by_degree(
                    self.store.load_entities(campaign), self.store.load_relations(campaign)
                )
            result = withdraw_changeset(
                self.store,
                campaign,
                session_id,
                revision=revision,
                at_session=at_session,
                note=note,
                by=by,
                now=self.clock.now(),
                importance=importance,
                policy=self.rebuild_policy,
                since_session=snapshot.last_rebuild_session if snapshot else 0,
            )
            written_at = self.store.campaign_revision(campaign)
        self._forget(campaign)
        if snapshot is not None and result.rebuild != "none":

            def rebuild() -> BuildReport:  # as a post's: serialised, skipped when covered
                kept = snapshot if self._rebuilds.finished(campaign) == builds else None
                return self.analytics.build(campaign, progress or NullProgress(), previous=kept)

            return WithdrawOutcome(
                result, self._rebuilds.after_write(campaign, written_at, rebuild)
            )
        return WithdrawOutcome(result, None)

    def _post_entities(
        self, campaign: str, parsed: ChangeSetInput, amend: bool, needed: bool
    ) -> list[Entity] | None:
        """The stored entities a post resolves names against (cached per revision); None
        when they are not ``needed`` otherwise and, as stored now, the post is a duplicate
        that writes nothing."""
        if needed:
            return self._entities.get(
                campaign, "entities", lambda: self.store.load_entities(campaign)
            )
        try:
            plan = plan_post(
                self.store.load_changesets(campaign),
                parsed.session_id,
                content_hash(parsed),
                amend=amend,
            )
        except ChangelogError:  # a conflict: post_changeset says so
            plan = None
        if plan is not None and not plan.writes:
            return None
        return self._entities.get(campaign, "entities", lambda: self.store.load_entities(campaign))

    # ------------------------------------------------------------------ analytics (issue 5)

    def build(self, campaign: str, progress: ProgressListener | None = None) -> BuildReport:
        """Rebuild the analytics (one build of a campaign at a time, see :mod:`.rebuilds`)."""
        check_campaign(campaign)
        return self._rebuilds.run(
            campaign, lambda: self.analytics.build(campaign, progress or NullProgress())
        )

    def build_after_ingest(
        self, report: IngestReport, progress: ProgressListener | None = None
    ) -> BuildReport | None:
        """The build that ends an ingest; skipped (None) when the ingest wrote nothing and the
        campaign already has analytics (an unchanged re-ingest costs no rebuild)."""
        if not report.wrote and self.analytics.stored(report.campaign) is not None:
            return None
        return self.build(report.campaign, progress)

    # ------------------------------------------------------------------ reads

    def view(
        self, campaign: str, *, as_player: bool, as_of_session: int | None = None
    ) -> IndexedView:
        """The audience's view of a campaign with its search indexes, cached until the
        campaign is written to, by this process or another (see :mod:`.cache`)."""
        check_campaign(campaign)

        def build() -> IndexedView:
            _start_loading(self.embedder)  # the question's embedding needs it next
            stored = self._stored_campaign(campaign)
            view = stored.view(as_player=as_player, as_of_session=as_of_session)
            if not (view.entities or view.chunks or view.changes):
                require_campaign(self.store, campaign)
            snapshot = self._snapshot
            return IndexedView(
                view,
                lambda v: self._rank_inputs(v, campaign, as_player),
                (lambda v: snapshot.lexical(stored, v)) if snapshot else LexicalIndex.build,
            )

        return self._views.get(campaign, (as_player, as_of_session), build)

    def _stored_campaign(self, campaign: str) -> StoredCampaign:
        """What every view of ``campaign`` is cut from, at the store's current revision: from
        the read snapshot when it has that revision, else from the store."""
        snapshot = self._snapshot
        return self._stored.get(
            campaign,
            "stored",
            (lambda: snapshot.stored(campaign))
            if snapshot
            else (lambda: load_stored_campaign(self.store, campaign)),
        )

    def _search(self, campaign: str) -> SnapshotSearch:
        """Vector search over the read snapshot's matrices where it holds a kind whole."""
        snapshot = self._snapshot
        if snapshot is None:
            return SnapshotSearch(self.store, None)
        index = self._vectors.get(
            campaign,
            "vectors",
            lambda: snapshot.vectors(
                campaign, self._stored_campaign(campaign), self.analytics.stored(campaign)
            ),
        )
        return SnapshotSearch(self.store, index)

    def _after_build(
        self,
        stored: StoredCampaign,
        views: tuple[CampaignView, CampaignView],
        analytics: AnalyticsSnapshot,
        summary_vectors: Mapping[str, Sequence[float]],
    ) -> None:
        """A build stored new summaries: snapshot their vectors (and any item's missing), and
        what the next first query reads, when no other write came between."""
        if self._snapshot is not None:
            self._snapshot.refresh_vectors(
                stored.campaign, stored.entities, stored.chunks, analytics, summary_vectors
            )
            self._snapshot.after_build(stored, views, analytics)

    def _rank_inputs(self, view: CampaignView, campaign: str, as_player: bool) -> RankInputs:
        """The view's ranking inputs with the audience's importance and community summaries
        from the last build (none before one)."""
        snapshot = self.analytics.stored(campaign)
        if snapshot is None:
            return RankInputs.build(view)
        analytics = snapshot.audience("party" if as_player else "gm")
        return RankInputs.build(
            view,
            importance={entity_id: m.importance for entity_id, m in analytics.metrics.items()},
            summaries=analytics.summaries_by_id(),
        )

    def campaign_view(
        self, campaign: str, *, as_player: bool, as_of_session: int | None
    ) -> CampaignView:
        return self.view(campaign, as_player=as_player, as_of_session=as_of_session).view

    def ask(
        self,
        question: str,
        campaign: str,
        *,
        as_player: bool = False,
        historical: bool | None = None,
        as_of_session: int | None = None,
        k: int = 10,
        preset: PresetName | None = None,
    ) -> AskResult:
        """The ranked answer; ``preset`` forces a weight preset (else settings, then the
        question's wording choose one)."""
        if (problem := question_problem(question)) is not None:
            raise RequestError(problem)
        if not question.strip():
            raise RequestError(
                'the question is empty; ask in plain words, e.g. "Where can the party rest?"'
            )
        with self.revisions.pinned():
            indexed = self.view(campaign, as_player=as_player, as_of_session=as_of_session)
            if historical is None:
                historical = is_historical(question) or as_of_session is not None
            ranker = Ranker(self.embedder, self._search(campaign), self.ranking_settings)
            return ranker.rank(
                question,
                indexed.view,
                indexed.lexical,
                k=k,
                historical=historical,
                preset=preset,
                inputs=indexed.inputs,
            )

    def evaluate(
        self,
        questions: QuestionSet,
        campaign: str | None = None,
        progress: ProgressListener | None = None,
    ) -> EvalReport:
        """``loregraph eval``: the figures of the ranker and both baselines over labelled
        questions (see :mod:`.evaluation`); ``campaign`` defaults to the question set's."""
        chosen = campaign or questions.campaign
        if not chosen:
            raise RequestError("the question set names no campaign; pass --campaign")
        return evaluate(self, questions, check_campaign(chosen), progress)

    def entity(
        self,
        name: str,
        campaign: str,
        *,
        as_player: bool = False,
        as_of_session: int | None = None,
    ) -> EntityView:
        indexed = self.view(campaign, as_player=as_player, as_of_session=as_of_session)
        return entity_view(indexed.view, name)

    def campaigns(self) -> list[str]:
        return self.store.list_campaigns()

    def delete_campaign(self, campaign: str) -> None:
        """Delete everything stored for ``campaign`` — its graph, changelog, analytics and
        ingest manifests — and nothing of any other campaign. ``UnknownCampaignError`` (naming
        the campaigns there are) when it holds nothing. Not atomic on a large campaign, so an
        interrupted delete is simply run again."""
        require_campaign(self.store, check_campaign(campaign))
        self.store.delete_campaign(campaign)
        remove_manifests(self.data_dir, campaign)
        if self._snapshot is not None:
            self._snapshot.delete(campaign)
        self._forget(campaign)

    def store_health(self) -> StoreHealth:
        """The resident store's health report (``doctor`` for a running server)."""
        return self.store.health()

    def changesets(self, campaign: str) -> list[ChangeSetRecord]:
        """The posted change sets of ``campaign``, in posting order."""
        return self.store.load_changesets(check_campaign(campaign))

    def _forget(self, campaign: str) -> None:
        self._views.forget(campaign)
        self._stored.forget(campaign)
        self._entities.forget(campaign)
        self._vectors.forget(campaign)
        self.analytics.forget(campaign)


def _start_loading(embedder: Embedder) -> None:
    """Let an embedder that loads lazily start loading now, in the background."""
    start = getattr(embedder, "start_loading", None)
    if callable(start):
        start()
