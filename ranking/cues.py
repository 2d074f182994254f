"""What a question asks for, read from its wording: three documented lexicons.

- **answer types**: "where" asks for a Location, "who" for a person, faction, deity or
  creature; nouns name a type too ("which inn", "what faction", "the gods", "the landmarks").
  "What *dangers* lurk in the Cinderwood?" asks for creatures and for the factions hostile to
  the party (the rangers who guard the wood are no danger; :data:`DANGER_ONLY_HOSTILE`): such
  a question does not demote an answer for its hostility to the party (it is still marked
  unavailable), as "our enemies" does not. A type read from a plural noun
  ("the powers", "which gods") asks for a list of that type (:attr:`QuestionCues.list_types`).
- **relation cues**: "who *leads* the Merchants' Guild?" asks along ``leads`` / ``ruled_by``
  from the entity the question names; an entity one such relation away from a named entity is
  the answer, so the ranker treats it like a named one (found, never hidden by demotion, still
  marked unavailable when it is).
- **attitude cues**: "who are *our enemies*?" asks for what is hostile to the party; "our
  allies", for what is allied. Only a question that speaks of the party (we, us, our, the
  party) has one, so "the Baron's enemies" is a relation cue instead.

Every cue is a lowercase whole-word lookup; nothing here reads the campaign.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise

from graphrag_core.models import Attitude

_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)?")

PERSON_TYPES = frozenset({"NPC", "PC", "Faction", "Deity", "Creature"})

DANGER_WORDS = ("danger", "dangers", "dangerous", "peril", "perils", "menace", "menaces")
"""Words by which a question asks for what threatens: creatures and factions, and hostile
ones are the answer, not a status to demote (:attr:`QuestionCues.dangers`)."""

DANGER_ONLY_HOSTILE = frozenset({"Faction"})
"""Types that answer a question about dangers only when hostile to the party (a creature is
a danger whatever its attitude; a faction is one when it is the party's enemy)."""

ANSWER_TYPE_WORDS: dict[str, frozenset[str]] = {
    "where": frozenset({"Location"}),
    "who": PERSON_TYPES,
    "whom": PERSON_TYPES,
    **dict.fromkeys(
        ("place", "places", "location", "locations", "inn", "inns", "tavern", "taverns",
         "town", "towns", "village", "villages", "city", "cities", "shrine", "shrines",
         "temple", "temples", "camp", "camps", "keep", "castle", "castles", "region",
         "landmark", "landmarks", "sights", "alehouse", "alehouses", "caravanserai",
         "caravanserais", "hostel", "hostels", "hotel", "hotels", "bar", "bars", "saloon",
         "saloons", "pub", "pubs", "speakeasy", "speakeasies", "spots", "hangouts",
         "haunts"),
        frozenset({"Location"}),
    ),
    **dict.fromkeys(
        ("faction", "factions", "guild", "guilds", "cult", "cults", "gang", "gangs",
         "order", "orders", "powers", "outfit", "outfits", "organisation", "organisations",
         "organization", "organizations", "agency", "agencies", "syndicate", "syndicates",
         "clan", "clans", "crews", "mobs", "rackets"),
        frozenset({"Faction"}),
    ),
    **dict.fromkeys(
        ("god", "gods", "goddess", "goddesses", "deity", "deities"), frozenset({"Deity"})
    ),
    **dict.fromkeys(
        ("item", "items", "weapon", "weapons", "artifact", "artifacts", "artefact",
         "artefacts", "relic", "relics", "treasure"),
        frozenset({"Item"}),
    ),
    **dict.fromkeys(
        ("monster", "monsters", "creature", "creatures", "beast", "beasts"),
        frozenset({"Creature"}),
    ),
    **dict.fromkeys(DANGER_WORDS, frozenset({"Creature", "Faction"})),
    **dict.fromkeys(("quest", "quests", "mission", "missions"), frozenset({"Quest"})),
    **dict.fromkeys(("npc", "npcs", "person", "people", "cop"), frozenset({"NPC"})),
}  # fmt: skip
"""Question words and nouns → the entity types an answer has."""

RELATION_WORDS: dict[str, frozenset[str]] = {
    **dict.fromkeys(
        ("lead", "leads", "led", "leader", "leaders", "leading", "head", "heads", "boss",
         "command", "commands", "commander", "captain", "chief", "master", "eldest",
         "speaks", "spokesman", "spokeswoman", "headed", "commanded", "captained",
         "captains", "president", "prez", "chairman", "chairwoman", "kingpin", "bossing",
         "bosses", "bossed", "heading", "helming", "helms", "commanding",
         # a gang's or a village's boss in the words of its setting ("Who's *oyabun* now?")
         "oyabun", "kumicho", "honcho", "ringleader", "headman"),
        frozenset({"leads", "ruled_by"}),
    ),
    **dict.fromkeys(
        ("run", "runs", "ran", "running"), frozenset({"leads", "ruled_by", "owns", "owned_by"})
    ),
    **dict.fromkeys(
        ("rule", "rules", "ruled", "ruler", "rulers", "govern", "governs", "governor",
         "lord", "lords", "reigns", "reigned", "governed"),
        frozenset({"ruled_by", "leads"}),
    ),
    **dict.fromkeys(("holds", "held", "holding"), frozenset({"ruled_by", "leads"})),
    **dict.fromkeys(
        ("own", "owns", "owned", "owner", "owners", "keeps", "keeper", "belongs"),
        frozenset({"owns", "owned_by"}),
    ),
    **dict.fromkeys(
        ("member", "members", "join", "joined", "belong"), frozenset({"member_of"})
    ),
    **dict.fromkeys(
        ("worship", "worships", "worshipped", "worshippers", "pray", "prays", "priest",
         "priests", "sacred", "holy"),
        frozenset({"worships", "sacred_to"}),
    ),
    **dict.fromkeys(
        ("kill", "killed", "killer", "murdered", "murderer", "slew", "slain", "slayer", "die",
         "died", "death", "murder", "slay", *("drowned", "poisoned", "stabbed", "strangled",
         "hanged", "executed", "beheaded", "assassinated", "shot"),
         # the table's slang for a killing ("Who *geeked* Mama N?", "Who *offed* the fence?")
         *("geeked", "zeroed", "flatlined", "offed", "whacked", "capped", "fragged", "ganked",
           "merced", "knifed", "slaughtered", "butchered", "massacred", "lynched"),
         # a beast's killing ("Who *ate* the Rat?")
         *("ate", "eaten", "devoured", "mauled", "gored")),
        frozenset({"killed_by"}),
    ),
    **dict.fromkeys(
        ("serve", "serves", "served", "servant", "servants", "works", "work", "worked",
         "employ", "employs", "working", "serving", "spying", "employing",
         "employer", "employed", "employee", "hired", "spy", "spies", "steal", "steals",
         "reporting", "reports", "reported", "fronting", "fronts", "fronted", "handler",
         "handlers", "paymaster", "payroll"),
        frozenset({"serves", "works_for", "employs"}),
    ),
    **dict.fromkeys(
        ("live", "lives", "located", "lies", "dwells", "found", "inside"),
        frozenset({"located_in", "contains"}),
    ),
    **dict.fromkeys(
        ("married", "wife", "husband", "spouse", "marry", "marries", "wed", "wedded", "weds",
         "hitched", "bride", "groom", "bridegroom", "missus", "missis", "hubby", "wives",
         "husbands", "fiance", "fiancee", "fiancé", "fiancée"),
        frozenset({"married_to"}),
    ),
    **dict.fromkeys(
        ("parent", "parents", "child", "children", "son", "daughter", "mother", "father",
         "mum", "mom", "mam", "dad", "sons", "daughters"),
        frozenset({"parent_of"}),
    ),
    **dict.fromkeys(("guard", "guards", "guarded", "protects"), frozenset({"guards"})),
    **dict.fromkeys(
        ("made", "created", "forged", "built", "maker", "creator"), frozenset({"created_by"})
    ),
    **dict.fromkeys(
        ("seek", "seeks", "seeking", "hunt", "hunts", "hunting"), frozenset({"seeks"})
    ),
    **dict.fromkeys(("rival", "rivals"), frozenset({"rival_of"})),
    **dict.fromkeys(("ally", "allies", "allied", "friends"), frozenset({"allied_with"})),
    **dict.fromkeys(
        ("enemy", "enemies", "foe", "foes", "hostile"), frozenset({"hostile_to"})
    ),
}  # fmt: skip
"""Question words → the relation types a question asks along."""

KIN_WORDS: dict[str, frozenset[str]] = {
    **dict.fromkeys(
        ("boy", "girl", "lad", "lass", "kid", "bairn", "child", "son", "daughter", "pa", "ma",
         "pop", "pops", "papa", "mama", "folks"),
        frozenset({"parent_of"}),
    ),
    **dict.fromkeys(
        ("nephew", "niece", "uncle", "aunt", "auntie", "cousin", "brother", "sister",
         "sibling", "grandson", "granddaughter", "grandchild", "grandmother", "grandfather",
         "grandma", "grandpa", "granny", "twin", "kinsman", "kinswoman"),
        frozenset({"related_to"}),
    ),
}  # fmt: skip
"""Kin nouns that ask along a kinship only after "whose" or a possessive ("Whose *boy* is
Tam?", "Who is Mira's *uncle*?") or before "of" ("the *nephew* of the Reeve"): "Brother
Aurel" is a title and "the stable boy" a servant. ``related_to`` here is the kinship the prose
states (``extraction.prose_relations``); the graph never asks along co-occurrence links
(:mod:`ranking.graph`)."""

_POSSESSIVES = frozenset(("whose", "his", "her", "their", "my", "our", "your"))

KIN_PHRASES: dict[tuple[str, ...], frozenset[str]] = {("old", "man"): frozenset({"parent_of"})}
"""Kin phrases read as :data:`KIN_WORDS` are, after a possessive: "Who's Evie's *old man*?"
asks for her father."""

LEADING_PHRASES = (("in", "charge"), ("calling", "the", "shots"), ("calls", "the", "shots"),
                   ("runs", "the", "show"), ("running", "the", "show"), ("top", "dog"),
                   ("in", "command"), ("at", "the", "helm"))  # fmt: skip
"""Phrases by which a question asks who leads ("Who's *in charge of* the parish?", "Who's
*calling the shots* at the mine?"): along ``leads`` / ``ruled_by``."""

KIN_MODIFIERS = frozenset(
    ("kid", "little", "big", "baby", "older", "younger", "elder", "eldest", "youngest", "half",
     "step", "late", "twin")
)  # fmt: skip
"""Words between a possessive and its kin noun ("Lucky's *kid* brother", "her *late*
husband"): the noun after them is the kinship asked, and "kid" there is no child."""

DESTRUCTION_WORDS = frozenset(
    ("destroyed", "destroy", "destroys", "torched", "torch", "torches", "burned", "burnt",
     "burn", "burns", "razed", "raze", "wrecked", "wreck", "sank", "sunk", "sink", "levelled",
     "leveled", "demolished", "flattened", "ruined", "toppled", "bombed", "blew", "blown",
     "bricked", "slagged", "trashed", "totaled", "totalled", "nuked", "scuttled",
     "firebombed", "fried", "snapped", "shattered", "smashed", "broke", "busted")
)  # fmt: skip
"""Words by which a question asks who destroyed something ("Who *torched* the mill?"): along
``destroyed_by``, which a change's ``destroyed_by`` detail answers (:mod:`ranking.graph`)."""

TAKEDOWN_VERBS = frozenset(("took", "cut", "gunned", "shot", "struck", "put"))
"""Verbs that ask who killed someone with "down" after them ("Who *took* the Heron *down*?",
"Who *gunned* Mickey *down*?", "Who *put* Tack *down*?"): along ``killed_by``, as "took out"
is."""

THROAT_VERBS = frozenset(("cut", "slit", "slashed", "opened"))
"""Verbs that ask who killed someone with "throat" after them ("Who *cut* the Papermaker's
*throat*?")."""

KILLER_THINGS = frozenset(("what",))
""""*What* took out the sheriff?": a killing asked after these asks for a killer as after
"who" (a creature, a plague, a trap), by :data:`TAKEDOWN_VERBS` and :data:`KILLING_OPENINGS`
only (not by a verb of sending: "What sent him into a rage?" asks for no killer)."""

HOLDING_THINGS = frozenset(
    ("holds", "held", "holding", "carrying", "carries", "carried", "keeping", "minding")
)
HELD_ABSTRACTS = frozenset(
    ("power", "sway", "office", "authority", "command", "court", "reins", "rank", "title",
     "grudge", "grudges", "out", "back", "off", "up", "on", "onto", "fast", "firm", "true")
)  # fmt: skip
"""A verb of holding asks who holds a thing (``owns`` / ``owned_by``, which a change's
``held_by`` sets: "Who *holds* the seal now?", "Who's *carrying* the key?") unless what is
held is no thing ("Who *holds power* on the Mere?" asks for rulers) or a particle follows
(:data:`HOLDING_PHRASES` read "hold on to" apart)."""

HOLDING_PHRASES = tuple(
    phrase
    for verb in ("hang", "hanging", "hangs", "hold", "holding", "holds")
    for phrase in ((verb, "on", "to"), (verb, "onto"))
)
"""Phrases by which a question asks who holds a thing ("Who's *hanging on to* the tape?"):
along ``owns`` / ``owned_by``, which a change's ``held_by`` sets."""

DISMISSAL_WORDS = frozenset(("canned", "sacked", "axed", "dismissed"))
DISMISSAL_FIRING = frozenset(("fire", "fired", "fires", "firing"))
"""Words by which a question asks who let someone go from their work ("Who *canned* Ethan?",
"Why did the mill *fire* Old Tam?"): along ``works_for`` / ``employs``; "fire" only with a
capitalised name right after it ("Who fired the first shot?" asks no such thing; nor is
"can" or "sack" one: "Can Doc look at it?", "sack Harrowgate")."""

DOWNFALL_VERBS = frozenset(("brought", "bring", "brings", "pulled", "pull", "tore", "torn"))
"""Verbs that ask who destroyed something with "down" after them ("Who *brought* the roof
*down* on the inn?")."""

KILLING_OPENINGS = (("did", "for"), ("has", "done", "for"), ("had", "done", "for"),
                    ("did", "away", "with"), ("finished", "off"), ("bumped", "off"),
                    ("did", "in"), ("has", "done", "in"), ("had", "done", "in"),
                    ("rubbed", "out"), ("offed",), ("took", "out"), ("wasted",),
                    ("whacked",), ("iced",), ("smoked",), ("knocked", "off"), ("snuffed",),
                    ("plugged",), ("spaced",), ("vented",), ("airlocked",), ("fragged",),
                    ("zeroed",), ("flatlined",), ("geeked",), ("aced",), ("deleted",),
                    ("spiked",), ("dropped",), ("capped",), ("bushwhacked",),
                    ("gunned",))  # fmt: skip
"""What "who" may open with to ask for a killer in other words ("Who *did for* the old
Reeve?", "Who *did in* Cap Doyle?", "Who *whacked* the informer?", "Who *spaced* Chief
Vell?", "Who *flatlined* the fixer?"): only right after "who", where "Who *deleted* the
logs?" still asks for an agent of the act."""

GETTING_KILLERS = frozenset(("what", "who"))
""""What *got* Lise's dad?", "Who *got* Vell?": "got" right after these, with a name (and at
most a kin noun after it) as the whole rest of the question, asks what killed someone;
"Who got the loot?" names no one and asks nothing of the kind (:func:`_got_someone`)."""

SENDING_VERBS = frozenset(
    ("sent", "drove", "threw", "thrown", "pushed", "cast", "put", "shoved", "tipped", "knocked")
)  # fmt: skip
SENDING_AWAY = frozenset(("into", "in", "over", "off", "overboard", "down", "under"))
"""A verb of sending with a place to send to after it asks for a killer ("Who *sent* the
captain *into* the river?", "Who *threw* Mira *off* the bridge?"), as the prose's "sent Y into
the river" states an act against Y (``extraction.prose_relations``)."""

NAME_PRONE = frozenset(
    ("drowned", "poisoned", "stabbed", "strangled", "hanged", "executed", "beheaded",
     "assassinated", "shot", "mother", "father")
)  # fmt: skip
"""Relation words that names are made of ("the Drowned Barrow", "the Hanged Man", "the Crow
*Mother*", "*Father* Dyke"): a cue only in lower case."""

ATTITUDE_WORDS: dict[str, Attitude] = {
    **dict.fromkeys(
        ("enemy", "enemies", "foe", "foes", "hostile", "threat", "threats", "against"),
        "hostile",
    ),
    **dict.fromkeys(
        ("ally", "allies", "allied", "friend", "friends", "friendly", "trust", "help"),
        "allied",
    ),
}  # fmt: skip
"""Question words → the attitude toward the party asked about."""

LODGING_WORDS = frozenset(
    ("stay", "sleep", "sleeping", "rest", "lodge", "lodging", "lodgings", "bed", "beds",
     "room", "rooms", "bunk", "bunks", "hammock", "hammocks", "inn", "inns", "shelter")
)  # fmt: skip
"""Words by which a question asks where to sleep."""

LODGING_SLANG = frozenset(
    ("crash", "flop", "kip", "doss", "bed", "bunk", "crashing", "flopping", "kipping",
     "dossing", "bunking", "bedding", "holed", "shacking", "camping")
)  # fmt: skip
"""Slang for sleeping somewhere ("Where can we *crash* tonight?", "Where's everybody
*bunking*?", "Where are we *holed* up?"), in its -ing forms too: a lodging word only when the
asker is its subject ("we crash", "can I kip"), since "Where did the airship crash?" asks no
such thing."""

LODGING_EXPANSION = ("rooms", "beds", "bunks", "sleep", "lodging", "rents", "lets", "hotel")
"""Words a passage about lodgings uses; added to a lodging question's lexical query, since
"Where can we stay?" shares no word with "she rents the four upstairs rooms"."""


HEALING_WORDS = frozenset(
    ("heal", "healed", "healing", "healer", "healers", "wound", "wounds", "wounded",
     "injured", "injuries", "hurt", "sick", "sickness", "cure", "cured", "frostbite",
     "fever", "ill", "illness", "disease", "ailing", "medicine", "plague", "sew", "stitch",
     "stitches", "bandage", "bleeding", "bullet", "slug", "doctor", "doc", "sawbones", "nurse",
     "medic")
)  # fmt: skip
"""Words by which a question asks for a healer."""

HEALING_EXPANSION = (
    "heal", "heals", "healer", "tends", "cures", "sick", "wounded", "stitched", "doctor",
    "nurse", "hospital",
)  # fmt: skip
"""Words a passage about a healer uses ("Mother Orla heals the sick")."""

REPAIR_WORDS = frozenset(
    ("repair", "repairs", "repaired", "mend", "mends", "mended", "fix", "fixes", "fixed",
     "fixing", "patch", "forge", "forged",
     "smith", "smithy", "blacksmith")
)  # fmt: skip
"""Words by which a question asks for a craftsman."""

REPAIR_EXPANSION = ("repairs", "mends", "forges", "smith", "builds", "craftsman", "fixes")
"""Words a passage about a craftsman uses ("she forges the long harpoons")."""

_PATIENTS = frozenset(("him", "her", "them", "me", "us", "you", "up"))
"""After "patch": "patch him up" is healing, "patch the hull" a repair."""

DRINK_WORDS = frozenset(
    ("drink", "drinks", "drinking", "thirsty", "booze", "beer", "ale", "whiskey", "whisky",
     "wine", "liquor", "pint", "pints")
)  # fmt: skip
"""Words by which a "where" question asks for a place to drink."""

DRINK_EXPANSION = (
    "bar", "tavern", "saloon", "pub", "speakeasy", "pours", "drinks", "ale", "beer", "gin",
    "rum", "whiskey", "wine",
)  # fmt: skip
"""Words a passage about a place to drink uses ("he pours in his back room")."""

TRANSPORT_PHRASES = (
    *((verb, "us", away) for verb in ("get", "take", "fly", "ship", "carry", "sail", "ferry")
      for away in ("off", "out", "away", "across", "over", "offworld", "home")),
    ("get", "me", "off"), ("get", "me", "out"), ("fly", "us"), ("ship", "out"),
    ("a", "ride"), ("a", "lift"), ("passage", "off"), ("passage", "out"), ("book", "passage"),
    ("off", "this", "rock"), ("off", "world"), ("off", "planet"), ("off", "the", "island"),
)  # fmt: skip
"""Phrases by which a question asks for a way out, a ride or a passage ("Who can *get us
off* this rock?", "Where do we find *a ride* to the coast?")."""

TRANSPORT_EXPANSION = (
    "ship", "ships", "boat", "ferry", "passage", "pilot", "flies", "dock", "docks", "harbour",
    "berth", "departure", "leaves", "caravan", "coach", "shuttle",
)  # fmt: skip
"""Words a passage about a way out uses ("nothing leaves the rock unless Kofi releases the
clamps", "the ferry sails at dawn")."""

WIN_OVER_VERBS = frozenset(("want", "get", "bring", "need", "win", "put"))
"""Before "the <people> on our side": the people are to be won over, not yet allied ("Who do
we talk to if we *want the miners on our side*?")."""

WIN_OVER_EXPANSION = ("union", "guild", "leader", "leads", "speaks", "steward", "boss")
"""Words a passage about whom a group of people follows uses: its union, guild or gang and
that body's leader."""


def wins_over(words: list[str]) -> bool:
    """ "want the miners on our side", "get the dockers on our side": a verb of
    :data:`WIN_OVER_VERBS`, "the", a plural noun, then "on our side"."""
    return any(
        words[i] in WIN_OVER_VERBS
        and words[i + 1] == "the"
        and words[i + 2].endswith("s")
        and words[i + 3 : i + 6] == ["on", "our", "side"]
        for i in range(len(words) - 5)
    )


SLANG_EXPANSION: dict[str, tuple[str, ...]] = {
    "booze": ("liquor", "rum", "whiskey", "alcohol"),
    "hooch": ("liquor", "rum", "whiskey", "alcohol"),
    "cops": ("police",),
    "cop": ("police", "deputy", "sheriff", "constable", "officer"),
    "coppers": ("police",),
    "shut": ("close",),
    "canned": ("fired",),
    "sacked": ("fired",),
    "axed": ("fired",),
}
"""Slang a passage rarely uses, with the plain words it does ("the *booze* boats" are the
rum runners; "*shut* them down" is "close"; who "*canned*" someone "fired" them; "which
*cop*" is a deputy, a sheriff or a constable)."""


def lexical_query(question: str) -> str:
    """The question as the lexical index is searched with: a lodging question that does
    not already ask for an inn or tavern by name gets the words of ``LODGING_EXPANSION`` it
    lacks added; a healing or repair question those of ``HEALING_EXPANSION`` or
    ``REPAIR_EXPANSION`` (a service asked for in other words than a passage offers it)."""
    order = _WORD.findall(question.lower().replace("’", "'"))
    words = set(order)
    added: list[str] = []
    lodging = words & LODGING_WORDS or _asks_slang_lodging(order)
    if lodging and not words & {"inn", "inns", "tavern", "taverns"}:
        added.extend(LODGING_EXPANSION)
    patching = _patches_someone(order)
    if words & HEALING_WORDS or patching:
        added.extend(HEALING_EXPANSION)
    if words & REPAIR_WORDS and not patching:
        added.extend(REPAIR_EXPANSION)
    if order[:1] and order[0].startswith("where") and words & DRINK_WORDS:
        added.extend(DRINK_EXPANSION)
    if has_phrase(order, TRANSPORT_PHRASES):
        added.extend(TRANSPORT_EXPANSION)
    if wins_over(order):
        added.extend(WIN_OVER_EXPANSION)
    for word in order:
        added.extend(SLANG_EXPANSION.get(word, ()))
    extra = [w for w in dict.fromkeys(added) if w not in words]
    return " ".join((question, *extra)) if extra else question


ABOUT_NOUNS = frozenset(
    ("deal", "story", "game", "angle", "agenda", "history", "backstory", "background", "beef",
     "problem", "plan", "plans", "motive", "motives", "secret", "secrets", "business")
)  # fmt: skip
"""Nouns by which a question asks what a name in the possessive is about ("What's *the
Fellowship's deal*?", "What's Torven's *game*?"): that name is what it names, as a name
written plainly is; "Torven's silver" is about the silver."""

PARTY_WORDS = frozenset({"we", "us", "our", "ours", "party", "party's"})

_ASKERS = frozenset(("we", "i", "everybody", "everyone", "y'all", "yall"))
"""The party as the subject of a lodging slang word ("Where are *we* crashing?", "Where's
*everybody* bunking these days?")."""


def _asks_slang_lodging(words: list[str]) -> bool:
    """A lodging slang word with the asker as its subject, at most two words before it
    ("Where can *we crash*?", "Where can *I* still *kip*?", "Where's *the crew bedding*
    down?")."""
    return any(
        w in LODGING_SLANG
        and (
            not _ASKERS.isdisjoint(words[max(0, i - 3) : i])
            or not PARTY_NOUNS.isdisjoint(words[max(0, i - 3) : i])
        )
        for i, w in enumerate(words)
    )


def _patches_someone(words: list[str]) -> bool:
    """ "patch" with a person or "up" after it: "Who'll *patch him up*?" asks for a healer."""
    return any(w == "patch" and after in _PATIENTS for w, after in pairwise([*words, ""]))


PARTY_NOUNS = frozenset(
    ("party", "company", "crew", "band", "group", "fellowship", "companions", "team", "squad",
     "unit", "cell", "posse", "troupe")
)  # fmt: skip
"""Nouns by which "our …" names the party ("Who has joined *our company*?"): never another
entity's name there, and the party is where a relation asked about starts."""

MEMBERSHIP_WORDS = frozenset(("join", "joined", "joins", "member", "members", "belong"))
"""Relation words that stay a relation when the asker is their object ("Who *joined us*?"),
unlike a service asked for ("Who can *lead us* …?")."""

TURNING_PHRASES: tuple[tuple[str, ...], ...] = (
    *((verb, side, "us") for verb in ("turned", "turn", "turns", "turning")
      for side in ("on", "against")),
    ("betrayed", "us"),
    ("crossed", "us"),
    ("sold", "us", "out"),
)  # fmt: skip
"""Phrases of a turn against the party: what they say is the attitude now, whatever noun of
friendship names who turned ("Which of our *old friends* have turned on us?" asks for enemies
who were friends, not for friends)."""

HOSTILE_PHRASES = (
    ("out", "to", "get", "us"),
    ("after", "us"),
    ("hunting", "us"),
    ("hunts", "us"),
    ("want", "us", "dead"),
    ("wants", "us", "dead"),
    ("our", "heads"),
    ("our", "blood"),
    ("kill", "us"),
    ("us", "dead"),
    ("us", "at", "the", "bottom"),
    ("us", "six", "feet", "under"),
    ("us", "in", "the", "ground"),
    ("gunning", "for", "us"),
    ("in", "for", "us"),
    ("rid", "of", "us"),
    ("grudge", "against", "us"),
    *TURNING_PHRASES,
)  # fmt: skip
"""Phrases by which a question asks for the party's enemies in other words ("Who is still
*out to get us*?"): the ``hostile`` attitude, as "our enemies" is."""

DEATH_WISH_VERBS = frozenset(("see", "seeing", "watch"))
""""Who'd like to *see* the Magpie's crew spaced?": a wish to see the party (us, our crew,
the party, or a named crew) dead or killed is hostility to it (:func:`_wishes_party_dead`)."""

DEATH_WORDS = frozenset(
    ("dead", "killed", "hanged", "hung", "drowned", "spaced", "vented", "airlocked", "shot",
     "buried", "gone", "flatlined", "fragged", "iced", "whacked", "strung")
)  # fmt: skip
"""Words of the party dead or killed in a wish to see it so (:func:`_wishes_party_dead`)."""

ALLIED_PHRASES = (
    ("our", "side"),
    ("on", "our", "side"),
    ("friendly", "to", "us"),
    *((verb, "our", back) for verb in ("got", "has", "have", "watch", "watches", "watching")
      for back in ("back", "backs")),
    ("in", "our", "corner"),
    ("stand", "with", "us"),
    ("stands", "with", "us"),
    ("stick", "by", "us"),
    ("sticks", "by", "us"),
    *((verb, whom) for verb in ("helped", "aided", "assisted", "sheltered", "hid", "backed")
      for whom in ("us", "our")),
    *((verb, "the", "party") for verb in ("helped", "aided", "assisted", "sheltered")),
)  # fmt: skip
"""Phrases by which a question asks for the party's friends ("Who's *on our side*?", "Who's
*helped us* out along the way?"; another's helpers are not: "Who helped the Calloways?")."""


@dataclass(frozen=True)
class QuestionCues:
    """What the question's wording asks for; empty sets when it says nothing."""

    answer_types: frozenset[str] = frozenset()
    relation_types: frozenset[str] = frozenset()
    attitude: Attitude | None = None
    list_types: frozenset[str] = frozenset()
    """The types a plural noun near the start asks a list of ("the powers", "which gods")."""
    dangers: bool = False
    """The question asks for dangers: hostility to the party does not demote an answer."""
    kin_nouns: frozenset[str] = frozenset()
    """The kin nouns of a ``related_to`` asked ("Lucky's big *sister*"): a passage stating
    that kinship says the same noun (:mod:`ranking.stated`), not "kid brother"."""
    party_relation: bool = False
    """The question asks along a relation from the party ("Who has *joined our company*?"):
    the party is a seed of the relation cue, as a named entity is."""
    ended: bool = False
    """The question asks who ended the relation asked ("Who *canned* Ethan?"): the answer is
    at the other end of a relation a change ended, which the effective graph no longer has."""


LIST_WORDS = 5
"""How near the start a plural type noun must be to be what the question asks for: "What are
the main *powers* …", "Which *gods* …", not "Which monk … can bless our *weapons*?"."""


def _plural_type(word: str) -> bool:
    return word in ANSWER_TYPE_WORDS and (word.endswith("s") or word == "people")


def has_phrase(words: Sequence[str], phrases: Iterable[tuple[str, ...]]) -> bool:
    """Whether ``words`` hold one of ``phrases`` (tuples of words) in a row."""
    return any(
        tuple(words[i : i + len(phrase)]) == phrase
        for phrase in phrases
        for i in range(len(words) - len(phrase) + 1)
    )


def _asks_party_relation(words: list[str]) -> bool:
    """True when the party is the other end of the relation asked: "our company", "our
    crew" (:data:`PARTY_NOUNS`), or the asker as the object of a membership word ("joined
    us")."""
    return any(
        (w == "our" and after in PARTY_NOUNS) or (w in MEMBERSHIP_WORDS and after in ("us", "me"))
        for w, after in pairwise(words)
    )


def _kinship(words: list[str]) -> frozenset[str]:
    """The kinships asked by a kin noun after "whose" or a possessive, or before "of"
    (:data:`KIN_WORDS`)."""
    found: set[str] = set()
    for i, word in enumerate(words):
        start = i - 1 if i and words[i - 1] in KIN_MODIFIERS else i
        if start != i and start and _possessive(words[start - 1]) and word in KIN_WORDS:
            found |= KIN_WORDS[word]  # "Lucky's kid brother"
            continue
        if words[i + 1 : i + 2] and words[i + 1] in KIN_WORDS and word in KIN_MODIFIERS:
            continue  # the modifier of the kin noun after it
        possessive = bool(i) and _possessive(words[i - 1])
        if word in KIN_WORDS and (possessive or words[i + 1 : i + 2] == ["of"]):
            found |= KIN_WORDS[word]
        for phrase, kinship in KIN_PHRASES.items():
            if possessive and tuple(words[i : i + len(phrase)]) == phrase:
                found |= kinship
    return frozenset(found)


def _wishes_party_dead(words: list[str]) -> bool:
    """ "see us dead", "see the Magpie's crew spaced", "watch the party hang": a verb of
    seeing, then at most four words naming the party (:data:`PARTY_WORDS`, or a crew, band,
    company … in the possessive, :data:`PARTY_NOUNS`), then a word of death."""
    for i, word in enumerate(words):
        if word not in DEATH_WISH_VERBS:
            continue
        for j in range(i + 2, min(len(words), i + 6)):
            if words[j] in DEATH_WORDS:
                between = words[i + 1 : j]
                if not PARTY_WORDS.isdisjoint(between) or not PARTY_NOUNS.isdisjoint(between):
                    return True
                break
    return False


def _titles(cased: list[str]) -> set[str]:
    """Relation words that are a title before a name, past the first word ("Who spaced
    *Chief* Vell?", "Is *Captain* Orm alive?"): capitalised, with a capitalised word after."""
    return {
        word.lower()
        for i, (word, after) in enumerate(pairwise(cased))
        if i and word[:1].isupper() and after[:1].isupper() and word.lower() in RELATION_WORDS
    }


def _got_someone(question: str, words: list[str]) -> bool:
    """ "What *got* Lise's dad?", "Who got Vell?": ``words`` open with "what"/"who" then
    "got", and the rest is a capitalised name (possessive, with at most a kin noun after
    it)."""
    if len(words) < 3 or words[0] not in GETTING_KILLERS or words[1] != "got":
        return False
    rest = _WORD.findall(question.replace("’", "'"))[2:]
    if not rest or not rest[0][:1].isupper():
        return False
    names = [w for w in rest if w[:1].isupper()]
    tail = rest[len(names) :]
    return rest[: len(names)] == names and (
        not tail or (len(tail) == 1 and tail[0].lower() in KIN_WORDS.keys() | RELATION_KIN)
    )


def _holds_thing(words: list[str]) -> bool:
    """A verb of :data:`HOLDING_THINGS` not held captive ("being held", "held hostage") and
    not of an abstract (:data:`HELD_ABSTRACTS`)."""
    return any(
        w in HOLDING_THINGS
        and before not in HELD_BY
        and after not in CAPTIVITY | HELD_ABSTRACTS | {"", "us", "me"}
        for before, (w, after) in zip(["", *words], pairwise([*words, ""]), strict=False)
    )


HAVING_VERBS = frozenset(("has", "had"))
THING_DETERMINERS = frozenset(
    ("the", "a", "an", "that", "this", "those", "these", "our", "my", "your", "his", "her",
     "their", "its")
)  # fmt: skip
ENDING_UP = (("ended", "up", "with"), ("end", "up", "with"), ("wound", "up", "with"))
"""Who has a thing now: "Who *has the* grant now?", "Who's *got the* old lady's papers?",
"Who *has got* Vane's book?", "Who *ended up with* the bell?" (along ``owns`` /
``owned_by``, which a change's ``held_by`` sets); "Who has *it* in for us?", "Who *has been*
paying the Judge?" and "Who has *the* power here?" (:data:`HELD_ABSTRACTS`) ask no such thing."""


def _has_thing(words: list[str], cased: list[str] | None = None) -> bool:
    """``cased``: the same words as written; a name right after "has got" is a thing had
    ("Who's *got Akachō* right now?")."""
    at = next((i for i, w in enumerate(words) if w in ("who", "who's")), None)
    if at is None:
        return False  # "After the raid, who has the Black Book?" asks from its "who"
    words, cased = words[at:], (cased[at:] if cased is not None else None)
    if has_phrase(words, ENDING_UP):
        return True
    rest, written = words[1:], (cased or words)[1:]
    if words[0] == "who's":  # "who's got"
        rest, written = ["has", *rest], ["has", *written]
    got = rest[:2] == ["has", "got"]
    if got:
        rest, written = rest[:1] + rest[2:], written[:1] + written[2:]
    if not rest or rest[0] not in HAVING_VERBS:
        return False
    obj = rest[1:3]
    if obj[:1] and obj[0] in THING_DETERMINERS:
        return len(obj) > 1 and obj[1] not in HELD_ABSTRACTS
    owner = any(w.endswith(("'s", "’s")) for w in written[1:4])  # "Gon-oyaji's bowl"
    if written[1:2] and written[1][:1].isupper() and obj[0] not in _ASKERS and (got or not owner):
        return True  # "Who has got Akachō?", "Who had Autumn Water?": a name had
    return len(obj) > 1 and obj[0].endswith("'s") and obj[1] not in HELD_ABSTRACTS


def _dismisses(cased: list[str]) -> bool:
    """A word of :data:`DISMISSAL_WORDS`, or one of :data:`DISMISSAL_FIRING` with a
    capitalised name after it ("fired *Ethan*")."""
    return any(
        word.lower() in DISMISSAL_WORDS
        or (word.lower() in DISMISSAL_FIRING and after[:1].isupper())
        for word, after in pairwise([*cased, ""])
    )


RELATION_KIN = frozenset(
    ("mother", "father", "mum", "mom", "mam", "dad", "wife", "husband", "son", "daughter")
)
"""Kin nouns of :data:`RELATION_WORDS` a killing question may end with ("What got Lise's
*dad*?")."""


def _possessive(word: str) -> bool:
    return word in _POSSESSIVES or word.endswith("'s")


def _killing(words: list[str]) -> bool:
    """``words`` (after "who", "what" or "which") open with a killing in other words: "took
    out", "did for", "put … down", "cut … throat"."""
    if words[:1] and words[0] in TAKEDOWN_VERBS and "down" in words[1:6]:
        return True
    if words[:1] and words[0] in THROAT_VERBS and "throat" in words[1:6]:
        return True  # "Who *cut* the Papermaker's *throat*?"
    return any(tuple(words[: len(opening)]) == opening for opening in KILLING_OPENINGS)


ACT_ADVERBS = frozenset(
    ("finally", "actually", "really", "eventually", "ultimately", "originally", "first",
     "last", "just", "then", "even")
)  # fmt: skip
"""Adverbs between "who" and the act ("Who *finally* dropped Red Jack?", "Who *actually*
torched the mill?"): the act is read after them, and so is any word ending in "-ly"."""

FIRE_SETTING = (("lit", "up"), ("set", "fire"), ("set", "alight"), ("set", "ablaze"),
                ("put", "to", "the", "torch"))  # fmt: skip
"""Phrases of setting something on fire ("Who *lit up* the tent?", "Who *set* the barn *on
fire*?", "Who *set fire* to the mill?"): a destruction, as "torched" is; "set" and the word
of fire may have what was set between them."""


def _act(words: list[str]) -> list[str]:
    """``words`` after "who" without the adverbs before the act (:data:`ACT_ADVERBS`)."""
    start = 0
    while start < len(words) and (words[start] in ACT_ADVERBS or words[start].endswith("ly")):
        start += 1
    return words[start:]


def _sets_fire(words: list[str]) -> bool:
    if tuple(words[:2]) == ("lit", "up") or tuple(words[:4]) == FIRE_SETTING[-1]:
        return True
    return words[:1] == ["set"] and not {"fire", "alight", "ablaze"}.isdisjoint(words[1:7])


CAPTURE_WORDS = frozenset(
    ("grabbed", "snatched", "kidnapped", "abducted", "nabbed", "captured", "seized",
     "arrested", "took", "taken", "caught", "jailed", "imprisoned", "collared", "bagged",
     "lifted", "pinched", "grab", "snatch", "kidnap", "abduct", "capture", "arrest")
)  # fmt: skip
"""Verbs of taking someone captive ("Who *grabbed* MAGPIE?", "Who *snatched* Doc?"): asked
along ``captured_by``, the detail a change that captured someone names; a thing taken ("Who
took the map?") has no such detail, and the question finds none."""

SEPARABLE_KILLINGS = (("did", "in"), ("done", "in"), ("took", "out"), ("taken", "out"),
                      ("bumped", "off"), ("knocked", "off"), ("rubbed", "out"),
                      ("finished", "off"), ("polished", "off"), ("put", "down"))  # fmt: skip
SEPARABLE_GAP = 3
"""Killings written with their object between verb and particle ("Who *did* Toni *in*?",
"Who *took* the Colonel *out*?"), the object at most this many words; a particle with a
preposition after it moves something instead ("Who took the map *out of* the safe?")."""
_MOVING = frozenset(
    ("of", "to", "for", "on", "into", "from", "with", "the", "a", "an", "this", "that", "our",
     "his", "her", "their", "my", "your")
)  # fmt: skip
"""Words after the particle that make it a preposition ("Who did it *in the* keep?")."""
_DEED_PRONOUNS = frozenset(("it", "this", "that", "so"))


def _separable_killing(words: list[str]) -> bool:
    for verb, particle in SEPARABLE_KILLINGS:
        if words[:1] != [verb] or len(words) < 2 or words[1] == particle:
            continue
        if words[1] in _DEED_PRONOUNS:  # "Who did it in the keep?" is a deed done somewhere
            continue
        for i in range(2, 2 + SEPARABLE_GAP):
            if i < len(words) and words[i] == particle:
                return i + 1 >= len(words) or words[i + 1] not in _MOVING
    return False


def _event(words: list[str]) -> frozenset[str]:
    """The relation a "who did it" question asks along when it names an act: destruction
    (``destroyed_by``: "Who torched the mill?", "Who brought the snow down on the inn?") or
    sending someone to their death (``killed_by``: "Who sent Grell into the river?"). Only a
    question opening with "who" asks for an agent (``words`` are the rest)."""
    words = _act(words)
    found: set[str] = {"killed_by"} if _killing(words) or _separable_killing(words) else set()
    if words[:1] and words[0] in CAPTURE_WORDS and not found:  # "took X down" kills
        found.add("captured_by")
    if not DESTRUCTION_WORDS.isdisjoint(words[:2]) or _sets_fire(words):
        found.add("destroyed_by")
    if words[:1] and words[0] in DOWNFALL_VERBS and "down" in words[1:6]:
        found.add("destroyed_by")
    sending = words[:1] and words[0] in SENDING_VERBS
    if sending and not SENDING_AWAY.isdisjoint(words[2:6]) and "charge" not in words:
        found.add("killed_by")
    return frozenset(found)


_AFTER_STRANDED = frozenset(
    ("before", "after", "now", "these", "then", "back", "again", "when", "while", "until",
     "really", "exactly", "anyway", "all")
)  # fmt: skip


def _errand_for(words: list[str]) -> bool:
    """ "Who was X *running envelopes for*?", "Who's she *doing jobs for* now?": a question
    opening with "who" whose "for" has no object (the question's end, or a word of time after
    it) after a verb in "-ing" asks whom the errand is run for, along ``works_for``."""
    if words[:1] != ["who"] or "for" not in words:
        return False
    at = len(words) - 1 - words[::-1].index("for")
    after = words[at + 1 : at + 2]
    if after and after[0] not in _AFTER_STRANDED:
        return False
    return any(w.endswith("ing") and len(w) > 4 and w not in _NOT_ERRANDS for w in words[1:at])


_NOT_ERRANDS = frozenset(
    ("looking", "searching", "hunting", "waiting", "asking", "praying", "hoping", "calling",
     "longing", "pining", "going", "heading", "coming", "gunning", "fishing", "digging")
)  # fmt: skip
"""Verbs whose "for" asks what is sought or awaited, not whom one works for ("Who is the
Marshal *looking for*?")."""


_NO_OBJECT = frozenset(("down", "up", "out", "in", "at", "on", "near", "there", "here", "last"))


def _what_did(words: list[str]) -> list[str]:
    """After "what", a destruction done to something ("What *bricked* Saint's deck?", "What
    *torched* the mill?") asks for the agent as "who" does; with no object after the verb
    ("What burned down?", "What burned at the docks?") it asks which thing was destroyed."""
    if words[:1] != ["what"] or len(words) < 3 or words[2] in _NO_OBJECT:
        return []
    return words[1:] if words[1] in DESTRUCTION_WORDS else []


SETTING_PREPOSITIONS = frozenset(
    ("in", "around", "near", "across", "along", "through", "throughout", "within", "outside")
)  # fmt: skip
_DETERMINERS = frozenset(("the", "this", "that", "these", "those", "our", "a"))


def _setting_noun(words: list[str], i: int) -> bool:
    """A place noun after a preposition of place ("Who are the big players *in this town*?",
    "Which tavern *in the city* …"): the setting the question is asked in, not the type of
    its answer."""
    if ANSWER_TYPE_WORDS.get(words[i]) != frozenset({"Location"}) or not i:
        return False
    before = words[i - 1]
    if before in _DETERMINERS and i > 1:
        before = words[i - 2]
    return before in SETTING_PREPOSITIONS


RUNNING = frozenset(("run", "runs", "ran", "running"))
MOTION_PARTICLES = frozenset(
    ("out", "away", "off", "into", "past", "through", "across", "over", "around", "round",
     "along", "back", "after", "from", "for", "to", "up", "down", "with")
)  # fmt: skip
"""After "run", a motion or company, not running something ("to *run out* past the rocks",
"*ran off* with the idol", "the gang he was *running with*"): no ``leads``/``owns`` cue."""


GOING_ON = frozenset(("keep", "keeps", "kept"))
""""Keeps" before a word in -ing goes on doing it ("Osman *keeps going on* about"), holding
nothing: no ``owns`` cue."""

KEEPING_VERBS = frozenset(
    ("have", "has", "had", "carry", "carries", "carrying", "hold", "holds", "holding", "keep",
     "keeps", "keeping", "got")
)  # fmt: skip
OWN_POSSESSIVES = frozenset(("his", "her", "their", "its"))


def _keeps_own(words: list[str]) -> bool:
    """Whether someone still has a thing of theirs: a verb of having with "his", "her",
    "their" or "its" after it and a thing after that ("Does the Scarecrow still *have his*
    father's sword?", "Is Lobo *carrying her* pistol?"): asked along ``owns`` / ``owned_by``
    from whoever it names; "Has he *got his* back to the wall?" holds no thing
    (:data:`HELD_ABSTRACTS`)."""
    return any(
        w in KEEPING_VERBS
        and after in OWN_POSSESSIVES
        and i + 2 < len(words)
        and words[i + 2] not in HELD_ABSTRACTS
        for i, (w, after) in enumerate(pairwise(words))
    )


AGENT_NOUNS = frozenset(
    ("man", "men", "woman", "women", "creature", "creatures", "dog", "hound", "agent", "agents",
     "stooge", "puppet", "pawn", "spy", "muscle", "boys", "lackey", "tool", "errand", "people")
)  # fmt: skip
""""*Whose man* is Oni-Kumagai?", "*Whose creature* is the clerk?": right after "whose", a noun
of someone's agent asks whom they serve (``works_for``)."""

LOCKED_UP = (("lock", "and", "key"), ("locked", "up"), ("locked", "away"), ("behind", "bars"))
"""Phrases of keeping someone captive: "Who's keeping the Karō *under lock and key*?", "Who
has him *locked up*?" ask for the captor (``captured_by``, a capture's detail)."""

HOLDING = frozenset(("held", "holds", "holding"))
HELD_BY = frozenset(("being", "been"))
CAPTIVITY = frozenset(("captive", "prisoner", "prisoners", "hostage", "hostages", "down"))
""""Is the curator still *being held* by the cult?", "held *captive*": a captivity, not a
rule over something ("Who *holds* the keep?")."""


_NOW_THAT_FIRST = re.compile(r"^\s*now that\b[^,?]*,\s*", re.IGNORECASE)
_NOW_THAT = re.compile(r"[,;]?\s+now that\b", re.IGNORECASE)


def asked_clause(question: str) -> str:
    """The question without a clause of what changed ("Who's our fourth *now that Kii-bō
    carries a jitte again*?", "*Now that Gonzō's gone,* who runs the Kingfishers?"): what
    it tells is no relation asked ("carries" there asks for no holder)."""
    rest = _NOW_THAT_FIRST.sub("", question)
    rest = _NOW_THAT.split(rest, maxsplit=1)[0]
    return rest if rest.strip() else question


WHOSE_IS = frozenset(("is", "was", "are", "were"))
""""*Whose is* the Don's old brig now?": "whose" and a verb of being ask for the owner or the
holder (``owns`` / ``owned_by``, which a change's ``held_by`` sets)."""


def question_cues(question: str) -> QuestionCues:
    """The answer types, relation types and party attitude a question asks for. A relation
    word whose object is the asker ("Who can *lead us* into the barrow?") asks for a service,
    not along a relation."""
    question = asked_clause(question)
    words = _WORD.findall(question.lower().replace("’", "'"))
    cased = _WORD.findall(question.replace("’", "'"))
    named = {w.lower() for w in cased if w[:1].isupper()} & NAME_PRONE
    named |= _titles(cased)
    attitudes = {ATTITUDE_WORDS[w] for w in words if w in ATTITUDE_WORDS}
    if has_phrase(words, HOSTILE_PHRASES) or _wishes_party_dead(words):
        attitudes.add("hostile")
    if has_phrase(words, ALLIED_PHRASES) and not wins_over(words):
        attitudes.add("allied")
    turned = has_phrase(words, TURNING_PHRASES)  # "Which of our old friends have turned on us?"
    if turned:
        attitudes = {"hostile"}  # the friends are who they were; the turn is what they are
    about_party = any(w in PARTY_WORDS for w in words) or _wishes_party_dead(words)
    errand = _errand_for(words)  # "running envelopes for": whom one works for, no rule
    relations = frozenset().union(
        *(
            RELATION_WORDS.get(w, ())
            for before, (w, after) in zip(["", *words], pairwise([*words, ""]), strict=False)
            if (after not in ("us", "me") or w in MEMBERSHIP_WORDS)
            and w not in named
            and not (w in RUNNING and (after in MOTION_PARTICLES or errand))
            and not (w in HOLDING and (before in HELD_BY or after in CAPTIVITY))
            and not (w in GOING_ON and after.endswith("ing") and len(after) > 4)
        )
    )
    if any(w in RUNNING and after == "with" for w, after in pairwise(words)):
        relations |= {"member_of"}  # "Which gang was Toby running with?"
    if has_phrase(words, LEADING_PHRASES):  # "Who's in charge of the parish?"
        relations |= RELATION_WORDS["rules"]
    if turned:
        relations -= RELATION_WORDS["friends"]
    kinship = _kinship(words)
    relations |= kinship | _event(words[1:] if words[:1] == ["who"] else _what_did(words))
    if _got_someone(question, words) or (
        words[:1] and words[0] in KILLER_THINGS and _killing(words[1:])
    ):
        relations |= {"killed_by"}  # "What took out the sheriff?"
    if has_phrase(words, HOLDING_PHRASES) or _holds_thing(words) or _has_thing(words, cased):
        relations |= {"owns", "owned_by"}
    if _keeps_own(words):  # "Does the Scarecrow still have his father's sword?"
        relations |= {"owns", "owned_by"}
    if words[:1] == ["whose"] and words[1:2] and words[1] in AGENT_NOUNS:  # "Whose man is X?"
        relations |= RELATION_WORDS["works"]
    if words[:1] == ["whose"] and words[1:2] and words[1] in WHOSE_IS:  # "Whose is the brig?"
        relations |= {"owns", "owned_by"}
    if words[:1] == ["who"] and has_phrase(words, LOCKED_UP):  # "Who's keeping X locked up?"
        relations |= {"captured_by"}
    if errand:  # "Who was the Leipzig girl running envelopes for?"
        relations |= RELATION_WORDS["works"]
    if _dismisses(cased):  # "Who canned Ethan?"
        relations |= {"works_for", "employs"}
    kin_nouns = (
        frozenset(w for w in words if "related_to" in KIN_WORDS.get(w, ()))
        if "related_to" in kinship
        else frozenset()
    )
    return QuestionCues(
        answer_types=frozenset().union(
            *(
                ANSWER_TYPE_WORDS.get(w, ())
                for i, w in enumerate(words)
                if not _setting_noun(words, i)
            )
        ),
        relation_types=relations,
        kin_nouns=kin_nouns,
        attitude=attitudes.pop() if about_party and len(attitudes) == 1 else None,
        party_relation=bool(relations) and _asks_party_relation(words),
        ended=_dismisses(cased),
        dangers=any(w in DANGER_WORDS for w in words),
        list_types=frozenset().union(
            *(ANSWER_TYPE_WORDS[w] for w in words[:LIST_WORDS] if _plural_type(w))
        ),
    )
