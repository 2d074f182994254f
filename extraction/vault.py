"""Obsidian-style notes: one note is one entity.

The name is the file stem unless the front matter sets ``name``. Front matter keys:
``id``, ``type``, ``aliases``, ``gm_aliases``, ``status`` (checked against the type's
vocabulary, see ``extraction.statuses``), ``visibility`` (fails closed: anything but a
party-visible spelling makes the note GM-only, see ``extraction.visibility``), ``description``
(else the first paragraph of the player-visible body). A key naming a relation type
(``located_in: "[[Millbrook]]"``, also ``location``, ``faction``, ``ruler``, ``owner``,
``employer``) gives relations to the linked or named targets; prefixed with ``gm_`` they are
GM-only. Other scalar keys become attributes, except ``gm_*`` keys, which go to the GM notes.
Body ``[[links]]`` become ``related_to`` relations, GM-only when they sit in a GM section;
the text of GM sections (see ``extraction.markdown``) becomes ``gm_notes``.

Relation targets are left as written: resolve them once every source is read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from extraction.frontmatter import split_front_matter
from extraction.markdown import Section, sections, strip_links, wiki_links
from extraction.slugs import slugify
from extraction.taxonomy import entity_type
from extraction.visibility import read_visibility
from graphrag_core.errors import SourceError
from graphrag_core.models import Entity, Relation, SourceDocument, Visibility
from graphrag_core.statuses import read_status
from graphrag_core.taxonomy import DEFAULT_TAXONOMY, Taxonomy

_CORE_KEYS = frozenset(
    {"name", "id", "type", "aliases", "alias", "gm_aliases", "status", "visibility", "description"}
)
_RELATION_KEYS = {
    "location": "located_in", "faction": "member_of", "factions": "member_of",
    "ruler": "ruled_by", "owner": "owned_by", "employer": "works_for", "deity": "worships",
}  # fmt: skip
_FOLDER_TYPES = {
    "npcs": "NPC", "people": "NPC", "characters": "NPC", "pcs": "PC", "locations": "Location",
    "places": "Location", "factions": "Faction", "organisations": "Faction", "items": "Item",
    "deities": "Deity", "gods": "Deity", "creatures": "Creature", "monsters": "Creature",
    "events": "Event", "quests": "Quest",
}  # fmt: skip


@dataclass
class VaultNote:
    """What one note defines; relation targets are unresolved references."""

    entity: Entity
    relations: list[Relation] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def note_name(doc: SourceDocument, front: dict[str, Any]) -> str:
    return str(front.get("name") or PurePosixPath(doc.path).stem).strip()


def note_entity_id(doc: SourceDocument) -> str:
    """The id of the entity a note defines."""
    front, _ = split_front_matter(doc.text, doc.path)
    entity_id = str(front.get("id") or slugify(note_name(doc, front))).strip()
    if not entity_id:  # an empty id would merge unrelated notes: an error, never a merge
        raise SourceError(
            doc.path, f"the note {note_name(doc, front)!r} gives no id (a blank 'id:'); fix it"
        )
    return entity_id


def parse_note(doc: SourceDocument, taxonomy: Taxonomy = DEFAULT_TAXONOMY) -> VaultNote:
    """The note's entity and relations, typed against ``taxonomy``."""
    front, body = split_front_matter(doc.text, doc.path)
    found = sections(doc.text, body)
    visibility, visibility_warning = read_visibility(front.get("visibility"))
    secret = visibility == "gm"
    kind, warning = _note_type(doc.path, front, taxonomy)
    status, status_warning = read_status(front.get("status"), kind, taxonomy)
    name = note_name(doc, front)
    warnings = [f"{doc.path}: {warning}"] if warning else []
    warnings += [f"{doc.path}: {name}: {w}" for w in (visibility_warning, status_warning) if w]
    entity = Entity(
        id=note_entity_id(doc),
        name=name,
        type=kind,
        aliases=_names(front.get("aliases", front.get("alias"))),
        gm_aliases=_names(front.get("gm_aliases")),
        status=status,
        visibility=visibility,
        description=str(front.get("description") or _first_paragraph(doc.text, found)).strip(),
        gm_notes=_gm_notes(doc.text, found, front, taxonomy),
        attributes=_attributes(front, taxonomy),
        sources=(doc.path,),
    )
    relations = _front_relations(doc.path, entity.id, front, secret, taxonomy)
    relations += _body_relations(doc, entity.id, found, secret)
    return VaultNote(entity, relations, warnings)


