"""The ``loregraph`` command line: a thin layer over :class:`LoregraphService`."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from graphrag_core import cli_analytics, cli_eval, cli_extraction, cli_help, cli_render, cli_store
from graphrag_core.demo import DEFAULT_EXAMPLE, run_demo
from graphrag_core.errors import LoregraphError
from graphrag_core.service import LoregraphService
from graphrag_core.settings import Settings, load_settings
from graphrag_core.wiring import open_service

app = typer.Typer(
    cls=cli_help.PlainHelpGroup,
    help="loregraph: what is true in your campaign world right now, and what matters.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
changelog_app = typer.Typer(help="Post and list session change sets.", no_args_is_help=True)
app.add_typer(changelog_app, name="changelog")

out = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)

CampaignOpt = Annotated[
    str | None,
    typer.Option(
        "--campaign", "-c", help="Campaign id (default: LOREGRAPH_CAMPAIGN or 'default')."
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print stable JSON instead of a table.")]
PlayerOpt = Annotated[
    bool, typer.Option("--as-player", help="Player-facing: never show GM-only content.")
]
AsOfOpt = Annotated[
    int | None,
    typer.Option("--as-of", help="The world as of this session (changes after it are ignored)."),
]


class _State:
    config: Path | None = None
    verbose: bool = False


_state = _State()


@app.callback()
def main(
    config: Annotated[
        Path | None,
        typer.Option(
            "--config",
            envvar="LOREGRAPH_CONFIG",
            metavar="FILE",
            help="TOML config file (default: ./loregraph.toml).",
        ),
    ] = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Log what happens.")] = False,
) -> None:
    _state.config = config
    _state.verbose = verbose
    level = logging.INFO if verbose else logging.WARNING
    logging.basicConfig(level=level)
    logging.getLogger("bm25s").setLevel(level)  # bm25s sets itself to DEBUG


def _settings() -> Settings:
    return load_settings(_state.config)


@contextmanager
def _service() -> Iterator[tuple[LoregraphService, Settings]]:
    try:
        settings = _settings()
        with open_service(settings) as service:
            yield service, settings
    except LoregraphError as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(1) from exc


@app.command()
def ingest(
    path: Annotated[Path, typer.Argument(help="A folder (the campaign's sources) or one file.")],
    campaign: CampaignOpt = None,
    no_build: Annotated[
        bool, typer.Option("--no-build", help="Skip the analytics build after ingest.")
    ] = False,
    extractor: Annotated[
        str, typer.Option(help="offline, or llm (needs LOREGRAPH_LLM_MODEL).")
    ] = "offline",
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="With --extractor llm: estimate, call nothing.")
    ] = False,
    retry_failed: Annotated[
        bool,
        typer.Option(
            "--retry-failed",
            help="With --extractor llm: ask again for chunks whose output was unusable in an "
            "earlier run (otherwise an unchanged chunk is never paid for twice).",
        ),
    ] = False,
) -> None:
    """Ingest Markdown, text, an Obsidian-style vault and YAML world packs.

    Unchanged files are skipped, changed ones replaced, removed ones withdrawn (folder ingest).
    A single file inside an ingested folder keeps its place in the campaign. A broken file is
    reported and its last good content kept. Writes a manifest per run. Then runs
    'loregraph build' unless --no-build (or nothing changed and the analytics exist)."""
    with _service() as (service, settings):
        use_llm = cli_extraction.wants_llm(service, extractor, err)
        if dry_run:
            cli_extraction.dry_run(
                service, path, campaign or settings.campaign, use_llm, out, retry_failed
            )
            return
        with cli_render.RichProgress(err) as progress:
            report = service.ingest(
                path, campaign or settings.campaign, progress,
                use_llm=use_llm, retry_failed=retry_failed,
            )  # fmt: skip
        cli_render.render_ingest(out, report)
        cli_extraction.render_ledger(out, report)
        if not no_build:
            cli_analytics.build_after_ingest(service, report, out, err)
    if report.failures:
        raise typer.Exit(3)


@changelog_app.command("post")
def changelog_post(
    file: Annotated[Path, typer.Argument(help="A session change set, JSON or YAML.")],
    campaign: CampaignOpt = None,
    amend: Annotated[
        bool, typer.Option("--amend", help="Post a correction superseding an earlier revision.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Validate and store a session's changes (append-only; posting twice changes nothing).

    When their impact schedules or forces a rebuild, the analytics are rebuilt at once, with
    progress, and the build is reported."""
    with _service() as (service, settings), cli_render.RichProgress(err) as progress:
        done = service.post_and_rebuild(
            file, campaign or settings.campaign, amend=amend, progress=progress
        )
    if as_json:
        out.print_json(done.post.model_dump_json())
    else:
        cli_render.render_post(out, done.post)
    if done.build is not None:
        cli_analytics.render_build(err if as_json else out, done.build)


