"""Entity types from the words around a name in prose, by cue words.

Evidence, strongest first (the first one that speaks decides; none → ``Other``):

1. a definition: "Wenna Marsh is a gnome apothecary" — the last cue noun of the phrase after
   the article ("gnome apothecary" → NPC, "mill town on the river" → Location);
2. a title before the name ("Reeve Alda Brandt") or a role in apposition ("Its keeper, Hob
   Tarrow" / "Hob Tarrow, the innkeeper,") → NPC; the label of a list the name is an item of
   ("Taverns and lodgings: the Drowned Man (Ma Greaves), ..." → Location);
3. the name's own head word or ending ("Slow River", "Millers' Compact", "Tollhouse");
4. the verb it follows ("worships Sarn" → Deity, "belongs to the X" → Faction), or a verb
   only people do that it is the subject of ("Mira Coll said") → NPC;
5. a personal pronoun opening the next sentence of the name's own section → NPC.
"""

from __future__ import annotations

import re

_LEXICON: dict[str, str] = {}
for _type, _words in {
    "Location": "inn tavern alehouse town village city hamlet river stream lake forest wood "
    "woods temple shrine chapel church mill ford bridge tower keep castle fort fortress hall "
    "manor house tollhouse market square harbour harbor port road pass mountain hill hills "
    "valley marsh swamp bog cave caves mine ruin ruins island isle street quarter district "
    "gate wall tomb crypt camp farm abbey monastery library academy well spring garden "
    "quarry pit cemetery graveyard barrow lighthouse dock docks warehouse shop smithy forge stable "
    "storehouse granary cellar "
    "region kingdom realm province county barony land lands sea bay coast cliff cliffs "
    "oasis bazaar palace cistern necropolis caravanserai shipyard yard yards loft hospice "
    "tarn gorge fjord quay pier wharf jetty reef reefs rock headland cape peak summit glacier "
    "dune dunes desert waste wastes plains heath moor fen grove glade canyon ravine "
    "estuary lagoon cove strait harbourage hostel hostelry taproom brewery bakery mint "
    "prison gaol jail dungeon barracks citadel stronghold outpost watchtower hut cottage "
    "lodge den lair grotto sanctum cathedral basilica priory convent nunnery hermitage "
    "infirmary orphanage workshop foundry farriery kiln vineyard orchard pasture "
    "manse villa estate arena amphitheatre theatre bathhouse baths fountain plaza sluice weir "
    "causeway canal staithe dam levee embankment",
    "NPC": "man woman boy girl child gnome dwarf elf halfling human orc goblin innkeeper "
    "keeper apothecary merchant trader smith blacksmith miller farmer priest priestess monk "
    "nun knight wizard witch sorcerer mage druid ranger hunter guard captain soldier "
    "sergeant reeve mayor lord lady king queen prince princess noble widow widower baker "
    "brewer fisherman ferryman healer herbalist scholar sage bard thief spy assassin "
    "smuggler sailor carpenter mason tanner weaver cook servant steward herald warden "
    "elder chieftain chief bandit mercenary pilgrim hermit acolyte oracle seer "
    "apprentice daughter son brother sister mother father wife husband uncle aunt "
    "leader squire rogue cleric paladin fighter veteran guide half-elf half-orc tiefling "
    "scout archer noblewoman nobleman lady-in-waiting courier ferrywoman boatman "
    "cartographer fence glassblower shipwright assayer farrier guildmistress guildmaster "
    "harbourmaster harbormaster forewoman foreman prior prioress infirmarian vizier sultan "
    "sultana jarl emir khan master drover miner watchman jeweller jeweler goldsmith "
    "silversmith locksmith tailor cobbler butcher potter fisher fisherwoman fishwife "
    "whaler harpooner navigator helmsman pilot corsair pirate raider cutpurse burglar "
    "pickpocket beggar urchin orphan physician surgeon midwife alchemist astrologer "
    "scribe clerk magistrate judge constable jailer gaoler headman matriarch patriarch "
    "regent heir heiress chancellor envoy ambassador courtier tax-collector toll-keeper "
    "tollkeeper landlord landlady proprietor owner barmaid serving-girl "
    "stablehand groom page knave lad lass crone grandmother grandfather nephew "
    "niece cousin twin abbess abbot friar deacon vicar templar inquisitor "
    "witch-hunter necromancer warlock enchanter illusionist diviner shaman "
    "marshal margrave margravine earl thane chieftainess warlord",
    "Faction": "guild order compact company band cult society brotherhood sisterhood "
    "council circle league watch wardens syndicate gang clan tribe house family church "
    "faith alliance fellowship covenant legion army militia crew coven consortium",
    "Deity": "god goddess deity saint patron",
    "Item": "sword blade dagger axe bow spear shield helm crown ring amulet necklace "
    "staff wand tome book scroll map key relic artifact artefact gem jewel chalice cup "
    "lantern cloak armour armor hammer horn orb idol statue pearl bell seal charter ledger "
    "chest coffer casket mask robe mantle banner standard sceptre scepter diadem circlet "
    "brooch pendant locket talisman charm totem reliquary codex grimoire chart compass "
    "spyglass flute harp lute drum mirror goblet flask phial vial potion elixir",
    "Creature": "beast monster dragon wyrm wolf bear troll ogre giant spider serpent "
    "wraith ghost spirit undead ghoul zombie drake hound worm creature stag hag boar elk "
    "basilisk wyvern griffon harpy kraken draugr scorpion scorpions lurker lurkers leviathan "
    "mermaid merrow selkie siren kelpie nixie ettin yeti wendigo werewolf vampire lich "
    "golem elemental imp demon devil fiend banshee revenant mummy skeleton jackal "
    "vulture wolves",
    "Event": "festival feast battle war siege fire flood plague massacre rebellion "
    "uprising fair tournament wedding funeral coronation rite ritual fall float procession "
    "parade",
    "Quest": "quest task errand mission bounty",
}.items():
    _LEXICON.update(dict.fromkeys(_words.split(), _type))
