"""Entity types from the words around a name in prose, by cue words.

Evidence, strongest first (the first one that speaks decides; none → ``Other``):

1. a definition: "Wenna Marsh is a gnome apothecary" — the last cue noun of the phrase after
   the article ("gnome apothecary" → NPC, "mill town on the river" → Location);
2. a title before the name ("Reeve Alda Brandt") or a role in apposition ("Its keeper, Hob
   Tarrow" / "Hob Tarrow, the innkeeper,") → NPC;
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
    "region kingdom realm province county barony land lands sea bay coast cliff cliffs",
    "NPC": "man woman boy girl child gnome dwarf elf halfling human orc goblin innkeeper "
    "keeper apothecary merchant trader smith blacksmith miller farmer priest priestess monk "
    "nun knight wizard witch sorcerer mage druid ranger hunter guard captain soldier "
    "sergeant reeve mayor lord lady king queen prince princess noble widow widower baker "
    "brewer fisherman ferryman healer herbalist scholar sage bard thief spy assassin "
    "smuggler sailor carpenter mason tanner weaver cook servant steward herald warden "
    "elder chieftain chief bandit mercenary pilgrim hermit acolyte oracle seer "
    "apprentice daughter son brother sister mother father wife husband uncle aunt "
    "leader squire rogue cleric paladin fighter veteran guide half-elf half-orc tiefling "
    "scout archer noblewoman nobleman lady-in-waiting courier ferrywoman boatman",
    "Faction": "guild order compact company band cult society brotherhood sisterhood "
    "council circle league watch wardens syndicate gang clan tribe house family church "
    "faith alliance fellowship covenant legion army militia crew coven consortium",
    "Deity": "god goddess deity saint patron",
    "Item": "sword blade dagger axe bow spear shield helm crown ring amulet necklace "
    "staff wand tome book scroll map key relic artifact artefact gem jewel chalice cup "
    "lantern cloak armour armor hammer horn orb idol statue",
    "Creature": "beast monster dragon wyrm wolf bear troll ogre giant spider serpent "
    "wraith ghost spirit undead ghoul zombie drake hound worm creature stag hag boar elk "
    "basilisk wyvern griffon harpy",
    "Event": "festival feast battle war siege fire flood plague massacre rebellion "
    "uprising fair tournament wedding funeral coronation rite ritual fall",
    "Quest": "quest task errand mission bounty",
}.items():
    _LEXICON.update(dict.fromkeys(_words.split(), _type))
_LEXICON.update({"house": "Location", "church": "Location"})
for _type, _words in {  # other genres: space opera, modern, investigation horror, wuxia
    "Location": "station spaceport starport outpost colony base planet moon asteroid deck "
    "hangar sector arcology habitat bar pub club lounge diner cafe café restaurant saloon "
    "casino hotel motel hostel boarding-house lodge cabin hut shack mansion estate palace "
    "citadel bastion stronghold garrison barracks prison jail gaol asylum sanatorium "
    "hospital clinic infirmary hospice medbay precinct office bank embassy college "
    "university school museum theatre theater cinema arena stadium park plaza avenue "
    "boulevard lane alley wharf pier quay canal lagoon delta estuary reef fen moor heath "
    "glade grove jungle desert oasis canyon gorge ridge peak summit glacier volcano crater "
    "falls pond chasm dungeon vault catacombs sewer sewers ward parish cathedral basilica "
    "priory convent nunnery sanctuary sanctum pagoda foundry factory workshop laboratory "
    "lab brewery distillery bakery orphanage guildhall townhouse apartment apartments flat "
    "building tenement warehouse depot yard shipyard dockyard terminal platform airfield "
    "farmhouse homestead ranch plantation vineyard orchard causeway sluice dyke dike levee "
    "dam weir lock holm islet atoll archipelago continent nation empire republic",
    "NPC": "admiral commodore lieutenant colonel corporal ensign officer detective inspector "
    "constable deputy marshal agent doctor professor quartermaster engineer pilot navigator "
    "mechanic medic nurse surgeon physician hacker fixer dealer broker pirate bodyguard "
    "enforcer thug gangster mobster hitman henchman boss kingpin crimelord warlord "
    "senator governor chancellor president minister ambassador envoy duke duchess baron "
    "baroness count countess earl emperor empress regent margrave abbot abbess prior "
    "prioress bishop archbishop cardinal vicar pastor parson curate deacon rabbi imam shaman "
    "necromancer warlock alchemist artificer tinker jeweller jeweler cartographer librarian "
    "archivist clerk scribe butler maid valet nanny groom farrier shepherd trapper "
    "woodcutter miner foreman forewoman overseer owner proprietor landlord landlady "
    "barkeep bartender barman barmaid publican innkeep chef singer dancer actor actress "
    "poet painter student teacher tutor journalist reporter editor lawyer judge magistrate "
    "banker accountant cultist prophet matriarch patriarch grandmother grandfather cousin "
    "nephew niece twin stranger traveller traveler wanderer refugee orphan beggar jester "
    "messenger runner captain executive director manager secretary chairman mercenary "
    "spymaster informant investigator scientist researcher doctor academic",
    "Faction": "corporation corp megacorp cartel mob outfit agency bureau department police "
    "constabulary navy fleet federation union collective cabal conclave coterie tong triad "
    "dynasty inquisition movement resistance rebels pirates raiders marauders bandits "
    "patrol squadron regiment battalion company firm enterprise lodge senate parliament "
    "assembly committee syndicate ring network",
    "Item": "ship starship spaceship freighter cutter frigate cruiser corvette destroyer "
    "shuttle vessel boat barge galleon sloop schooner brig caravel airship zeppelin car "
    "truck wagon carriage train submarine mech pistol rifle gun revolver blaster device "
    "machine engine datapad chip locket brooch mirror bell coin seal sigil mask totem "
    "skull crystal potion elixir codex grimoire journal diary letter ledger charter deed "
    "writ tablet tablets fragment fragments banner throne reliquary",
    "Creature": "alien vampire werewolf lich demon devil fiend elemental golem kraken "
    "leviathan hydra chimera manticore ooze slime rat swarm horde xenomorph android robot "
    "drone",
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
)  # fmt: skip
_ARTICLE = r"\s+(?:is|was|are|were)\s+(?:a|an|the|one\s+of\s+the)\s+"
_PHRASE_STOP = frozenset(
    ("who", "that", "which", "whose", "with", "where", "of", "for", "on", "in", "by", "at",
     "from", "to", "and")
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
    r"carries|wields|joined)\b"
)


def noun_type(word: str) -> str | None:
    """The type a cue noun stands for ("inn" → Location), if any."""
    key = word.casefold().strip("'’")
    found = _LEXICON.get(key) or _LEXICON.get(key.removesuffix("s"))
    if found is None and word.islower() and key.endswith(_PERSON_ENDINGS):
        return "NPC"
    return found


def definition_type(text: str, start: int, end: int) -> str | None:
    """The type the sentence ``text[start:end] + " is a ..."`` defines the name as."""
    match = re.compile(_ARTICLE, re.IGNORECASE).match(text, end)
    if match is None:
        return None
    if re.match(r"(?:\w+\s+)?player\s+character", text[match.end() :], re.IGNORECASE):
        return "PC"
    found: str | None = None
    for word in re.findall(r"[\w'-]+|[,.;:!?]", text[match.end() : match.end() + 80]):
        if not word[0].isalnum() or word.casefold() in _PHRASE_STOP:
            break
        found = noun_type(word) or found
    return found


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
    "the freighter X", "a man called X" or "Blackfang, a dire wolf"."""
    window = text[max(0, start - 60) : start]
    introduced = INTRODUCED.search(window)
    if introduced and noun_type(introduced.group(1)):
        return noun_type(introduced.group(1))
    before = re.search(r"(?:(\w+),|\bthe\s+(?:[\w-]+\s+)?(\w+))\s*$", window, re.IGNORECASE)
    if before:
        kind = noun_type(before.group(1) or before.group(2))
        if kind == "NPC" or (before.group(2) and _naming_noun(before.group(2))):
            return kind
    after = re.match(r",\s+(?:the|a|an|our|its)\s+((?:[\w-]+\s+){0,3})", text[end : end + 80])
    if after:
        for word in reversed(after.group(1).split()):
            if noun_type(word):
                return noun_type(word)
    return None


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


def name_type(name: str) -> str | None:
    """The type the name's head word or ending implies ("Slow River" → Location)."""
    words = name.replace("’", "'").split()
    if len(words) > 1 and words[-1].casefold() in _NUMBERS:
        words = [*words[:-1], words[-2]]  # the noun before a number is the head: "Bay Nine"
    head = words[-1].strip("'")
    of = [w for w in words if w.casefold() == "of"]
    if of:
        head = words[words.index(of[0]) - 1] if words.index(of[0]) else head
    found = noun_type(head) if len(words) > 1 else None  # "Wizard" alone is no proof
    if found:
        return found
    for kind, endings in _SUFFIXES:
        if len(words) == 1 and any(head.casefold().endswith(e) for e in endings):
            return kind
    return None


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


def pronoun_follows(text: str, sentence_end: int) -> bool:
    """Whether the next sentence opens with a personal pronoun ("She belongs to ...")."""
    return bool(_PRONOUN.match(text[sentence_end:].lstrip()))
