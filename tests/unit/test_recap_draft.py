"""recap draft: every change quotes its passage; attempted-but-failed actions are no deaths."""

from __future__ import annotations

import json

from extraction.ledger import Ledger
from extraction.recap import draft_recap, split_transcript
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


RECAP = """Session 8 recap. Dace Rook tried to kill Marta Hollis, but Pip pulled her away.
Torven Blackwater tried to flee and Captain Brannoc killed him.
By dawn the Red Oak Tavern had burned to the ground.
Marta stabbed Dace Rook, who barely survived.
Wenna was wounded in the fire but escaped.
Kestrel spared the Baron's nephew.
"""


def _draft(changes: list[dict[str, object]], text: str = RECAP) -> tuple[list[str], list[str]]:
    reply = ChatReply(text=json.dumps({"changes": changes}), finish_reason="stop")
    draft = draft_recap(ScriptedChatModel([reply]), text, session=8, ledger=Ledger("s"))
    return [u["entity_id"] for u in draft.changeset["entity_updates"]], draft.skipped


def test_a_kill_after_a_failed_flight_is_a_death_and_survivals_are_not() -> None:
    kept, skipped = _draft(
        [
            _change("death", "Torven Blackwater",
                    "Torven Blackwater tried to flee and Captain Brannoc killed him."),
            _change("destruction", "Red Oak Tavern",
                    "By dawn the Red Oak Tavern had burned to the ground."),
            _change("death", "Marta Hollis",
                    "Dace Rook tried to kill Marta Hollis, but Pip pulled her away."),
            _change("death", "Dace Rook", "Marta stabbed Dace Rook, who barely survived."),
            _change("death", "Wenna", "Wenna was wounded in the fire but escaped."),
            _change("death", "the Baron's nephew", "Kestrel spared the Baron's nephew."),
        ]
    )  # fmt: skip
    assert kept == ["Torven Blackwater", "Red Oak Tavern"]
    assert [s.split(":")[1].strip() for s in skipped] == [
        "the quote says it was only tried",
        "the quote says it was survived or escaped",
        "the quote says it was survived or escaped",
        "the quote says it was survived or escaped",
    ]


def test_quotes_are_compared_with_unicode_case_folding_not_ascii_folding() -> None:
    text = "Сессия 8. Торвен погиб у мельницы. The STRASSE burned."
    kept, skipped = _draft(
        [
            _change("death", "Торвен", "торвен погиб у мельницы."),  # other case: in the text
            _change("death", "Марта", "Марта погибла."),  # not in the text
            _change("destruction", "Straße", "the strasse burned."),
        ],
        text,
    )
    assert kept == ["Торвен", "Straße"]
    assert len(skipped) == 1 and "not in the transcript" in skipped[0]


def test_a_long_transcript_is_sent_in_pieces_and_the_changes_pooled() -> None:
    paragraphs = [f"Part {i}. " + "The party walked on. " * 30 for i in range(4)]
    paragraphs[3] += "Kestrel slew Ysolde Marr."
    text = "\n\n".join(paragraphs)
    death = _change("death", "Ysolde Marr", "Kestrel slew Ysolde Marr.")
    replies = [json.dumps({"changes": []})] * 3 + [json.dumps({"changes": [death, death]})]
    chat = ScriptedChatModel([ChatReply(text=r, finish_reason="stop") for r in replies])
    draft = draft_recap(chat, text, session=8, ledger=Ledger("s"), max_chars=800)
    assert len(chat.requests) == 4
    assert all(len(r[-1]["content"]) < 900 for r in chat.requests)
    assert draft.proposed == 1 and draft.skipped == ["death 'Ysolde Marr': the same change again"]
    assert split_transcript(text, 800) == paragraphs
