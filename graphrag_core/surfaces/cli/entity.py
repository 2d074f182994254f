"""``loregraph entity``: show an entity, or correct its resolution (the game master's
``merge``, ``split`` and ``alias add`` decisions, which survive every re-ingest).

``loregraph entity NAME`` is ``entity show NAME``: the group's default command is ``show``,
so ``loregraph entity Torven`` works beside ``entity merge A B``."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from graphrag_core.surfaces.cli import render
from graphrag_core.surfaces.cli.common import (
    AsOfOpt,
    CampaignOpt,
    JsonOpt,
    PlayerOpt,
    cli_service,
    out,
)
from graphrag_core.surfaces.cli.help import PlainHelpGroup


class _EntityGroup(PlainHelpGroup):
    """``entity NAME`` means ``entity show NAME`` unless NAME is a subcommand followed by its
    arguments: ``entity Split`` and ``entity merge`` alone show those entities (every
    subcommand needs arguments), ``entity show split --json`` too."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        alone = len(args) == 1
        if args and args[0] not in ("--help", "-h") and (args[0] not in self.commands or alone):
            args = ["show", *args]
        return super().parse_args(ctx, args)


app = typer.Typer(
    cls=_EntityGroup,
    no_args_is_help=True,
    subcommand_metavar="NAME | COMMAND [ARGS]...",
    help="Show an entity: 'loregraph entity NAME [OPTIONS]' (the same as 'entity show "
    "NAME'), NAME being its id, name or an alias. Or correct its resolution with a "
    "command below.",
)
alias_app = typer.Typer(help="Aliases of an entity.", no_args_is_help=True)
app.add_typer(alias_app, name="alias")

Reason = Annotated[str, typer.Option("--reason", help="Why (kept with the decision).")]


@app.command("show")
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
    with cli_service() as (service, settings):
        view = service.entity(
            name, campaign or settings.campaign, as_player=as_player, as_of_session=as_of
        )
        if as_json:
            out.print_json(view.model_dump_json())
        else:
            render.render_entity(out, view)


def _decide(
    kind: str, subject: str, target: str, names: list[str], reason: str, c: str | None
) -> None:
    with cli_service() as (service, settings):
        decision = service.decide(c or settings.campaign, kind, subject, target, names, reason)
        out.print(f"GM decision {decision.seq} stored: {decision.kind} {decision.subject}"
                      + (f" → {decision.target}" if decision.target else "")
                      + (f" ({', '.join(decision.names)})" if decision.names else ""))  # fmt: skip


@app.command("merge")
def merge(
    a: Annotated[str, typer.Argument(help="The entity to merge away (id, name or alias).")],
    b: Annotated[str, typer.Argument(help="The entity to keep.")],
    reason: Reason = "",
    campaign: CampaignOpt = None,
) -> None:
    """Merge A into B; survives every later re-ingest and re-extraction."""
    _decide("merge", a, b, [], reason, campaign)


@app.command("split")
def split(
    entity: Annotated[str, typer.Argument(help="The entity wrongly holding other names.")],
    names: Annotated[list[str], typer.Argument(help="Names that are someone else.")],
    reason: Reason = "",
    campaign: CampaignOpt = None,
) -> None:
    """Split NAMES off ENTITY into an entity of their own."""
    _decide("split", entity, "", names, reason, campaign)


@alias_app.command("add")
def alias_add(
    entity: Annotated[str, typer.Argument(help="The entity (id, name or alias).")],
    names: Annotated[list[str], typer.Argument(help="Names to add as aliases.")],
    reason: Reason = "",
    campaign: CampaignOpt = None,
) -> None:
    """Add aliases to an entity."""
    _decide("alias_add", entity, "", names, reason, campaign)
