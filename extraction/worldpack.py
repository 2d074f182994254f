"""World packs: YAML files listing entities and their relations.

```yaml
entities:
  - id: tavern-redoak            # optional; default slugify(name)
    name: Red Oak Tavern
    type: Location
    aliases: [the Red Oak, Redoak]
    status: intact
    visibility: party            # or gm
    description: ...
    gm_notes: ...
    attributes: {region: Lowmarch}
    relations:
      - {type: located_in, target: millbrook}     # target: id, name or alias
relations:                       # optional
  - {source: a, type: allied_with, target: b}
```

Relation sources and targets are left as written: resolve them against all entities once every
source is read. Unknown entity types become ``Other`` and unknown relation types ``related_to``,
each with a warning. A status is checked against the type's vocabulary (``extraction.statuses``:
synonyms mapped, anything else ignored, with a warning). ``visibility`` accepts the spellings of
``extraction.visibility`` (``secret``, ``gm-only``, ``public``, …); any other value is an error.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, TypeVar

import yaml
from pydantic import BaseModel, BeforeValidator, ConfigDict, ValidationError

from extraction.frontmatter import yaml_error_reason
from extraction.slugs import slugify
from extraction.taxonomy import entity_type, relation_type
from extraction.visibility import normalise_visibility
from graphrag_core.errors import SourceError
from graphrag_core.input_safety import load_yaml, value_problem
from graphrag_core.models import Attitude, Entity, Relation, SourceDocument, Visibility
from graphrag_core.statuses import read_status
from graphrag_core.taxonomy import DEFAULT_TAXONOMY, Taxonomy


def _as_list(value: Any) -> Any:
    if value is None:
        return []
    return [value] if isinstance(value, str) else value


Names = Annotated[list[str], BeforeValidator(_as_list)]
PackVisibility = Annotated[Visibility, BeforeValidator(normalise_visibility)]
Scalar = str | int | float | bool
M = TypeVar("M", bound=BaseModel)


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PackRelation(_Model):
    type: str
    target: str
    attitude: Attitude | None = None
    visibility: PackVisibility = "party"
    description: str = ""


class PackTopRelation(PackRelation):
    source: str


class PackEntity(_Model):
    id: str | None = None
    name: str
    type: str = "Other"
    aliases: Names = []
    gm_aliases: Names = []
    status: str | None = None
    visibility: PackVisibility = "party"
    description: str = ""
    gm_notes: str = ""
    attributes: dict[str, Scalar | None] = {}
    relations: list[PackRelation] = []


@dataclass
class WorldPack:
    """What one world pack defines; relation ends are unresolved references."""

    entities: list[Entity] = field(default_factory=list)
    relations: list[Relation] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def parse_worldpack(doc: SourceDocument, taxonomy: Taxonomy = DEFAULT_TAXONOMY) -> WorldPack:
    """Validate and convert a world pack; raise ``SourceError`` on the first invalid item.
    Types are mapped onto ``taxonomy``."""
    try:
        data = load_yaml(doc.text)
    except yaml.YAMLError as exc:
        raise SourceError(doc.path, yaml_error_reason(exc)) from exc
    if (problem := value_problem(data)) is not None:
        raise SourceError(doc.path, problem)
    if not isinstance(data, dict) or not isinstance(data.get("entities"), list):
        raise SourceError(doc.path, "not a world pack (no top-level 'entities' list)")
    pack = WorldPack()
    for index, raw in enumerate(data["entities"]):
        _add_entity(pack, doc.path, _validate_item(doc.path, index, raw), taxonomy)
    for index, raw in enumerate(data.get("relations") or []):
        top = _validate(PackTopRelation, raw, doc.path, f"relation #{index + 1}")
        pack.relations.append(_relation(pack, doc.path, top.source, top, taxonomy))
    return pack


def _validate_item(path: str, index: int, raw: Any) -> PackEntity:
    name = raw.get("name") if isinstance(raw, dict) else None
    where = f"entity #{index + 1}" + (f" ({name})" if name else "")
    return _validate(PackEntity, raw, path, where)


def _validate(model: type[M], raw: Any, path: str, where: str) -> M:
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        error = exc.errors()[0]
        location = ".".join(str(part) for part in error["loc"]) or "item"
        raise SourceError(path, f"{where}: field '{location}': {error['msg']}") from exc


def _add_entity(pack: WorldPack, path: str, item: PackEntity, taxonomy: Taxonomy) -> None:
    kind, warning = entity_type(item.type, taxonomy)
    status, status_warning = read_status(item.status, kind, taxonomy)
    for text in (warning, status_warning):
        if text:
            pack.warnings.append(f"{path}: {item.name}: {text}")
    entity_id = (item.id or slugify(item.name)).strip()
    if not entity_id:  # an empty id would merge unrelated entities: an error, never a merge
        raise SourceError(
            path, f"entity {item.name!r}: its id is blank (gives no id); write an 'id:'"
        )
    entity = Entity(
        id=entity_id,
        name=item.name,
        type=kind,
        aliases=tuple(item.aliases),
        gm_aliases=tuple(item.gm_aliases),
        status=status,
        visibility=item.visibility,
        description=item.description.strip(),
        gm_notes=item.gm_notes.strip(),
        attributes={k: str(v) for k, v in item.attributes.items() if v is not None},
        sources=(path,),
    )
    pack.entities.append(entity)
    for rel in item.relations:
        pack.relations.append(_relation(pack, path, entity.id, rel, taxonomy))


def _relation(
    pack: WorldPack, path: str, source: str, rel: PackRelation, taxonomy: Taxonomy
) -> Relation:
    kind, warning = relation_type(rel.type, taxonomy)
    if warning:
        pack.warnings.append(f"{path}: {source} -> {rel.target}: {warning}")
    return Relation(
        source=source,
        target=rel.target,
        type=kind,
        attitude=rel.attitude,
        visibility=rel.visibility,
        description=rel.description.strip(),
        source_path=path,
    )