_LEXICON.update({"house": "Location", "church": "Location"})
for _type, _words in {  # other genres: space opera, modern, investigation horror
    "Location": "station spaceport starport colony base planet moon asteroid deck hangar sector "
    "shaft level "
    "arcology habitat bar pub club lounge diner cafe café restaurant saloon casino hotel "
    "motel boarding-house cabin shack mansion bastion garrison asylum sanatorium hospital "
    "clinic medbay precinct office bank embassy college university school museum theater "
    "cinema stadium park avenue boulevard lane alley delta jungle ridge volcano crater "
    "falls pond chasm vault catacombs sewer sewers ward parish sanctuary pagoda factory "
    "laboratory lab distillery guildhall townhouse apartment apartments flat building "
    "tenement depot dockyard terminal platform airfield farmhouse homestead ranch "
    "plantation dyke dike lock holm islet atoll archipelago continent nation empire "
    "republic",
    "NPC": "admiral commodore lieutenant colonel corporal ensign officer detective inspector "
    "deputy agent doctor professor quartermaster engineer mechanic medic nurse hacker "
    "fixer dealer broker bodyguard enforcer thug gangster mobster hitman henchman boss "
    "kingpin crimelord senator governor president minister duke duchess baron baroness "
    "count countess emperor empress bishop archbishop cardinal pastor parson curate rabbi "
    "imam artificer tinker librarian archivist butler maid valet nanny shepherd trapper "
    "woodcutter overseer barkeep bartender barman publican innkeep chef singer dancer "
    "actor actress poet painter student teacher tutor journalist reporter editor lawyer "
    "banker accountant cultist prophet stranger traveller traveler wanderer refugee "
    "jester messenger runner executive director manager secretary chairman spymaster "
    "informant investigator scientist researcher academic",
    "Faction": "corporation corp megacorp cartel mob outfit agency bureau department police "
    "constabulary navy fleet federation union collective cabal conclave coterie tong "
    "triad dynasty inquisition movement resistance rebels pirates raiders marauders "
    "bandits patrol squadron regiment battalion firm enterprise senate parliament "
    "assembly committee network",
    "Item": "ship starship spaceship freighter cutter frigate cruiser corvette destroyer shuttle "
    "vessel boat barge galleon sloop schooner brig caravel airship zeppelin car truck "
    "wagon carriage train submarine mech pistol rifle gun revolver blaster device machine "
    "engine datapad chip coin sigil skull crystal journal diary letter deed writ tablet "
    "tablets fragment fragments throne van motorbike motorcycle ambulance cyberdeck",
    "Creature": "alien hydra chimera manticore ooze slime rat swarm horde xenomorph android robot "
    "drone shark sharks hammerhead whale orca barracuda eel octopus squid crocodile alligator "
    "caiman tiger lion panther jaguar leopard gorilla snake viper cobra adder",
    "Deity": "godhead",
    "Event": "riot revolution coup heist raid",
}.items():
    for _word in _words.split():
        _LEXICON.setdefault(_word, _type)