def _note_type(path: str, front: dict[str, Any], taxonomy: Taxonomy) -> tuple[str, str | None]:
    if front.get("type"):
        return entity_type(str(front["type"]), taxonomy)
    folders = {**_FOLDER_TYPES, **{f"{k.casefold()}s": k for k in taxonomy.entity_types}}
    for folder in reversed(PurePosixPath(path).parts[:-1]):
        if folder.casefold() in folders:
            return folders[folder.casefold()], None
    return "Other", None


def _names(value: Any) -> tuple[str, ...]:
    values = value if isinstance(value, list) else [] if value is None else [value]
    return tuple(str(v).strip() for v in values if str(v).strip())


def _first_paragraph(text: str, found: list[Section]) -> str:
    for section in found:
        if section.gm:
            continue
        for block in text[section.heading_end : section.end].split("\n\n"):
            lines = [line for line in block.strip().splitlines() if not line.startswith("#")]
            if lines:
                return strip_links(" ".join(line.strip() for line in lines))
    return ""


def _gm_notes(text: str, found: list[Section], front: dict[str, Any], taxonomy: Taxonomy) -> str:
    parts = [text[s.heading_end : s.end].strip() for s in found if s.gm]
    parts += [
        f"{k[3:]}: {v}"
        for k, v in front.items()
        if k.startswith("gm_") and _is_note_key(k, taxonomy)
    ]
    return strip_links("\n\n".join(part for part in parts if part))


def _is_note_key(key: str, taxonomy: Taxonomy) -> bool:
    return key != "gm_aliases" and _relation_key(key[3:], taxonomy) is None


def _relation_key(key: str, taxonomy: Taxonomy) -> str | None:
    normal = key.strip().casefold()
    return normal if normal in taxonomy.relation_types else _RELATION_KEYS.get(normal)


def _attributes(front: dict[str, Any], taxonomy: Taxonomy) -> dict[str, str]:
    attributes: dict[str, str] = {}
    for key, value in front.items():
        if (
            key in _CORE_KEYS
            or key.startswith("gm_")
            or _relation_key(key, taxonomy)
            or value is None
        ):
            continue
        if isinstance(value, list) and all(not isinstance(v, dict | list) for v in value):
            attributes[key] = ", ".join(strip_links(str(v)) for v in value)
        elif not isinstance(value, dict | list):
            attributes[key] = strip_links(str(value))
    return attributes


def _front_relations(
    path: str, entity_id: str, front: dict[str, Any], secret: bool, taxonomy: Taxonomy
) -> list[Relation]:
    relations: list[Relation] = []
    for key, value in front.items():
        gm = key.startswith("gm_")
        kind = _relation_key(key[3:] if gm else key, taxonomy)
        if kind is None and (key in _CORE_KEYS or gm):
            continue
        visibility: Visibility = "gm" if gm or secret else "party"
        for target in _targets(value, linked_only=kind is None):
            relations.append(
                Relation(
                    source=entity_id,
                    target=target,
                    type=kind or "related_to",
                    visibility=visibility,
                    source_path=path,
                )
            )
    return relations


def _targets(value: Any, *, linked_only: bool) -> list[str]:
    """Link targets in a front matter value; plain names too unless ``linked_only``."""
    values = value if isinstance(value, list) else [value]
    targets: list[str] = []
    for item in values:
        if isinstance(item, dict | list) or item is None:
            continue
        links = wiki_links(str(item))
        if links:
            targets += [link.target for link in links]
        elif not linked_only and str(item).strip():
            targets.append(str(item).strip())
    return targets


def _body_relations(
    doc: SourceDocument, entity_id: str, found: list[Section], secret: bool
) -> list[Relation]:
    best: dict[str, Visibility] = {}
    for section in found:
        visibility: Visibility = "gm" if secret or section.gm else "party"
        for link in wiki_links(doc.text, section.start, section.end):
            if best.get(link.target) != "party":
                best[link.target] = visibility
    return [
        Relation(
            source=entity_id,
            target=target,
            type="related_to",
            visibility=visibility,
            source_path=doc.path,
        )
        for target, visibility in best.items()
    ]
