"""``loregraph demo``: the main job on the bundled example campaign.

Ingest its world, build its communities, post its session changelogs in order (and one twice,
to show that changes nothing), then ask its questions as the GM and, where secrets are at
stake, as a player, and one broad question from the community summaries."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
import yaml
from rich.console import Console

from graphrag_core.errors import SourceError
from graphrag_core.ports import ProgressListener
from graphrag_core.services.service import LoregraphService
from graphrag_core.surfaces.cli import render
from graphrag_core.surfaces.cli.analytics_render import render_build, render_global
from graphrag_core.surfaces.cli.common import cli_service, err, out

BROAD_QUESTION = "What are the main powers of the Marches and how do they stand with the party?"
DEFAULT_EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "emberfall"
PROSE_EXAMPLE = DEFAULT_EXAMPLE.parent / "kettlebridge"
PROSE_QUESTIONS = ("Where can the party rest?", "Is Old Wenna alive?", "Who governs Kettlebridge?")


app = typer.Typer()


@app.command()
def demo(
    example: Annotated[Path, typer.Option(help="The example campaign folder.")] = DEFAULT_EXAMPLE,
    campaign: Annotated[str, typer.Option(help="Campaign id to use.")] = "emberfall",
    prose: Annotated[
        Path | None,
        typer.Option(help="A prose-only example (plain notes and recaps) shown after it."),
    ] = PROSE_EXAMPLE,
) -> None:
    """Ingest the bundled example campaign, post its session changelogs, ask its questions;
    then the same, with no model, for a campaign written only as prose."""
    with cli_service() as (service, _), render.RichProgress(err) as progress:
        run_demo(service, example, campaign, out, progress)
        if prose is not None and (prose / "world").is_dir():
            run_prose_demo(service, prose, out, progress)


def load_questions(example: Path) -> list[dict[str, object]]:
    path = example / "questions.yaml"
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise SourceError(str(path), f"cannot read the demo questions: {exc}") from exc
    questions = data.get("questions") if isinstance(data, dict) else None
    if not isinstance(questions, list):
        raise SourceError(str(path), "expected a top-level 'questions' list")
    return [q for q in questions if isinstance(q, dict)]


def changelog_files(example: Path) -> list[Path]:
    folder = example / "changelog"
    return sorted([*folder.glob("*.yaml"), *folder.glob("*.yml"), *folder.glob("*.json")])


def run_demo(
    service: LoregraphService,
    example: Path,
    campaign: str,
    console: Console,
    progress: ProgressListener,
) -> None:
    if not (example / "world").is_dir():
        raise SourceError(
            str(example),
            "not an example campaign (no world/ folder); "
            "pass --example pointing at examples/emberfall of a loregraph clone",
        )
    console.rule(f"1. Ingest {example / 'world'}")
    render.render_ingest(console, service.ingest(example / "world", campaign, progress))
    render_build(console, service.build(campaign, progress))
    console.rule("2. Post the session changelogs")
    files = changelog_files(example)
    for file in files:
        render.render_post(console, service.post_changelog(file, campaign))
    if files:
        console.print("[dim]Posting the first session again:[/]")
        render.render_post(console, service.post_changelog(files[0], campaign))
    console.rule("3. Ask")
    for item in load_questions(example):
        question = str(item["question"])
        render.render_ask(console, service.ask(question, campaign, k=5))
        if item.get("as_player_must_not_contain"):
            render.render_ask(console, service.ask(question, campaign, k=5, as_player=True))
    console.rule("4. A broad question, from the community summaries")
    console.print(f"\n[bold]{BROAD_QUESTION}[/]  [dim]({campaign}, player view)[/]")
    render_global(console, service.ask_global(BROAD_QUESTION, campaign, as_player=True))


def run_prose_demo(
    service: LoregraphService, example: Path, console: Console, progress: ProgressListener
) -> None:
    """A campaign of plain Markdown lore and prose recaps, no world pack and no model: the
    offline extractor finds its people and places, the change set names them by alias, and
    the answers respect it."""
    campaign = example.name
    console.rule(f"5. Prose only, no model: {example / 'world'}")
    render.render_ingest(console, service.ingest(example / "world", campaign, progress))
    render_build(console, service.build(campaign, progress))
    for file in changelog_files(example):
        render.render_post(console, service.post_changelog(file, campaign))
    for question in PROSE_QUESTIONS:
        render.render_ask(console, service.ask(question, campaign, k=5))
