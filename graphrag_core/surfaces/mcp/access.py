"""Who is calling a surface: a campaign and a role, fixed by the configuration or the key,
never by a model's arguments."""

from __future__ import annotations

from dataclasses import dataclass

from graphrag_core.errors import ConfigError
from graphrag_core.services.keys import ROLES, Role


@dataclass(frozen=True)
class Access:
    """A caller's campaign and role: ``gm`` reads everything, ``player`` reads the player
    view, ``recap`` (a session-recap job) posts change sets and reads no world content."""

    campaign: str
    role: Role

    @property
    def as_player(self) -> bool:
        return self.role != "gm"

    @property
    def reads(self) -> bool:
        return self.role != "recap"

    @property
    def may_post(self) -> bool:
        return self.role == "recap"


def parse_role(text: str) -> Role:
    if text not in ROLES:  # a key's role, or the --role flag
        raise ConfigError(f"unknown role {text!r}: use gm, player or recap")
    return text