_PERSON_ENDINGS = ("keeper", "maker", "worker", "smith", "monger", "wright", "man", "woman")
"""A lower-case cue noun ending so is a person ("millworker", "watchman", "dockhand" not)."""

_SUFFIXES = (
    ("Location", ("house", "bridge", "ford", "gate", "hall", "keep", "wood", "port", "holm",
                  "burg", "ton", "ville", "shire", "haven", "mere", "moor", "dale", "stead",
                  "wick", "march")),
    ("Faction", ("guard",)),
)  # fmt: skip
_SHAPES = frozenset(
    ("ring", "circle", "stack", "string", "line", "row", "cluster", "knot", "heap", "pile",
     "handful", "maze", "tangle", "jumble", "warren", "huddle", "scatter")
)  # fmt: skip
"""Nouns that give a shape, not a kind, before "of": "a ring of palms" is no ring."""
_ARTICLE = r"\s+(?:is|was|are|were)\s+(?:a|an|the|one\s+of\s+the)\s+"
_PHRASE_STOP = frozenset(
    ("who", "that", "which", "whose", "with", "where", "of", "for", "on", "in", "by", "at",
     "from", "to", "and", "as", "than", "through", "into", "onto", "under", "below", "beneath",
     "above", "across", "inside", "behind", "beyond", "along", "around")
)  # fmt: skip
_CONTEXT = (
    (re.compile(r"\b(?:worships?|worshipped|pray(?:s|ers?)?\s+to|priests?\s+of)\s+(?:the\s+)?$"),
     "Deity"),
    (re.compile(r"\b(?:member\s+of|belongs?\s+to|joined|leads|serves)\s+(?:the\s+)?$"), "Faction"),
    (re.compile(r"\b(?:town|village|city|river|forest|inn)\s+of\s+$"), "Location"),
)  # fmt: skip
_PRONOUN = re.compile(r"^(?:She|He|Her|His)\b")
_PERSON_VERB = re.compile(
    r"^\s+(?:(?:tried|wanted|refused|agreed|promised|swore|begged|hoped)\s+to|said|says|told|"
    r"tells|asked|asks|smiled|laughed|wept|shouted|whispered|answered|replied|fled|sells|sold|"
    r"keeps|kept|serves|served|brews|bakes|knows|knew|hates|loves|loved|wants|betrayed|"
    r"married|thanked|paid|pays|hired|met|greeted|warned|lied|died|prays|prayed|teaches|"
    r"taught|drinks|sings|sang|argued|confessed|admitted|belongs\s+to|picks|grew\s+up|"
    r"carries|wields|joined|offered|offers|sent|sends|fed|feeds|welcomed|counted|drew|"
    r"swore|begged|bargained|haggled|scowled|nodded|shrugged|frowned|grinned|sighed|"
    r"winked|muttered|insisted|explained|promised|demanded|refuses|refused|agreed|"
    r"gave|gives|threw|bribed|threatened|confided|vanished|disappeared|returned|limped|bowed|kneeled|knelt)\b"
)
_WHO = re.compile(r"^,?\s+who\b")
_PLACE_BEFORE = re.compile(r"\b(?:into|inside|within|across|throughout)\s+(?:the\s+)?$")


def noun_type(word: str) -> str | None:
    """The type a cue noun stands for ("inn" → Location), if any."""
    key = word.casefold().strip("'’")
    found = _LEXICON.get(key) or _LEXICON.get(key.removesuffix("s"))
    if found is None and word.islower() and key.endswith(_PERSON_ENDINGS):
        return "NPC"
    if found is None and "-" in key.strip("-"):
        return noun_type(key.rsplit("-", 1)[1])  # "wolf-god" is a god, "goat-guide" a guide
    return found


