"""Relations a name list's aliases state ("Jin's blade", "Otto's wife", "the Wisp's boys"),
``extraction.alias_relations``."""

from __future__ import annotations

from pathlib import Path

from tests.unit.prose_helpers import stated_relations, world

NAMES = """\
entities:
  - {id: jin, name: Sakakibara Jinnosuke, type: PC, aliases: [Jin, the Scarecrow]}
  - {id: kagero, name: Kagerō, type: Item, aliases: [Jin's blade, Heat-Haze]}
  - {id: otto, name: Otto Brandt, type: NPC, aliases: [Otto]}
  - {id: greta, name: Greta Brandt, type: NPC, aliases: [Otto's wife]}
  - {id: sakichi, name: Sakichi, type: NPC, aliases: [the Wisp]}
  - {id: owada, name: Owada-ikka, type: Faction, aliases: [the Wisp's boys]}
  - {id: boones, name: The Lucky Horseshoe, type: Location, aliases: [Otto's bar]}
  - {id: ledger, name: The Red Ledger, type: Item, aliases: [Nobody's business]}
  - {id: fox, name: O-Ren, type: NPC, gm_aliases: [the Inspector's spy]}
  - {id: inspector, name: Mizoguchi Sakon, type: NPC, aliases: [the Inspector]}
"""


def test_an_alias_in_the_possessive_says_who_owns_leads_or_is_kin(tmp_path: Path) -> None:
    found = world(tmp_path, NAMES, "Jin drew his sword at the bridge.\n", "notes.md")
    stated = stated_relations(found)
    assert ("kagero", "owned_by", "jin") in stated  # a thing: its owner
    assert ("boones", "owned_by", "otto") in stated  # a place too
    assert ("greta", "married_to", "otto") in stated  # kin: the kin relation
    assert ("sakichi", "leads", "owada") in stated  # a faction of someone's boys
    assert not any(r[0] == "ledger" for r in stated)  # "Nobody" names no one
    secret = [r for r in found.relations if r.source == "fox"]
    assert [(r.type, r.target, r.visibility) for r in secret] == [("serves", "inspector", "gm")]
