"""Cited answers: a short answer written by a chat model from a context block, in which every
sentence cites the handles it rests on; a sentence citing no handle of the context is dropped.

The prompt shows the context's Markdown (whose every line ends in its citations) and asks for
sentences ending in ``[e:…, ch:…]``. ``checked_answer`` splits the reply into sentences, keeps
the handles each cites that the context holds, and drops the sentences left with none.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ranking.context.models import CitedAnswerText, CitedSentence, ContextBlock

MAX_ANSWER_TOKENS = 400
_SENTENCE = re.compile(r"(?<=[.!?\]])\s+(?=[A-Z0-9\"'(])")
_BRACKETS = re.compile(r"\[([^\[\]]+)\]")
_HANDLE = re.compile(r"^(?:e|c|p|ch):\S+$")

SYSTEM = (
    "You answer questions about a tabletop role-playing campaign using ONLY the context "
    "given. Write at most five short sentences. End every sentence with the handles it rests "
    "on, in square brackets, exactly as the context writes them, e.g. [e:torven, ch:s4-r1-1]. "
    "Never state a fact the context does not give. If the context does not answer the "
    "question, say so in one sentence citing the items you checked."
)


def answer_messages(question: str, block: ContextBlock) -> list[dict[str, str]]:
    user = f"Context:\n\n{block.markdown}\n\nQuestion: {question}"
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}]


def context_handles(block: ContextBlock) -> frozenset[str]:
    """Every handle the block shows: its items' and everything their lines cite."""
    found: set[str] = set()
    for item in block.preview:
        found.update((item.handle, *item.cites))
        found.update(c for c in (item.status_change,) if c)
    for expansion in block.expansions:
        found.add(expansion.handle)
        found.update(c for line in expansion.lines for c in line.cites)
    return frozenset(found)


def _cites(sentence: str) -> tuple[str, tuple[str, ...]]:
    """The sentence without its bracketed handles, and the handles."""
    handles: list[str] = []
    for group in _BRACKETS.findall(sentence):
        parts = [p.strip() for p in group.split(",")]
        if parts and all(_HANDLE.match(p) for p in parts):
            handles.extend(parts)
    text = _BRACKETS.sub(lambda m: "" if _all_handles(m.group(1)) else m.group(0), sentence)
    return " ".join(text.split()).replace(" .", "."), tuple(dict.fromkeys(handles))


def _all_handles(group: str) -> bool:
    return all(_HANDLE.match(p.strip()) for p in group.split(","))


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(" ".join(text.split())) if s.strip()]


def checked_answer(reply: str, known: Iterable[str]) -> CitedAnswerText:
    """The reply's sentences that cite a handle of the context (unknown handles removed),
    and the sentences dropped for citing none."""
    allowed = frozenset(known)
    kept: list[CitedSentence] = []
    dropped: list[str] = []
    for sentence in sentences(reply):
        text, handles = _cites(sentence)
        valid = tuple(h for h in handles if h in allowed)
        if valid and text:
            kept.append(CitedSentence(text=text, cites=valid))
        else:
            dropped.append(sentence)
    return CitedAnswerText(sentences=tuple(kept), dropped=tuple(dropped))


def render_answer(answer: CitedAnswerText) -> str:
    return " ".join(f"{s.text} [{', '.join(s.cites)}]" for s in answer.sentences)
