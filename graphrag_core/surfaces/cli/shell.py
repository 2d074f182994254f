"""``loregraph shell``: an interactive prompt at the table. The embedding model and the
campaign's views load once, so every question after the first answers warm.

Commands: ``ask QUESTION`` (or just the question), ``entity NAME``, ``as-player on|off``,
``as-of N|off``, ``campaign NAME``, ``help``, ``quit``. A mistake prints its one-line error
and the prompt comes back."""

from __future__ import annotations

import shlex
from dataclasses import dataclass

import typer

from graphrag_core.errors import LoregraphError
from graphrag_core.services.service import LoregraphService
from graphrag_core.surfaces.cli import render
from graphrag_core.surfaces.cli.common import CampaignOpt, PlayerOpt, cli_service, err, out

app = typer.Typer()

HELP = """\
ask QUESTION        ranked entities and passages (a line that is no command is a question)
entity NAME         one entity: status, relations, changes
as-player on|off    answer as for the players (no GM-only content)
as-of N|off         the world as of session N
campaign NAME       switch campaign
quit                leave (also Ctrl-D)"""


@dataclass
class ShellState:
    campaign: str
    as_player: bool = False
    as_of: int | None = None

    def prompt(self) -> str:
        marks = [self.campaign, *(["player"] if self.as_player else [])]
        marks += [f"as of {self.as_of}"] if self.as_of is not None else []
        return f"[{' · '.join(marks)}]> "


def _switch(value: str, name: str) -> bool:
    if value not in ("on", "off"):
        raise LoregraphError(f"{name} takes on or off, not {value!r}")
    return value == "on"


def _as_of(value: str) -> int | None:
    if value == "off":
        return None
    if not value.isdigit():
        raise LoregraphError(f"as-of takes a session number or off, not {value!r}")
    return int(value)


def run_line(service: LoregraphService, state: ShellState, line: str) -> bool:
    """Do one line; False when the shell should end."""
    command, _, rest = line.strip().partition(" ")
    rest = rest.strip()
    if command in ("quit", "exit"):
        return False
    if command == "help":
        out.print(HELP, highlight=False)
    elif command == "as-player":
        state.as_player = _switch(rest, "as-player")
    elif command == "as-of":
        state.as_of = _as_of(rest)
    elif command == "campaign":
        state.campaign = shlex.split(rest)[0] if rest else state.campaign
        service.view(state.campaign, as_player=state.as_player)  # load it now, or fail now
    elif command == "entity":
        view = service.entity(
            rest, state.campaign, as_player=state.as_player, as_of_session=state.as_of
        )
        render.render_entity(out, view)
    elif command:
        question = rest if command == "ask" else line.strip()
        result = service.ask(
            question, state.campaign, as_player=state.as_player, as_of_session=state.as_of
        )
        render.render_ask(out, result)
    return True


@app.command()
def shell(campaign: CampaignOpt = None, as_player: PlayerOpt = False) -> None:
    """An interactive prompt that keeps the model and the campaign warm: ask, entity,
    as-player on|off, as-of N|off, campaign NAME, quit."""
    with cli_service() as (service, settings):
        state = ShellState(campaign or settings.campaign, as_player=as_player)
        service.embedder.embed(["warm up"])
        out.print("loregraph shell: type help for the commands, quit to leave", highlight=False)
        while True:
            try:
                line = input(state.prompt())
            except EOFError:
                break
            except KeyboardInterrupt:  # Ctrl-C drops the line, as in any shell
                out.print()
                continue
            try:
                if not run_line(service, state, line):
                    break
            except LoregraphError as exc:
                err.print(f"[red]error:[/] {exc}", highlight=False)
