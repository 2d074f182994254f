"""CLI commands of the LLM extraction pipeline: the ingest dry run and ledger, the game
master's entity decisions (``entity merge|split|alias add``) and ``recap draft``.

``register(app)`` turns ``loregraph entity NAME`` into a group whose default command is the
existing ``show``, so ``loregraph entity Torven`` keeps working beside ``entity merge A B``."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from graphrag_core.cli_help import PlainHelpGroup
from graphrag_core.models import IngestReport, LedgerStage
from graphrag_core.service import LoregraphService

_said_offline = False


def wants_llm(service: LoregraphService, extractor: str, err: Console) -> bool:
    """Whether to extract with the LLM; says once when none is configured."""
    global _said_offline
    if extractor not in ("offline", "llm"):
        raise typer.BadParameter("use 'offline' or 'llm'", param_hint="--extractor")
    if extractor == "llm" and service.llm is None:
        if not _said_offline:
            err.print(
                "[yellow]no LLM model configured[/] (LOREGRAPH_LLM_MODEL): "
                "using the offline extractor"
            )
            _said_offline = True
        return False
    return extractor == "llm"


def dry_run(
    service: LoregraphService,
    path: Path,
    campaign: str,
    use_llm: bool,
    out: Console,
    retry_failed: bool = False,
) -> None:
    """Print what an LLM extraction would send and cost; no call is made."""
    if not use_llm:
        out.print("dry run: the offline extractor makes no LLM calls and costs nothing.")
        return
    plan = service.estimate_llm(path, campaign, retry_failed=retry_failed)
    cost = f"${plan.cost_usd:.4f}" if plan.priced else "unknown (model not in the price table)"
    how = "exact" if plan.exact else "estimate: not an OpenAI model"
    out.print(f"dry run for model [bold]{plan.model}[/] (no call made)")
    out.print(f"  chunks:                      {plan.chunks} ({plan.cached} cached, free)")
    out.print(f"  LLM calls:                   {plan.calls} (extraction and gleaning; repair "
              "rounds and arbitration happen only when needed and are not counted)")  # fmt: skip
    out.print(f"  prompt tokens ({how}, {plan.encoding}, with chat framing and schema): "
              f"{plan.prompt_tokens}")  # fmt: skip
    out.print(f"  expected completion tokens:  {plan.completion_tokens}")
    out.print(f"  estimated cost:              {cost}")


def render_ledger(out: Console, report: IngestReport) -> None:
    """The LLM ledger per stage, then the GM decisions that did not replay as stored
    (skipped, or found under another id): the game master must know."""
    _print_ledger(out, report.ledger)
    for warning in report.decision_warnings:
        out.print(f"[yellow]{escape(warning)}[/]")


def _print_ledger(out: Console, ledger: Mapping[str, LedgerStage]) -> None:
    for stage, s in ledger.items():
        out.print(
            f"LLM {stage}: {s.calls} call(s), {s.prompt_tokens} tokens in, "
            f"{s.completion_tokens} out, ${s.cost_usd:.4f}, {s.cache_hits} cache hit(s), "
            f"{s.retries} retries, {s.failures} failure(s)"
        )


class _EntityGroup(PlainHelpGroup):
    """``entity NAME`` means ``entity show NAME`` unless NAME is a subcommand followed by its
    arguments: ``entity Split`` and ``entity merge`` alone show those entities (every
    subcommand needs arguments), ``entity show split --json`` too."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        alone = len(args) == 1
        if args and args[0] not in ("--help", "-h") and (args[0] not in self.commands or alone):
            args = ["show", *args]
        return super().parse_args(ctx, args)


def _service() -> Any:
    from graphrag_core import cli

    return cli._service()


Campaign = Annotated[str | None, typer.Option("--campaign", "-c", help="Campaign id.")]
Reason = Annotated[str, typer.Option("--reason", help="Why (kept with the decision).")]


def register(app: typer.Typer) -> None:
    entity_app = typer.Typer(
        cls=_EntityGroup,
        no_args_is_help=True,
        subcommand_metavar="NAME | COMMAND [ARGS]...",
        help="Show an entity: 'loregraph entity NAME [OPTIONS]' (the same as 'entity show "
        "NAME'), NAME being its id, name or an alias. Or correct its resolution with a "
        "command below.",
    )
    for info in list(app.registered_commands):
        if info.callback is not None and info.callback.__name__ == "entity":
            app.registered_commands.remove(info)
            entity_app.command("show")(info.callback)
    entity_app.command("merge")(merge)
    entity_app.command("split")(split)
    alias_app = typer.Typer(help="Aliases of an entity.", no_args_is_help=True)
    alias_app.command("add")(alias_add)
    entity_app.add_typer(alias_app, name="alias")
    app.add_typer(entity_app, name="entity")
    recap_app = typer.Typer(help="Draft a changelog from a session recap.", no_args_is_help=True)
    recap_app.command("draft")(recap_draft)
    app.add_typer(recap_app, name="recap")


def _decide(
    kind: str, subject: str, target: str, names: list[str], reason: str, c: str | None
) -> None:
    from graphrag_core import cli

    with _service() as (service, settings):
        decision = service.decide(c or settings.campaign, kind, subject, target, names, reason)
        cli.out.print(f"GM decision {decision.seq} stored: {decision.kind} {decision.subject}"
                      + (f" → {decision.target}" if decision.target else "")
                      + (f" ({', '.join(decision.names)})" if decision.names else ""))  # fmt: skip


def merge(
    a: Annotated[str, typer.Argument(help="The entity to merge away (id, name or alias).")],
    b: Annotated[str, typer.Argument(help="The entity to keep.")],
    reason: Reason = "",
    campaign: Campaign = None,
) -> None:
    """Merge A into B; survives every later re-ingest and re-extraction."""
    _decide("merge", a, b, [], reason, campaign)


def split(
    entity: Annotated[str, typer.Argument(help="The entity wrongly holding other names.")],
    names: Annotated[list[str], typer.Argument(help="Names that are someone else.")],
    reason: Reason = "",
    campaign: Campaign = None,
) -> None:
    """Split NAMES off ENTITY into an entity of their own."""
    _decide("split", entity, "", names, reason, campaign)


def alias_add(
    entity: Annotated[str, typer.Argument(help="The entity (id, name or alias).")],
    names: Annotated[list[str], typer.Argument(help="Names to add as aliases.")],
    reason: Reason = "",
    campaign: Campaign = None,
) -> None:
    """Add aliases to an entity."""
    _decide("alias_add", entity, "", names, reason, campaign)


def recap_draft(
    transcript: Annotated[Path, typer.Argument(help="A session transcript or recap (text).")],
    session: Annotated[int, typer.Option("--session", min=1, help="The session number.")],
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Draft file (default: session-N.yaml).")
    ] = None,
    campaign: Campaign = None,
) -> None:
    """Propose a changelog (deaths, destructions, attitudes, items changing hands) for the
    game master to review, then post with `loregraph changelog post`."""
    from graphrag_core import cli

    with _service() as (service, settings):
        target = output or Path(f"session-{session}.yaml")
        draft = service.draft_recap(transcript, campaign or settings.campaign, session, target)
        cli.out.print(f"Drafted {draft.proposed} change(s) to {target} "
                      f"({len(draft.skipped)} skipped, listed in the file); "
                      f"review it, then: loregraph changelog post {target}")  # fmt: skip
        for line in draft.skipped:
            cli.out.print(f"  skipped: {escape(line)}")
        _print_ledger(cli.out, draft.ledger)