def definition_type(text: str, start: int, end: int) -> str | None:
    """The type the sentence ``text[start:end] + " is a ..."`` defines the name as."""
    match = re.compile(_ARTICLE, re.IGNORECASE).match(text, end)
    if match is None:
        return None
    if re.match(r"(?:\w+\s+)?player\s+character", text[match.end() :], re.IGNORECASE):
        return "PC"
    found = _phrase_type(text, match.end(), proper=True)
    if found == "NPC" and re.match(r"\s+(?:are|were)\b", text[end:], re.IGNORECASE):
        return "Faction"  # "The Tidewardens are the priests of ...": one name, many people
    return found


def entry_type(entry: str) -> str | None:
    """The type an entry of a roster, table or glossary gives its name: that of the noun
    phrase it opens with ("Captain", "the docking ring's central hub", "an old smuggler",
    "Lucky's kid brother"), up to the first clause mark; none when it opens with a verb
    ("walks the harbour beat", "owns the garage")."""
    article = re.match(r"\s*(?:(?:a|an|the|one\s+of\s+the)\s+)", entry, re.IGNORECASE)
    if article is None:
        first = re.match(r"\s*([\w'’-]+)", entry)
        word = first.group(1) if first else ""
        verb_like = word.islower() and word.endswith("s") and not noun_type(word)
        if not word or (verb_like and not re.search(r"['’]s$", word)):
            return None
    return _phrase_type(entry, article.end() if article else 0)


_KIND = re.compile(r"([A-Z][a-z]+)\s+([a-z]{2,}[^s\W]s)\s+(?:are|were)\s+(?:(?:a|an|the)\s+)?")


def creature_kind(sentence: str) -> tuple[str, str] | None:
    """("Reef Drake", "Reef drakes") when a sentence opens by defining a kind of creature:
    "Reef drakes are small sea dragons", "Glass scorpions are scorpions the size of a dog"."""
    match = _KIND.match(sentence)
    if match is None or _phrase_type(sentence, match.end()) != "Creature":
        return None
    first, plural = match.group(1), match.group(2)
    return f"{first} {plural[:-1].capitalize()}", f"{first} {plural}"


def _phrase_type(text: str, at: int, *, proper: bool = False) -> str | None:
    """The type of the last cue noun of the noun phrase at ``text[at:]`` ("gnome apothecary",
    "thin and careful man"), up to a punctuation mark, a bracket ("destroyed (Saint)" says
    nothing of a saint) or a word that opens a clause.

    A cue noun right before the phrase's last word, when that word closes the phrase at a
    punctuation mark and is no cue noun, only modifies it: "a Nightglass street asset," is no
    street, "crew van." no crew (:func:`_modifier_only`). With ``proper`` (a phrase after an
    article in running prose), a capitalised word is a name, never a cue noun: "Emeka Nwosu, a
    Bell" is one of the Sixteen Bells, not a bell."""
    found: str | None = None
    cue_at = -1
    words = re.findall(r"[\w'-]+|[,.;:!?()]", text[at : at + 80])
    closed_at = len(words)
    for index, word in enumerate(words):
        if not word[0].isalnum() or word.casefold() in _PHRASE_STOP - {"and"}:
            closed_at = index
            break
        shape = word.casefold() in _SHAPES and words[index + 1 : index + 2] == ["of"]
        kind = None if shape or (proper and word[0].isupper()) else noun_type(word)
        if kind:
            found, cue_at = kind, index
    if _modifier_only(words, cue_at, closed_at):
        return None
    return found


_NOT_HEADS = frozenset(
    ("now", "too", "here", "there", "again", "still", "once", "also", "then", "today", "alone",
     "proper", "itself", "himself", "herself", "themselves", "anymore", "ago", "away",
     "apparent", "presumptive", "elect", "general", "emeritus", "designate", "extraordinaire",
     "incarnate", "errant", "laureate", "aplenty", "galore", "overall", "abroad", "ashore")
)  # fmt: skip
"""Words that close a phrase without heading it: adverbs, and adjectives written after their
noun ("the heir apparent", "a knight errant")."""


