"""The wording the offline recap draft recognises: what counts as a stated death, destruction,
disappearance or betrayal, and what only hedges one.

A *rule* is a kind of change and the verbs that state it. Where a match's affected entity
stands depends on the verb's form (``verb_role``):

* passive ("was slain by", "was burned") → the subject, the entity named before the verb;
* transitive, an object right after the verb ("Kestrel killed Hob", "burned the Copper Kettle
  to the ground") → that object, never the subject (the killer does not die);
* intransitive ("Hob died", "the bridge collapsed", "the Kettle burned to the ground") → the
  subject, for the verbs that can stand alone (``intransitive`` on the rule).

A *hedge* in the clause of the verb ("tried to", "nearly", "barely survived", "was wounded",
"if", "threatened", "left for dead", "not"), or *doubt* anywhere in the sentence ("rumour",
"supposedly", "dreamt"), means the change did not happen, or not for sure: it is never
proposed. A survival clause about the same entity anywhere in the sentence
("… but survived") cancels a death too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

ChangeKind = Literal["death", "destruction", "missing", "captured", "freed", "hostile"]

_PASSIVE = re.compile(
    r"\b(?:was|were|is|are|got|gets|been|be)\s+(?:\w+ly\s+|all\s+but\s+)?$", re.IGNORECASE
)
_OBJECT_START = re.compile(
    r"^\s*(?:(?:down|up|off|out)\s+)?(?:(?:the|a|an|his|her|their|its|our|my|your|every|all|"
    r"both|him|it|them)\b|[A-Z])",
)
_TIME = re.compile(
    r"^\s*(?:(?:down|up)\s+)?(?:the\s+(?:same|next|following)\s+|that\s+|this\s+|last\s+|"
    r"the\s+)(?:night|day|morning|evening|afternoon|dawn|dusk|week|hour)\b",
    re.IGNORECASE,
)
"""A time after the verb is no object: "the inn burned down the same night"."""
HEDGE = re.compile(
    r"\b(?:tr(?:y|ied|ies|ying)|attempt\w*|almost|nearly|barely|narrowly|would|could|might|may|"
    r"should|will|shall|going\s+to|about\s+to|wants?\s+to|wanted\s+to|plann?\w*|plott?\w*|"
    r"threat\w*|fail\w*|missed|if|unless|whether|not|never|no\s+one|nobody|rumou?r\w*|"
    r"fear\w*|wounded|injured|hurt|left\s+for\s+dead|surviv\w*|spared|hop(?:e|ed|es)|"
    r"seem\w*|maybe|perhaps|probably|swore|vowed|promised|unless|in\s+case)\b"
    r"|n't\b",
    re.IGNORECASE,
)
DOUBT = re.compile(
    r"\b(?:rumou?r\w*|supposedly|apparently|allegedly|reportedly|claim\w*|or\s+so|dream\w*|"
    r"visions?|prophec\w*|foretold|pretend\w*|feign\w*|fak(?:ed|ing)|lied|lie\s+that)\b",
    re.IGNORECASE,
)
"""Doubt anywhere in the sentence ("Hob was killed, or so the rumour went") hedges it all."""
SURVIVAL = re.compile(
    r"\b(?:surviv\w*|escap\w*|recover\w*|pulled\s+through|still\s+alive|lived|revived|"
    r"resurrected|raised\s+from\s+the\s+dead|spared|rescued)\b",
    re.IGNORECASE,
)
CLAUSE = re.compile(
    r"[;:,—–]|\s-\s|\b(?:but|yet|then|while|although|though|whereas|and|so|after|before|"
    r"until|when|because|who|which)\b",
    re.IGNORECASE,
)
"""Where the hedge scope of a verb ends (commas included)."""
SUBJECT_BARRIER = re.compile(
    r"[;:—–]|\b(?:but|yet|then|while|although|though|whereas|and|so|after|before|until|"
    r"because)\b",
    re.IGNORECASE,
)
"""How far back the subject of a verb is looked for (commas excluded: "Hob, the keeper, died")."""


@dataclass(frozen=True)
class Rule:
    kind: ChangeKind
    verbs: re.Pattern[str]
    intransitive: bool
    """Whether the verb alone (no object) states the change of its subject."""
    transitive: bool = True
    """Whether an object right after the verb is what changes."""


def _verbs(words: str) -> re.Pattern[str]:
    return re.compile(rf"\b(?:{words})\b", re.IGNORECASE)


RULES: tuple[Rule, ...] = (
    Rule("death", _verbs(r"killed|kills|slew|slays|slain|murdered|executed|beheaded|"
                         r"assassinated|finished\s+off|struck\s+down|cut\s+down|hanged|"
                         r"strangled|poisoned\s+to\s+death|put\s+to\s+death|devoured"),
         intransitive=False),
    Rule("death", _verbs(r"died|dies|perished|succumbed|fell\s+in\s+battle|drowned|"
                         r"(?:is|was|lay|lies|lie|were|are)\s+(?:found\s+)?dead|found\s+dead|"
                         r"breathed\s+(?:his|her|their|"
                         r"its)\s+last|met\s+(?:his|her|their|its)\s+end"),
         intransitive=True, transitive=False),
    Rule("destruction", _verbs(r"burned\s+down|burnt\s+down|burned|burnt|torched|destroyed|"
                               r"razed|demolished|levell?ed|flattened|shattered|smashed|"
                               r"blew\s+up|blown\s+up|sank|sunk|collapsed|crumbled|caved\s+in|"
                               r"went\s+up\s+in\s+flames|exploded|reduced\s+to\s+(?:ash|ashes|"
                               r"rubble|cinders)|(?:lies|lay|is|was)\s+in\s+ruins|disbanded|"
                               r"dissolved|wiped\s+out|(?:was|were)\s+broken"),
         intransitive=True),
    Rule("missing", _verbs(r"fled|flees|vanished|vanishes|disappeared|disappears|"
                           r"went\s+missing|(?:is|was|are|were)\s+(?:\w+ly\s+)?(?:missing|gone)|"
                           r"was\s+never\s+seen\s+again|was\s+lost|is\s+lost"),
         intransitive=True, transitive=False),
    Rule("captured", _verbs(r"arrested|captured|imprisoned|jailed|locked\s+up|kidnapped|"
                            r"abducted|taken\s+prisoner|took\s+prisoner|enslaved"),
         intransitive=False),
    Rule("freed", _verbs(r"freed|released|set\s+free|broke(?=[^.;]{1,50}\bout\s+of\b)"),
         intransitive=False),
    Rule("hostile", _verbs(r"turned\s+on|turned\s+against|turns\s+on|betrayed|betrays|"
                           r"declared\s+war\s+on|swore\s+vengeance\s+on|"
                           r"(?:now\s+)?(?:treats|treated|sees|saw|regards|regarded)\s+(?:us|"
                           r"the\s+party)\s+as\s+(?:outlaws|enemies|an\s+enemy|traitors|"
                           r"criminals)|(?:is|are|became|become|now)\s+(?:now\s+)?hostile"),
         intransitive=True, transitive=False),
)  # fmt: skip

SUBJECT_GAP = re.compile(
    r"^(?:\s*,[^,]{1,60},)?\s*(?:(?:\w+ly|had|has|have|was|were|is|are|got|been|be|all|but|"
    r"then|finally|also|soon|later|now|suddenly|eventually|too|itself|himself|herself)\s+)*$",
    re.IGNORECASE,
)
"""What may stand between a subject and its verb: an appositive, auxiliaries, adverbs."""
OBJECT_GAP = re.compile(r"^\s*(?:(?:down|up|off|out|the|a|an|his|her|their|its|our)\s+)*$", re.I)
"""What may stand between a verb and its object."""
NAME_ENDS_PHRASE = re.compile(
    r"^(?:\s*$|\s*[.,;:!?)\]—–]|\s+-|\s+(?:to|in|on|at|with|by|and|but|or|from|into|down|up|"
    r"out|off|before|after|during|while|as|for|that|which|who|when|then|so|because|until|"
    r"overnight|outright|last|this|the|near|beside|under|over|inside|outside|himself|herself|"
    r"itself|themselves|once|again|forever|was|were|had|has|is|are|alive)\b)",
    re.IGNORECASE,
)
"""What may follow a name that is the whole noun phrase: "burned the Mossgate smithy" names a
smithy, not Mossgate, and "Hob's dog died" is no death of Hob."""

PARTY_OBJECT = re.compile(r"^\s*(?:us|the\s+party|our\s+party|our\s+group|the\s+heroes)\b", re.I)
"""What a betrayal must be aimed at to make an attitude toward the party hostile."""


def passive(sentence: str, start: int) -> bool:
    """Whether the verb at ``start`` is passive ("was slain", "were all but destroyed")."""
    return _PASSIVE.search(sentence[:start]) is not None


def verb_role(sentence: str, start: int, end: int, rule: Rule) -> Literal["subject", "object"]:
    """Where the entity a verb match changes stands: before it (subject) or after (object)."""
    if rule.kind == "hostile" or passive(sentence, start):
        return "subject"
    if rule.transitive and _OBJECT_START.match(sentence[end:]) and not _TIME.match(sentence[end:]):
        return "object"
    return "subject"