@changelog_app.command("list")
def changelog_list(campaign: CampaignOpt = None, as_json: JsonOpt = False) -> None:
    """List the posted change sets of a campaign."""
    with _service() as (service, settings):
        records = service.store.load_changesets(campaign or settings.campaign)
        if as_json:
            out.print_json(json.dumps([r.model_dump(mode="json") for r in records]))
            return
        for r in records:
            out.print(
                f"session {r.session_id} r{r.revision}: {r.change_count} change(s) "
                f"from {r.source} at {r.posted_at} {r.title}"
            )


class Preset(StrEnum):
    """The weight presets of ``ask --preset`` (``ranking.presets``)."""

    current_state = "current_state"
    historical = "historical"
    lore = "lore"


@app.command()
def ask(
    question: Annotated[str, typer.Argument(help="Your question, in plain words.")],
    campaign: CampaignOpt = None,
    as_player: PlayerOpt = False,
    as_json: JsonOpt = False,
    as_of: AsOfOpt = None,
    historical: Annotated[
        bool | None,
        typer.Option(
            "--historical/--current", help="Force history mode (no demotion) or current-state mode."
        ),
    ] = None,
    k: Annotated[
        int | None,
        typer.Option(
            "-k", min=1, max=100, help="How many results (--global: summaries; default 10 / 5)."
        ),
    ] = None,
    global_: Annotated[
        bool,
        typer.Option("--global", help="A broad question: answer from community summaries."),
    ] = False,
    preset: Annotated[
        Preset | None,
        typer.Option(
            "--preset",
            help="Weight preset: current_state, historical or lore (default: from the question).",
        ),
    ] = None,
) -> None:
    """Ranked entities and passages with effective status, score and citations."""
    with _service() as (service, settings):
        if global_:
            answer = service.ask_global(
                question, campaign or settings.campaign, as_player=as_player, k=k
            )
            if as_json:
                out.print_json(answer.model_dump_json())
            else:
                cli_analytics.render_global(out, answer)
            return
        result = service.ask(
            question,
            campaign or settings.campaign,
            as_player=as_player,
            historical=historical,
            as_of_session=as_of,
            k=k or 10,
            preset=preset.value if preset else None,
        )
        if as_json:
            out.print_json(result.model_dump_json())
        else:
            cli_render.render_ask(out, result)


@app.command()
def entity(
    name: Annotated[str, typer.Argument(help="Canonical id, name or alias.")],
    campaign: CampaignOpt = None,
    as_player: PlayerOpt = False,
    as_json: JsonOpt = False,
    as_of: AsOfOpt = None,
) -> None:
    """One entity: aliases, type, effective status and the change that set it, relations.

    'loregraph entity NAME' is the same as 'loregraph entity show NAME'; for an entity named
    like a subcommand (merge, split, alias, show) with options after it, use 'entity show'."""
    with _service() as (service, settings):
        view = service.entity(
            name, campaign or settings.campaign, as_player=as_player, as_of_session=as_of
        )
        if as_json:
            out.print_json(view.model_dump_json())
        else:
            cli_render.render_entity(out, view)


@app.command()
def campaigns() -> None:
    """List the campaigns in the store."""
    with _service() as (service, _):
        for name in service.campaigns():
            out.print(name)


@app.command()
def demo(
    example: Annotated[Path, typer.Option(help="The example campaign folder.")] = DEFAULT_EXAMPLE,
    campaign: Annotated[str, typer.Option(help="Campaign id to use.")] = "emberfall",
) -> None:
    """Ingest the bundled example campaign, post its session changelogs, ask its questions."""
    with _service() as (service, _), cli_render.RichProgress(err) as progress:
        run_demo(service, example, campaign, out, progress)


cli_analytics.register(app)
cli_eval.register(app)
cli_extraction.register(app)
cli_store.register(app)
cli_help.apply(app)