def _modifier_only(words: list[str], cue_at: int, closed_at: int) -> bool:
    """Whether the cue noun ``words[cue_at]`` modifies the phrase's last word, the one just
    after it, which a punctuation mark closes: "street asset,", "crew van." (not "an inn
    now.", "a temple abandoned.", where the cue noun is the head)."""
    if cue_at < 0 or cue_at != closed_at - 2 or closed_at >= len(words):
        return False
    if words[closed_at] not in (",", ".", ";", ":", "!", "?", "(", ")"):
        return False
    head = words[closed_at - 1]
    plain = head.isalpha() and head.islower() and len(head) > 2
    adverb = head.endswith("ly") or (head.endswith("ed") and len(head) > 4)
    return plain and not adverb and head not in _NOT_HEADS and noun_type(head) is None


INTRODUCED = re.compile(
    r"\b(?:a|an|the|one)\s+(?:[\w-]+\s+){0,2}?([\w-]+)\s+(?:called|named)\s+(?:the\s+)?$",
    re.IGNORECASE,
)
"""An introduction: "a man called Silas Crane", "an alien machine named the Choir"."""
_NAMING_PLACES = frozenset(
    ("planet", "moon", "world", "asteroid", "comet", "star", "colony", "station", "city", "town",
     "village")
)  # fmt: skip


def _naming_noun(word: str) -> bool:
    """Whether "the <word> X" names X as a <word>: a person's role ("the ferryman Hob"), a
    vessel or thing ("the freighter Lucky Strike") or a world ("the planet Tesk"); not a
    building ("the inn Marta runs": Marta is no inn)."""
    kind = noun_type(word)
    return kind in ("NPC", "Item") or word.casefold() in _NAMING_PLACES


def apposition_type(text: str, start: int, end: int) -> str | None:
    """The type of a cue noun in apposition: "Its keeper, X", "the ferryman X", "X, the miller,"
    "the freighter X", "a man called X" or "Blackfang, a dire wolf" / "The Reedmen: a gang
    of smugglers" (the noun phrase after the comma or colon)."""
    window = text[max(0, start - 60) : start]
    introduced = INTRODUCED.search(window)
    if introduced and noun_type(introduced.group(1)):
        return noun_type(introduced.group(1))
    before = re.search(r"(?:(\w+),|\bthe\s+([\w-]+\s+)?(\w+))\s*$", window, re.IGNORECASE)
    if before and _BRACKET_ITEM.search(window):
        before = None  # "**O-Kin** (the widow, Minoya)": both describe O-Kin, not each other
    if before:
        noun = before.group(1) or before.group(3)
        kind = noun_type(noun)
        # "the planet Tesk" names a world; "before the whole town Sigrun swore" does not
        loose = noun.casefold() in _NAMING_PLACES and before.group(2)
        named = before.group(3) and _naming_noun(noun) and not loose
        if kind == "NPC" and _numbered_thing(text[start:end]):
            return None  # "Shift foreman, Shaft 9": the shaft is his, not a foreman
        if kind == "NPC" or named:
            return kind
    after = re.match(r"[,:]\s+(?:the|a|an|our|its|his|her|their)\s+", text[end : end + 80])
    if after is None or _ENUMERATED.match(text, end):
        return None  # "at the Minoya, a doctor, a girl ..., and a ...": a list, no apposition
    return _phrase_type(text, end + after.end(), proper=True)


_BRACKET_ITEM = re.compile(r"\(\s*(?:the\s+|a\s+|an\s+)?[\w-]+,\s*$")
"""A word opening a bracket before a comma: the bracket's items describe the name before it."""


_ENUMERATED = re.compile(r",\s+(?:a|an)\s+[^,;.()]{1,40},\s+(?:and\s+|or\s+)?(?:a|an)\s")
"""A name then "a ..., a ..." (or "and a ..."): one item of a list, whose next items are no
apposition of it."""


def _numbered_thing(name: str) -> bool:
    """Whether ``name`` is a place's or thing's head with a number after it ("Shaft 9",
    "Dock 5"; "Agent 47" is a person)."""
    words = name.split()
    numbered = len(words) > 1 and re.fullmatch(r"\d+[A-Za-z]?", words[-1]) is not None
    return numbered and name_type(name) not in (None, "NPC")


