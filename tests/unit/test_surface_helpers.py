"""The MCP surface's pure helpers: fitting text to a token budget, roles."""

from __future__ import annotations

import pytest

from graphrag_core.errors import ConfigError
from graphrag_core.surfaces.mcp.access import Access, parse_role
from graphrag_core.surfaces.mcp.context import fit_lines


def words(text: str) -> int:
    return len(text.split())


def test_fit_keeps_text_that_fits_and_cuts_at_a_line_otherwise() -> None:
    text = "one two\nthree four\nfive six"
    assert fit_lines(text, 6, words) == (text, False)
    cut, was_cut = fit_lines(text, 5, words)
    assert (cut, was_cut) == ("one two\nthree four\n…", True)
    assert words(cut) <= 5
    assert fit_lines(text, 2, words) == ("", False)  # not even one line and the mark fit
    assert fit_lines(text, 0, words) == ("", False)


def test_roles_decide_what_a_caller_reads_and_posts() -> None:
    gm, player, recap = (Access("c", parse_role(r)) for r in ("gm", "player", "recap"))
    assert (gm.as_player, gm.reads, gm.may_post) == (False, True, False)
    assert (player.as_player, player.reads, player.may_post) == (True, True, False)
    assert (recap.as_player, recap.reads, recap.may_post) == (True, False, True)
    with pytest.raises(ConfigError, match="unknown role 'admin'"):
        parse_role("admin")
