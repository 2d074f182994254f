"""Weight presets of the blend: constants, chosen from the question or by flag.

- ``CURRENT_STATE``: "where can we rest?", "who leads the guild?": what is true now; recent
  things count a little more, the status demotion applies.
- ``HISTORICAL``: "what happened at the Red Oak?", ``--as-of N``: the past is the answer, so
  recency counts for nothing (the status demotion is off for such questions, see
  :mod:`ranking.status`).
- ``LORE``: "tell me about the Ashen Choir", legends and background: central entities and the
  graph around the named ones count more; recency not at all.

Every weight can be changed per preset in the settings (``[ranking.lore] centrality = 0.2``);
``RankingSettings.preset`` or ``ask --preset`` forces one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields, replace

from graphrag_core.config import PresetName, RankingSettings
from ranking.historical import is_historical


@dataclass(frozen=True)
class RankingWeights:
    """One weight per signal or cue of the blend (see :mod:`ranking.ranker`)."""

    semantic: float
    lexical: float
    support: float
    mention: float
    named: float
    anchor: float
    anchor_list: float
    relation: float
    attitude: float
    status_asked: float
    took_part: float
    proximity: float
    type: float
    type_list: float
    centrality: float
    recency: float
    community: float


CURRENT_STATE = RankingWeights(
    semantic=0.6,
    lexical=0.4,
    support=0.9,
    mention=0.5,
    named=1.0,
    anchor=0.8,
    anchor_list=0.6,
    relation=1.0,
    attitude=0.8,
    status_asked=0.8,
    took_part=0.6,
    proximity=0.15,
    type=0.1,
    type_list=0.4,
    centrality=0.05,
    recency=0.1,
    community=1.0,
)
HISTORICAL = replace(CURRENT_STATE, recency=0.0)
LORE = replace(CURRENT_STATE, proximity=0.2, centrality=0.15, recency=0.0)

PRESETS: dict[PresetName, RankingWeights] = {
    "current_state": CURRENT_STATE,
    "historical": HISTORICAL,
    "lore": LORE,
}

LORE_CUES: tuple[str, ...] = (
    "lore",
    "legend",
    "legends",
    "myth",
    "myths",
    "tell me about",
    "describe",
    "origin",
    "origins",
    "background",
)
"""Words and phrases (whole words, lowercase) that ask for background rather than now."""

_LORE = re.compile(r"\b(?:" + "|".join(re.escape(cue) for cue in LORE_CUES) + r")\b")


def choose_preset(
    question: str, *, historical: bool | None = None, forced: PresetName | None = None
) -> PresetName:
    """``forced`` when given; else historical (by flag or wording), lore, or current state."""
    if forced is not None:
        return forced
    if historical if historical is not None else is_historical(question):
        return "historical"
    return "lore" if _LORE.search(question.lower()) else "current_state"


def preset_weights(name: PresetName, settings: RankingSettings) -> RankingWeights:
    """The preset's constants with the settings' overrides for it applied."""
    return replace(PRESETS[name], **settings.overrides(name).changed())


def weight_names() -> tuple[str, ...]:
    return tuple(f.name for f in fields(RankingWeights))
