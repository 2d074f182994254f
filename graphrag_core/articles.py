"""Names written with a foreign article: "il Magnifico", "lo Zoppo", "el Chapo", "l'Orbo".

The prose and the players write "the Magnifico" of the man the name list calls "il
Magnifico", as they write "the Hawk" of "the Hawk": a name or alias that opens with a
lower-case article of another language is also known without it. A capitalised article is part
of a proper name ("La Paz", "El Paso", "Los Angeles") and stays.
"""

from __future__ import annotations

FOREIGN_ARTICLES = frozenset(
    ("il", "lo", "la", "le", "les", "el", "los", "las", "gli", "der", "die", "das")
)  # fmt: skip
"""Lower-case articles of Italian, Spanish, French, Portuguese and German."""

_ELIDED = ("l'", "l’")


def without_article(name: str) -> str | None:
    """``name`` without its lower-case foreign article ("il Magnifico" → "Magnifico", "l'Orbo"
    → "Orbo"), or ``None`` when it opens with none, or with no capitalised word after it."""
    text = name.strip()
    for elided in _ELIDED:
        if text.startswith(elided) and text[len(elided) : len(elided) + 1].isupper():
            return text[len(elided) :]
    first, _, rest = text.partition(" ")
    rest = rest.strip()
    return rest if first in FOREIGN_ARTICLES and rest[:1].isupper() else None
