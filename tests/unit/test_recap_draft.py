"""recap draft: every change quotes its passage; attempted-but-failed actions are no deaths."""

from __future__ import annotations

import json

from extraction.ledger import Ledger
from extraction.recap import draft_recap
from graphrag_core.models import ChatReply
from tests.fakes import FIXTURES_LLM, ReplayChatModel, ScriptedChatModel

TEXT = (FIXTURES_LLM / "corpus" / "session-08.md").read_text("utf-8")


def test_the_recorded_model_called_an_attempt_a_death_and_the_draft_refuses_it() -> None:
    draft = draft_recap(ReplayChatModel(), TEXT, session=8, ledger=Ledger("qwen"))
    assert draft.proposed == 0
    assert len(draft.skipped) == 1 and "only tried" in draft.skipped[0]


def _change(kind: str, entity: str, quote: str, **extra: object) -> dict[str, object]:
    return {"kind": kind, "entity": entity, "quote": quote, **extra}


def test_changes_with_verbatim_quotes_become_a_postable_change_set() -> None:
    changes = [
        _change("death", "Ysolde Marr", "Kestrel slew Ysolde Marr on the mill stairs."),
        _change("destruction", "the old mill", "The old mill burned\nto the ground"),
        _change("attitude", "Baron Aldric", "Baron Aldric, furious at the party",
                new_value="hostile"),
        _change("item_transfer", "Salt Ledger", "Torven gave the Salt Ledger to the party",
                new_value="party"),
        _change("death", "Torven Blackwater", "Torven died in the woods."),  # not in the text
        _change("death", "Captain Ysolde Marr", "tried to kill Torven", attempted_only=True),
    ]  # fmt: skip
    reply = ChatReply(text=json.dumps({"changes": changes}), finish_reason="stop")
    draft = draft_recap(ScriptedChatModel([reply]), TEXT, session=8, ledger=Ledger("s"))
    updates = draft.changeset["entity_updates"]
    assert [(u["entity_id"], u.get("status")) for u in updates] == [
        ("Ysolde Marr", "dead"), ("the old mill", "destroyed"), ("Salt Ledger", None),
    ]  # fmt: skip
    assert updates[2]["properties"] == {"owner": "party"}
    assert draft.changeset["relationship_updates"][0]["new_status"] == "hostile"
    assert all(u["quote"] for u in updates)
    assert len(draft.skipped) == 2
