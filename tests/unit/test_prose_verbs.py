"""A verb opening a table cell or a sentence ("Runs the ferry", "Keeps the keys",
"Suspected of the fire") is no name, when the prose writes its stem in lower case or it
always stands before its object ("Commands the harbour watch"); a group
named by what its people do ("Drovers") and a name written as names are (after "the", in the
possessive) stay. Every text is written for these tests (a river-port ledger)."""

from __future__ import annotations

from tests.unit.test_prose_campaigns import _named, _run

_LEDGER = """# The river ledger

| Who | What |
|---|---|
| Ottilie Brandauer | Runs the ferry at Kessel Landing. |
| Jonas Wendt | Keeps the keys to the bonded store. |
| Margarethe Sorge | Suspected of the fire at the rope walk. |
| Drovers | Bring the cattle down in autumn. |
| Anselm Kraus | Runs the weir mill. Keeps bees. |
| Liesl Kraus | Runs the Blue Pike. Suspected of smuggling. |
| Veit Ortmann | Keeps the toll book. Suspected of skimming it. |
| Bruno Hass | Commands the harbour watch. |
| Egon Pfaff | Commands the night boats. |

The ferry runs twice a day and the old man keeps it tidy. Nobody suspects the Sorge girl of
anything, though some still suspect the drover who sleeps by the weir. Jonas's boat leaks.
The Drovers camp by the weir and every drover drinks at the Blue Pike.
"""


def test_a_verb_opening_a_table_cell_is_no_name() -> None:
    names = set(_named(_run(_LEDGER)))
    assert not {"Runs", "Keeps", "Suspected", "Commands"} & names
    assert {"Ottilie Brandauer", "Jonas Wendt", "Margarethe Sorge"} <= names


def test_a_group_named_by_its_trade_stays_a_name() -> None:
    assert "Drovers" in _named(_run(_LEDGER))