STRONG_HEADS = frozenset({"Faction", "Deity", "Event", "Quest"})
"""Types a name's head word decides even against a definition ("the Dusk Watch is the town
guard"); a Location head does not ("Wenna Marsh is a gnome")."""
_WEAK_HEADS = frozenset({"saint", "patron"})
"""Head words of a strong type that do not decide it: "the Hollow Saint" may be a ship."""
_NUMBERS = frozenset(
    ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
     "twelve", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x")
)  # fmt: skip


def strong_head_type(name: str) -> str | None:
    """The name's head type when it decides against any other evidence (:data:`STRONG_HEADS`)."""
    kind = name_type(name)
    words = name.replace("’", "'").split()
    if kind not in STRONG_HEADS or words[-1].casefold().strip("'") in _WEAK_HEADS:
        return None
    return kind


def _designation(word: str) -> bool:
    """A number or a letter that tells one of a series apart: "Nine", "IV", "9", "7G", "C"."""
    folded = word.casefold()
    return folded in _NUMBERS or re.fullmatch(r"\d+[a-z]?|[a-z]", folded) is not None


def name_type(name: str) -> str | None:
    """The type the name's head word or ending implies ("Slow River" → Location)."""
    words = name.replace("’", "'").split()
    if len(words) > 1 and _designation(words[-1]):
        words = [*words[:-1], words[-2]]  # the noun before a number is the head: "Bay Nine"
    head = words[-1].strip("'")
    of = [w for w in words if w.casefold() == "of"]
    if of:
        head = words[words.index(of[0]) - 1] if words.index(of[0]) else head
    found = noun_type(head) if len(words) > 1 else None  # "Wizard" alone is no proof
    if found == "NPC" and _plural(head):
        return "Faction"  # "Black Tide Smugglers", "The Tide Sisters": a group of people
    if found == "NPC" and head.casefold() in _GROUP_HEADS:
        return "Faction"  # "The Sun Guard"
    if found:
        return found
    if len(words) > 1 and words[0].casefold() in _PLACE_PREFIXES:
        return "Location"  # "Port Varrow", "Mount Sorrow"
    for kind, endings in _SUFFIXES:
        if len(words) == 1 and any(head.casefold().endswith(e) for e in endings):
            return kind
    return None


_MODIFIERS = (
    "red|orange|yellow|green|blue|purple|violet|black|white|grey|gray|brown|pink|crimson|"
    "scarlet|golden|silver|tan|big|little|small|large|tiny|huge|long|short|tall"
)
_OWNED = re.compile(
    rf"(?:(?:\w['’]s|\b(?:my|your|his|her|its|our|their))\s+(?:(?:{_MODIFIERS})\s+)*"
    rf"|\b(?:{_MODIFIERS})\s+)$"
)


def place_head_type(text: str, start: int, end: int) -> str | None:
    """:func:`name_type` of ``text[start:end]``, save that one capitalised word after a
    possessive or a colour or size adjective is no place, whatever its head noun: "Evie's
    yellow Ford", "a big Rock" name a thing (a car make, a brand), not a ford or a rock."""
    kind = name_type(text[start:end])
    owned = _OWNED.search(text, max(0, start - 60), start) is not None
    if kind == "Location" and owned and " " not in text[start:end].strip():
        return None
    signed = kind == "NPC" and _SIGN_BEFORE.search(text, max(0, start - 40), start)
    if signed and not re.match(r"['’]s\b", text[end : end + 3]):
        return "Location"  # "drinking at the Drowned Man": a house named by its sign
    return kind


_SIGN_BEFORE = re.compile(
    r"\b(?:at|in|inside|outside|behind|past|near|beside|opposite)\s+the\s+$", re.IGNORECASE
)
"""Where a name headed by a person's noun ("the Drowned Man", "the Jolly Sailor", "the Green
Man") is a house named by its sign, not the person: "at the", "outside the", "behind the"."""
_PLACE_PREFIXES = frozenset(("port", "mount", "fort", "lake", "cape", "isle", "castle"))
_GROUP_HEADS = frozenset(("guard", "watch"))


def _plural(word: str) -> bool:
    key = word.casefold().strip("'’")
    return key not in _LEXICON and key.endswith("s") and key.removesuffix("s") in _LEXICON


