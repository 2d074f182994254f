"""Ranking: hybrid BM25 + vector candidates, question cues, blended signals, changelog-status
demotion.

``LexicalIndex.build(view)`` once per view, then ``Ranker(...).rank(question, view, index)``.
"""

from __future__ import annotations

from ranking.cues import QuestionCues, question_cues
from ranking.documents import ItemKey
from ranking.historical import is_historical
from ranking.lexical import LexicalHit, LexicalIndex
from ranking.ranker import Ranker
from ranking.results import ScoredItem
from ranking.status import availability, status_factor

__all__ = [
    "ItemKey",
    "LexicalHit",
    "LexicalIndex",
    "QuestionCues",
    "Ranker",
    "ScoredItem",
    "availability",
    "is_historical",
    "question_cues",
    "status_factor",
]
