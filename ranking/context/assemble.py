"""Preview and context blocks: the pieces put together under their token counts."""

from __future__ import annotations

from collections.abc import Sequence

from graphrag_core.ports import TokenCounter
from ranking.context.budget import fit
from ranking.context.markdown import render_expansion, render_preview
from ranking.context.models import ContextBlock, Expansion, Preview, PreviewItem

CONTEXT_RETRIES = 4
PREVIEW_SHARE = 40
"""At most this percentage of a context budget goes to the preview; the rest to expansions."""


def preview_of(
    question: str,
    campaign: str,
    items: Sequence[PreviewItem],
    counter: TokenCounter,
    *,
    as_player: bool,
    as_of_session: int | None,
) -> Preview:
    markdown = render_preview(question, items)
    return Preview(
        question=question,
        campaign=campaign,
        as_player=as_player,
        as_of_session=as_of_session,
        items=tuple(items),
        tokens=counter.count(markdown),
        markdown=markdown,
    )


def _fitting_preview(
    question: str, items: Sequence[PreviewItem], budget: int, counter: TokenCounter
) -> tuple[list[PreviewItem], str]:
    kept = list(items)
    while kept and counter.count(render_preview(question, kept)) > budget:
        kept.pop()
    return kept, render_preview(question, kept) if kept else ""


def _worth_expanding(
    expansions: Sequence[Expansion], budget: int, counter: TokenCounter
) -> list[Expansion]:
    """The leading expansions whose full cost fits, plus the next one (the cascade trims it
    first)."""
    chosen, spent = [], 0
    for item in expansions:
        chosen.append(item)
        spent += counter.count(render_expansion(item)) + 2
        if spent > budget:
            break
    return chosen


def context_of(
    preview: Preview, expansions: Sequence[Expansion], budget: int, counter: TokenCounter
) -> ContextBlock:
    """The preview (its last items left out beyond ``PREVIEW_SHARE`` % of the budget) and the
    best expansions that fit in what is left, as one block of at most ``budget`` tokens."""
    share = budget if not expansions else budget * PREVIEW_SHARE // 100
    items, head = _fitting_preview(preview.question, preview.items, share, counter)
    room = budget - counter.count(head) - 2
    candidates = _worth_expanding(expansions, max(room, 0), counter)
    for _ in range(CONTEXT_RETRIES):
        fitted = fit(candidates, max(room, 0), counter)
        parts = [p for p in (head, fitted.markdown) if p]
        markdown = "\n\n".join(parts)
        tokens = counter.count(markdown)
        if tokens <= budget:
            break
        room -= tokens - budget
    else:  # the expansions never fitted beside the preview: the preview alone
        fitted, markdown = fit([], 0, counter), head
        tokens = counter.count(markdown)
    return ContextBlock(
        question=preview.question,
        campaign=preview.campaign,
        budget=budget,
        tokens=tokens,
        preview=tuple(items),
        expansions=fitted.items,
        omitted=fitted.omitted,
        markdown=markdown,
    )
