"""The MCP surface's roles."""

from __future__ import annotations

import pytest

from graphrag_core.errors import ConfigError
from graphrag_core.surfaces.mcp.access import Access, parse_role


def test_roles_decide_what_a_caller_reads_and_posts() -> None:
    gm, player, recap = (Access("c", parse_role(r)) for r in ("gm", "player", "recap"))
    assert (gm.as_player, gm.reads, gm.may_post) == (False, True, False)
    assert (player.as_player, player.reads, player.may_post) == (True, True, False)
    assert (recap.as_player, recap.reads, recap.may_post) == (True, False, True)
    with pytest.raises(ConfigError, match="unknown role 'admin'"):
        parse_role("admin")
