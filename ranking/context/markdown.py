"""The Markdown an agent pastes into a prompt; token costs are counted on exactly this text."""

from __future__ import annotations

from collections.abc import Sequence

from ranking.context.models import ContextLine, Expansion, Omission, PreviewItem

NoteStyle = str  # "full", "short" or "none"
_NOUNS = {"summary": "summary lines", "fact": "facts", "change": "changes", "excerpt": "excerpts"}


def cites_text(cites: Sequence[str]) -> str:
    return f" [{', '.join(cites)}]" if cites else ""


def render_line(line: ContextLine) -> str:
    return f"- {line.text}{cites_text(line.cites)}"


def render_header(expansion: Expansion) -> str:
    return f"### {expansion.handle} · {expansion.name} ({expansion.type}) · {expansion.header}"


def render_expansion(expansion: Expansion) -> str:
    return "\n".join([render_header(expansion), *(render_line(x) for x in expansion.lines)])


def render_omitted(omitted: Sequence[Omission], style: NoteStyle = "full") -> str:
    """What the cascade left out, in one line (``short``: just how much; ``none``: nothing)."""
    if not omitted or style == "none":
        return ""
    if style == "short":
        return f"_Left out {sum(o.count for o in omitted)} parts to fit the budget._"
    parts = [
        f"{o.handle} (whole)"
        if o.section == "item"
        else f"{o.count} {_NOUNS[o.section]} of {o.handle}"
        for o in omitted
    ]
    return f"_Left out to fit the budget: {', '.join(parts)}._"


def render_expansions(
    expansions: Sequence[Expansion], omitted: Sequence[Omission], style: NoteStyle = "full"
) -> str:
    blocks = [render_expansion(e) for e in expansions]
    note = render_omitted(omitted, style)
    return "\n\n".join([*blocks, note] if note else blocks)


def render_preview_item(item: PreviewItem) -> str:
    status = ""
    if item.status or not item.available:
        mark = "✓" if item.available else "✗"
        status = f" · {mark} {item.status or ''}".rstrip()
        if item.status_note:
            status += f" ({item.status_note})"
    relations = f" · {'; '.join(item.relations)}" if item.relations else ""
    return (
        f"- {item.handle} · {item.name} ({item.type}){status} — {item.gist}{relations}"
        f" · expand: {item.expand_tokens} tokens"
    )


def render_preview(question: str, items: Sequence[PreviewItem]) -> str:
    head = f"## Preview: {question}\n✓ available now, ✗ unavailable (dead, destroyed, hostile…)"
    return "\n".join([head, *(render_preview_item(i) for i in items)])
