"""BM25 over a campaign view (bm25s): one index for entities, one for chunks.

Two corpora rather than one because entity documents are short and chunks long; each kind's
scores are normalised to 0..1 by the best score of its own result set, as the vector search
scores are per kind too. Tokenising is a lowercase word split minus English stopwords and the
question words of a player's question ("where", "who", "can", ...), which carry no topic.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import bm25s
import numpy as np
from bm25s.stopwords import STOPWORDS_EN

from graphrag_core.models import CampaignView
from graphrag_core.ports import SearchKind
from ranking.documents import SEARCH_KINDS, ItemKey, view_documents

_WORD = re.compile(r"[^\W_]+")

QUESTION_WORDS: frozenset[str] = frozenset(
    {
        "what",
        "where",
        "who",
        "whom",
        "whose",
        "which",
        "when",
        "why",
        "how",
        "can",
        "could",
        "do",
        "does",
        "did",
        "should",
        "would",
        "may",
        "might",
        "i",
        "we",
        "us",
        "our",
        "you",
        "me",
        "my",
        "any",
        "some",
        "about",
        # the asker: every recap says "the party", so it carries no topic in a question
        "party",
        "party's",
    }
)
"""Words of the question form, dropped like stopwords."""

STOPWORDS: frozenset[str] = frozenset(STOPWORDS_EN) | QUESTION_WORDS


def tokenize(text: str) -> list[str]:
    """Lowercase words (letters and digits), stopwords and question words removed."""
    return [word for word in _WORD.findall(text.lower()) if word not in STOPWORDS]


@dataclass(frozen=True)
class LexicalHit:
    key: ItemKey
    score: float
    """BM25 score divided by the best score of the same kind in this result set (0..1]."""


class _Corpus:
    """One bm25s index and the item ids of its rows."""

    def __init__(self, keys: list[ItemKey], tokens: list[list[str]] | None) -> None:
        self.keys = keys
        self._bm25 = bm25s.BM25()
        if keys and tokens is not None:
            self._bm25.index(tokens, show_progress=False)

    def arrays(self, prefix: str) -> dict[str, np.ndarray]:
        """The index as plain arrays (no Python objects), for :meth:`from_arrays`."""
        arrays = {f"{prefix}ids": np.array([key.id for key in self.keys], dtype=str)}
        if self.keys:
            scores = self._bm25.scores
            vocab = sorted(self._bm25.vocab_dict.items(), key=lambda item: item[1])
            arrays |= {
                f"{prefix}data": scores["data"],
                f"{prefix}indices": scores["indices"],
                f"{prefix}indptr": scores["indptr"],
                f"{prefix}num_docs": np.array(scores["num_docs"]),
                f"{prefix}vocab": np.array([token for token, _ in vocab], dtype=str),
                f"{prefix}vocab_ids": np.array([token_id for _, token_id in vocab]),
            }
        return arrays

    @classmethod
    def from_arrays(cls, kind: SearchKind, arrays: Mapping[str, np.ndarray]) -> _Corpus:
        """The index :meth:`arrays` wrote (bm25s's default BM25, as :meth:`__init__` builds:
        its scores matrix and vocabulary are all a search reads)."""
        prefix = f"{kind}_"
        corpus = cls([ItemKey(kind, str(i)) for i in arrays[f"{prefix}ids"].tolist()], None)
        if corpus.keys:
            bm25 = corpus._bm25
            bm25.scores = {
                "data": arrays[f"{prefix}data"],
                "indices": arrays[f"{prefix}indices"],
                "indptr": arrays[f"{prefix}indptr"],
                "num_docs": int(arrays[f"{prefix}num_docs"]),
            }
            tokens, ids = arrays[f"{prefix}vocab"].tolist(), arrays[f"{prefix}vocab_ids"].tolist()
            bm25.vocab_dict = dict(zip(tokens, (int(i) for i in ids), strict=True))
            bm25.unique_token_ids_set = set(bm25.vocab_dict.values())
            bm25.nonoccurrence_array = None
        return corpus

    def search(self, query: Sequence[str], k: int) -> list[LexicalHit]:
        if not self.keys or not query or k <= 0:
            return []
        scores = np.asarray(self._bm25.get_scores(list(query)), dtype=np.float64)
        best = _top_rows(scores, k, self.keys)
        if not best:
            return []
        top = float(scores[best[0]])
        return [LexicalHit(self.keys[row], float(scores[row]) / top) for row in best]


def _top_rows(scores: np.ndarray, k: int, keys: list[ItemKey]) -> list[int]:
    """Rows of the ``k`` best positive scores, ties broken by item id."""
    rows = np.flatnonzero(scores > 0.0)
    if len(rows) > k:
        cutoff = np.partition(scores[rows], len(rows) - k)[len(rows) - k]
        rows = rows[scores[rows] >= cutoff]
    order = sorted(rows.tolist(), key=lambda row: (-scores[row], keys[row].id))
    return order[:k]


class LexicalIndex:
    """BM25 over everything a view may see; build one per view (its audience and session)."""

    def __init__(self, corpora: dict[SearchKind, _Corpus]) -> None:
        self._corpora = corpora

    @classmethod
    def build(cls, view: CampaignView) -> LexicalIndex:
        corpora: dict[SearchKind, _Corpus] = {}
        for kind in SEARCH_KINDS:
            documents = list(view_documents(view, kind))
            corpora[kind] = _Corpus(
                [doc.key for doc in documents], [tokenize(doc.text) for doc in documents]
            )
        return cls(corpora)

    def arrays(self) -> dict[str, np.ndarray]:
        """The whole index as named arrays (see :meth:`from_arrays`)."""
        return {
            name: a
            for kind in SEARCH_KINDS
            for name, a in self._corpora[kind].arrays(f"{kind}_").items()
        }

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, np.ndarray]) -> LexicalIndex:
        """The index :meth:`arrays` described: searches exactly as the one built."""
        return cls({kind: _Corpus.from_arrays(kind, arrays) for kind in SEARCH_KINDS})

    def __len__(self) -> int:
        return sum(len(corpus.keys) for corpus in self._corpora.values())

    def search(self, question: str, k: int) -> list[LexicalHit]:
        """Up to ``k`` hits of each kind, best first; scores normalised per kind to 0..1."""
        query = tokenize(question)
        hits = [hit for kind in SEARCH_KINDS for hit in self._corpora[kind].search(query, k)]
        return sorted(hits, key=lambda hit: (-hit.score, hit.key.kind, hit.key.id))
