"""Types of prose-only names the Kurogawa campaign showed wrong: the player characters a
GM sheet lists under their own heading, places and events by their head noun ("the Hidden
Storehouse", "the Lantern Float"), and apposition misread in a list or a bracket."""

from __future__ import annotations

from extraction.prose_types import apposition_type, name_type
from tests.unit.test_prose_campaigns import _named, _run


def test_entries_under_a_player_characters_heading_are_pcs() -> None:
    text = (
        "# Campaign sheet\n\n"
        "## The player characters\n\n"
        "- **O-Tsuru** — a shamisen player who sells songs and secrets.\n"
        "- **Hayashi Dōan** — town physician.\n\n"
        "## The powers in town\n\n"
        "- **Isobe Gendayū** — the chief retainer.\n"
    )
    found = _named(_run(text))
    assert found["Tsuru"].type == "PC" and found["Hayashi Dōan"].type == "PC"
    assert found["Isobe Gendayū"].type != "PC"


def test_a_storehouse_or_a_cellar_is_a_place_a_float_an_event() -> None:
    assert name_type("The Hidden Storehouse") == "Location"
    assert name_type("Salt Cellar") == "Location"
    assert name_type("The Lantern Float") == "Event"


def test_the_next_items_of_a_list_are_no_apposition() -> None:
    text = "A rōnin who lodges at the Minoya, a doctor, a girl from the teahouse, and a thief."
    start = text.index("Minoya")
    assert apposition_type(text, start, start + len("Minoya")) is None
    single = "He lodges at the Minoya, a lodging house by the bridge."
    start = single.index("Minoya")
    assert apposition_type(single, start, start + len("Minoya")) == "Location"


def test_a_bracket_s_items_describe_the_name_before_it_not_each_other() -> None:
    text = "- **O-Kin** (the widow, Minoya) — our landlady."
    start = text.index("Minoya")
    assert apposition_type(text, start, start + len("Minoya")) is None
    plain = "They met the widow, Minoya, at the well."
    start = plain.index("Minoya")
    assert apposition_type(plain, start, start + len("Minoya")) == "NPC"