def title_type(title: str, possessive: bool = False) -> str:
    """The type a title before a name gives: a saint is a Deity ("Saint Odila"), and a
    saint's name in the possessive the place called after the saint ("at St. Brendan's");
    any other title (:data:`extraction.prose_names.TITLES`) a person."""
    word = title.split()[-1].casefold()
    saint = word == "st" or noun_type(word) == "Deity"
    if saint and possessive:
        return "Location"
    return "Deity" if saint else "NPC"


def context_type(text: str, start: int) -> str | None:
    """The type the words just before the name imply ("worships X" → Deity)."""
    before = text[max(0, start - 40) : start]
    for pattern, kind in _CONTEXT:
        if pattern.search(before):
            return kind
    return None


def verb_type(text: str, end: int) -> str | None:
    """NPC when the name is the subject of a verb only people do ("Mira Coll said")."""
    return "NPC" if _PERSON_VERB.match(text[end : end + 40]) else None


_LIST_LABEL = re.compile(
    r"^\s*(?:[-*+]\s+)?(?:\*\*|__)?(?P<label>[A-Z][\w' &-]{0,38}?)(?:\*\*|__)?:(?:\*\*|__)?\s"
)
_ITEM_BEFORE = re.compile(
    r"(?:[,;:][*_]*\s*(?:(?:and|or)\s+)?|\s(?:and|or)\s+)(?:the\s+)?[*_]*$", re.IGNORECASE
)
_ITEM_AFTER = re.compile(r"[*_]*\s*(?:\([^()]*\)\s*)?(?:[,;.]|\s+(?:and|or)\s|$)")
_PLURAL_LABELS = {
    "places": "Location",
    "sites": "Location",
    "locations": "Location",
    "landmarks": "Location",
    "sights": "Location",
    "haunts": "Location",
    "lodgings": None,  # "Taverns and lodgings": the taverns say it
}
"""Plural labels of things no single cue noun of the lexicon names ("Places:", "Sites:");
``None`` for a word that says no kind but does not gainsay the others."""


def listed_type(text: str, start: int, end: int) -> str | None:
    """The type a list line's label gives the name at ``text[start:end]`` when the name is
    one of its items, whole: "Taverns and lodgings: the Drowned Man (Ma Greaves), the Widow
    Pruett's lodging house" makes the Drowned Man a place (not Pruett, who only owns an
    item). The label must be plural nouns of one kind ("Taverns", "Inns", "Places", "Ships",
    "Gangs"; :func:`label_type`)."""
    label = _LIST_LABEL.match(text)
    if label is None or label.end() > start:
        return None
    kind = label_type(label.group("label"))
    if kind is None:
        return None
    if _ITEM_BEFORE.search(text, label.start("label"), start) is None:
        return None
    return kind if _ITEM_AFTER.match(text, end) is not None else None


def label_type(label: str) -> str | None:
    """The one kind the plural nouns of a list's label name ("Taverns and lodgings" →
    Location, "Gangs" → Faction); none when a word is no plural, or two kinds speak."""
    kinds: set[str] = set()
    for word in re.findall(r"[\w'-]+", label.casefold()):
        if word in ("and", "&", "or", "other", "local", "notable", "nearby", "main"):
            continue
        if word in _PLURAL_LABELS:
            found = _PLURAL_LABELS[word]
        elif _plural(word):
            found = _LEXICON[word.removesuffix("s")]
        else:
            return None
        if found is not None:
            kinds.add(found)
    return kinds.pop() if len(kinds) == 1 else None


def weak_type(text: str, start: int, end: int) -> str | None:
    """The weakest evidence: "X, who ..." → NPC; "in X", "into the X" → Location (not "in
    X's hand")."""
    if _WHO.match(text[end : end + 8]):
        return "NPC"
    if _PLACE_BEFORE.search(text[max(0, start - 16) : start]) and not re.match(
        r"['’]s\b", text[end : end + 3]
    ):
        return "Location"
    return None


def pronoun_follows(text: str, sentence_end: int) -> bool:
    """Whether the next sentence opens with a personal pronoun ("She belongs to ...")."""
    return bool(_PRONOUN.match(text[sentence_end:].lstrip()))
