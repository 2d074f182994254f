"""The trimming cascade: expansions cut down until their Markdown fits a token budget.

Order (the first step that is still possible is taken, until the text fits):

1. source excerpts, the last item's first, each item's last excerpt first;
2. recent changes, the last item's first, oldest first;
3. facts, the last item's first, from the end;
4. summary lines, the last item's first, from the end;
5. whole items, the last first (its header goes too).

Each step removes one line; the counter counts the whole rendered text (with the note of what
was left out) before each answer, so the result never exceeds the budget whatever the
tokenizer does at line boundaries. Should even the note not fit, it is shortened, then left
out of the Markdown (the ``omitted`` field still lists everything).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence

from graphrag_core.ports import TokenCounter
from ranking.context.markdown import render_expansions, render_line
from ranking.context.models import ContextLine, ExpandResult, Expansion, Omission, Section

CASCADE: tuple[Section, ...] = ("excerpt", "change", "fact", "summary")


def _steps(items: Sequence[Expansion]) -> Iterator[tuple[int, int | None]]:
    """(item index, line index) in cascade order; line None drops the whole item."""
    for section in CASCADE:
        for i in reversed(range(len(items))):
            lines = items[i].lines
            yield from ((i, j) for j in reversed(range(len(lines))) if lines[j].section == section)
    yield from ((i, None) for i in reversed(range(len(items))))


class _Trim:
    def __init__(self, items: Sequence[Expansion]) -> None:
        self.items = list(items)
        self.dropped: set[tuple[int, int | None]] = set()

    def kept(self) -> list[Expansion]:
        out = []
        for i, item in enumerate(self.items):
            if (i, None) in self.dropped:
                continue
            lines = tuple(x for j, x in enumerate(item.lines) if (i, j) not in self.dropped)
            out.append(item.model_copy(update={"lines": lines}))
        return out

    def omitted(self) -> list[Omission]:
        counts: Counter[tuple[str, str]] = Counter()
        for i, j in self.dropped:
            handle = self.items[i].handle
            if j is None:
                counts[(handle, "item")] = 1
            elif (i, None) not in self.dropped:
                counts[(handle, self.items[i].lines[j].section)] += 1
        return [Omission(handle=h, section=s, count=n) for (h, s), n in sorted(counts.items())]

    def render(self, style: str) -> str:
        return render_expansions(self.kept(), self.omitted(), style)


def _cost(line: ContextLine, counter: TokenCounter) -> int:
    return counter.count(render_line(line)) + 1


def fit(items: Sequence[Expansion], budget: int, counter: TokenCounter) -> ExpandResult:
    """``items`` trimmed by the cascade so their Markdown has at most ``budget`` tokens."""
    trim, steps = _Trim(items), list(_steps(items))
    text = trim.render("full")
    tokens = counter.count(text)
    while tokens > budget and steps:
        over = tokens - budget
        while over > 0 and steps:  # drop by estimate, then count exactly
            i, j = steps.pop(0)
            trim.dropped.add((i, j))
            over -= _cost(trim.items[i].lines[j], counter) if j is not None else 4
        text = trim.render("full")
        tokens = counter.count(text)
    for style in ("short", "none"):
        if tokens <= budget:
            break
        text = trim.render(style)
        tokens = counter.count(text)
    return ExpandResult(
        budget=budget,
        tokens=tokens,
        items=tuple(trim.kept()),
        omitted=tuple(trim.omitted()),
        markdown=text,
    )
