"""Summary cost per community: the extractive build on the SRD and the example campaign, and
the prompt a model would get per community (o200k tokens, counted offline; no model is run).

Run: ``python benchmarks/bench_summaries.py --srd $SRD`` (see bench_analytics.py for $SRD).

With ``--llm-base-url URL`` it also writes the GM summaries of the example campaign's first
``--llm-sample`` communities (and the party's with ``--llm-party``) with a real model on that
OpenAI-compatible server, and reports per community the wall seconds, the prompt and completion
tokens the server counted, and whether the reply validated or fell back to extractive.
``--llm-record DIR`` files each request and reply with ``tests.fakes.RecordingChatModel``.

With ``--llm-global QUESTION`` (and ``--llm-k K``) it answers one broad question about the
example campaign by map-reduce over its ``K`` best GM summaries on that model, through the real
service (embedded store in a temporary folder, all-MiniLM-L6-v2 embeddings, extractive
summaries), and reports the wall seconds, the calls and the tokens of that one question.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bpe_openai import get_encoding  # noqa: E402

from graphrag_core.analytics.build import build_snapshot  # noqa: E402
from graphrag_core.analytics.llm_summaries import (  # noqa: E402
    SYSTEM,
    LlmSummary,
    facts_prompt,
    llm_summary,
)
from graphrag_core.analytics.runners import InProcessRunner  # noqa: E402
from graphrag_core.analytics_models import CommunitySummary, GlobalAnswer  # noqa: E402
from graphrag_core.config import AnalyticsSettings, LlmSettings  # noqa: E402
from graphrag_core.models import ChatReply, Entity, Relation  # noqa: E402
from graphrag_core.ports import ChatModel  # noqa: E402
from graphrag_core.services.views import build_view  # noqa: E402


def measure(name: str, entities: list[Entity], relations: list[Relation]) -> list[CommunitySummary]:
    settings = AnalyticsSettings()
    gm = build_view(name, entities, relations, [], [], as_player=False)
    party = build_view(name, entities, relations, [], [], as_player=True)
    t0 = time.perf_counter()
    outcome = build_snapshot(
        gm, party, None, settings, runner=InProcessRunner(settings), built_at=""
    )
    seconds = time.perf_counter() - t0
    enc = get_encoding("o200k_base")
    gm_summaries = [s for s in outcome.snapshot.summaries if s.visibility == "gm"]
    prompts = [len(enc.encode(SYSTEM + facts_prompt(s))) for s in gm_summaries]
    snapshot = outcome.snapshot
    communities = len(snapshot.gm.communities) + len(snapshot.party.communities)
    print(
        f"{name}: {len(snapshot.gm.communities)} GM + {len(snapshot.party.communities)} party "
        f"communities, {len(snapshot.summaries)} summaries, "
        f"build {seconds:.2f} s ({1000 * seconds / max(communities, 1):.2f} ms/community, "
        f"extractive); model prompt per community: mean "
        f"{sum(prompts) / max(len(prompts), 1):.0f} tokens, max {max(prompts, default=0)}"
    )
    return list(outcome.snapshot.summaries)


class _LastReply:
    """Passes calls through and keeps the replies (for their token counts)."""

    def __init__(self, inner: ChatModel) -> None:
        self._inner = inner
        self.last: ChatReply | None = None
        self.replies: list[ChatReply] = []

    @property
    def model_id(self) -> str:
        return self._inner.model_id

    def complete(
        self,
        messages: Sequence[dict[str, str]],
        *,
        json_schema: dict[str, object] | None = None,
        max_tokens: int = 1024,
    ) -> ChatReply:
        self.last = self._inner.complete(messages, json_schema=json_schema, max_tokens=max_tokens)
        self.replies.append(self.last)
        return self.last


def _outcome(reply: ChatReply, written: CommunitySummary, extractive: CommunitySummary) -> str:
    try:
        parsed = LlmSummary.model_validate_json(reply.text)
    except ValueError:
        return f"fallback: invalid JSON/schema (finish={reply.finish_reason})"
    if written is extractive:
        return "fallback: no finding cited a known id"
    return f"validated, {len(written.findings)} of {len(parsed.findings)} model findings kept"


def _chat(args: argparse.Namespace) -> _LastReply:
    from graphrag_core.providers.openai import OpenAIChatModel

    settings = LlmSettings(
        model=args.llm_model,
        base_url=args.llm_base_url,
        api_key=args.llm_api_key,
        structured_output=args.llm_structured_output,
        timeout_s=600,
        max_retries=0,
    )
    inner: ChatModel = OpenAIChatModel(settings)
    if args.llm_record:
        from tests.fakes import RecordingChatModel

        inner = RecordingChatModel(inner, Path(args.llm_record), note=args.llm_model)
    return _LastReply(inner)


def measure_llm(summaries: list[CommunitySummary], args: argparse.Namespace) -> None:
    """Real-model summaries of the first ``--llm-sample`` communities, per audience."""
    chat = _chat(args)
    audiences = ["gm", "party"] if args.llm_party else ["gm"]
    print(f"model {args.llm_model} at {args.llm_base_url} ({args.llm_structured_output})")
    for audience in audiences:
        rows: list[tuple[float, int, int]] = []
        mine = [s for s in summaries if s.visibility == audience][: args.llm_sample]
        for extractive in mine:
            cid = extractive.community_id
            t0 = time.perf_counter()
            written = llm_summary(extractive, chat, AnalyticsSettings())
            seconds = time.perf_counter() - t0
            reply = chat.last
            assert reply is not None
            rows.append((seconds, reply.prompt_tokens, reply.completion_tokens))
            print(
                f"  {audience} {cid} ({len(extractive.findings)} facts): {seconds:.1f} s, "
                f"prompt {reply.prompt_tokens} tok, completion {reply.completion_tokens} tok, "
                f"{_outcome(reply, written, extractive)}"
            )
        if rows:
            n = len(rows)
            print(
                f"  {audience} mean over {n}: {sum(r[0] for r in rows) / n:.1f} s, prompt "
                f"{sum(r[1] for r in rows) / n:.0f} tok, completion "
                f"{sum(r[2] for r in rows) / n:.0f} tok"
            )


def measure_global(args: argparse.Namespace) -> GlobalAnswer:
    """One broad question answered by map-reduce on the real model, through the service."""
    import tempfile

    from graphrag_core.services.analytics import AnalyticsService
    from graphrag_core.settings import Settings
    from graphrag_core.wiring import SystemClock, open_service

    chat = _chat(args)
    with tempfile.TemporaryDirectory() as data, open_service(Settings(data_dir=Path(data))) as svc:
        svc.ingest(ROOT / "examples/emberfall/world", "emberfall")
        svc.build("emberfall")  # extractive summaries: no model here
        settings = AnalyticsSettings()
        ask = AnalyticsService(svc.store, svc.embedder, SystemClock(), settings, chat=chat)
        t0 = time.perf_counter()
        answer = ask.ask_global(args.llm_global, "emberfall", as_player=False, k=args.llm_k)
        seconds = time.perf_counter() - t0
    replies = chat.replies
    print(
        f"global map-reduce, k={args.llm_k}: {seconds:.1f} s wall, {len(replies)} calls "
        f"({len(answer.summaries)} map + 1 reduce), prompt "
        f"{sum(r.prompt_tokens for r in replies)} tok, completion "
        f"{sum(r.completion_tokens for r in replies)} tok, method {answer.method}"
        f"{', note: ' + answer.note if answer.note else ''}"
    )
    for reply in replies:
        print(f"  call: prompt {reply.prompt_tokens} tok, completion {reply.completion_tokens} tok")
    for claim in answer.claims:
        print(f"  - {claim.text} {list(claim.community_ids + claim.entity_ids)}")
    return answer


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--srd")
    parser.add_argument("--llm-base-url", help="OpenAI-compatible server: summarise with it")
    parser.add_argument("--llm-model", default="qwen2.5-coder-1.5b-instruct")
    parser.add_argument("--llm-api-key", default="not-needed")
    parser.add_argument(
        "--llm-structured-output",
        default="json_object_schema",
        choices=["json_schema", "json_object_schema", "json_object"],
    )
    parser.add_argument("--llm-sample", type=int, default=3, help="communities to summarise")
    parser.add_argument("--llm-party", action="store_true", help="also the party's summaries")
    parser.add_argument("--llm-record", help="folder to file requests and replies in")
    parser.add_argument("--llm-global", help="a broad question to answer by map-reduce")
    parser.add_argument("--llm-k", type=int, default=3, help="summaries the answer maps over")
    args = parser.parse_args()
    if args.llm_global:
        measure_global(args)
        return
    from graphrag_core.config import IngestSettings
    from graphrag_core.services.ingest import read_sources, run_extraction

    ext = run_extraction(read_sources(ROOT / "examples/emberfall/world"), IngestSettings())
    example = measure("example", list(ext.entities), list(ext.relations))
    if args.llm_base_url:
        measure_llm(example, args)
    if args.srd:
        from benchmarks.srd_graph import load_srd

        measure("srd", *load_srd(Path(args.srd)))


if __name__ == "__main__":
    main()
