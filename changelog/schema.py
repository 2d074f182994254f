"""The input shape of a session change set, as session-recap jobs write it (JSON or YAML).

Keys an update does not declare (``destroyed_by``, ``killed_by``, ``note``, …) are kept as the
change's details, unless they are a near miss of a declared key (``visiblity``, ``stauts``,
``entitiy_id``, ``propertes``) or a word like ``secret``/``hidden`` that means ``visibility``:
those are errors naming the key and the key meant.

``parse_changeset`` turns text into a validated ``ChangeSetInput``; every failure becomes one
``ChangelogError`` whose message names the file, the path of each bad field
(``entity_updates[2].status``), what was wrong and what to do. Entity references are not
resolved here: that needs the campaign's graph (see ``changelog.normalise``).
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any, Self

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator
from rapidfuzz import process
from rapidfuzz.distance import DamerauLevenshtein

from graphrag_core.errors import ChangelogError
from graphrag_core.input_safety import MAX_UPDATES, load_yaml, value_problem
from graphrag_core.models import Visibility

__all__ = ["ChangeSetInput", "EntityUpdateInput", "RelationshipUpdateInput", "parse_changeset"]

_TOP_LEVEL_KEYS = (
    "session_id",
    "title",
    "date",
    "visibility",
    "entity_updates",
    "relationship_updates",
)


_NEAR_MISS = 0.8
"""Damerau-Levenshtein similarity from which an extra key counts as a misspelt declared key
(``visiblity``, ``stauts``, ``entitiy_id``, ``propertes``)."""
_VISIBILITY_WORDS = frozenset(
    {"secret", "hidden", "gm", "gm_only", "gm-only", "private", "visible", "public", "party"}
)
"""Extra keys that try to say who may see a change: only ``visibility`` does."""


class _Update(BaseModel):
    """Any key not declared is kept, and becomes the change's ``details`` — except a near miss
    of a declared key, which is an error: a misspelt ``visibility`` would publish a secret."""

    model_config = ConfigDict(extra="allow", frozen=True, populate_by_name=True)

    visibility: Visibility | None = Field(default=None, description="Overrides the set default.")

    @property
    def details(self) -> dict[str, Any]:
        return dict(self.model_extra or {})

    @model_validator(mode="after")
    def _no_misspelt_keys(self) -> Self:
        declared = _declared_keys(type(self))
        for key in self.model_extra or {}:
            meant = _meant_key(key, declared)
            if meant is not None:
                raise ValueError(
                    f"key {key!r} looks like a misspelt {meant!r}; fix the spelling (other "
                    "extra keys, such as destroyed_by or note, are kept as the change's details)"
                )
        return self


def _declared_keys(model: type[BaseModel]) -> list[str]:
    return [info.alias or name for name, info in model.model_fields.items()]


def _meant_key(key: str, declared: list[str]) -> str | None:
    """The declared key ``key`` is a near miss of, if any."""
    normal = key.strip().casefold()
    if normal in _VISIBILITY_WORDS:
        return "visibility"
    found = process.extractOne(
        normal,
        declared,
        scorer=DamerauLevenshtein.normalized_similarity,
        score_cutoff=_NEAR_MISS,
    )
    return None if found is None or found[0] == key else str(found[0])


class EntityUpdateInput(_Update):
    """A status and/or property update of one entity."""

    entity_id: str = Field(min_length=1, description="Canonical id, name or alias.")
    entity_type: str | None = Field(default=None, description="Checked against the entity.")
    status: str | None = Field(default=None, min_length=1, description="New status.")
    properties: dict[str, str] = Field(default_factory=dict, description="Properties to set.")

    @field_validator("status")
    @classmethod
    def _lower_status(cls, value: str | None) -> str | None:
        return value.strip().lower() if value is not None else None

    @field_validator("properties", mode="before")
    @classmethod
    def _stringify(cls, value: Any) -> Any:
        if not isinstance(value, dict):
            return value
        return {str(key): _scalar_text(str(key), item) for key, item in value.items()}

    @model_validator(mode="after")
    def _has_effect(self) -> EntityUpdateInput:
        if self.status is None and not self.properties:
            raise ValueError("an entity update needs a 'status' or 'properties'; add one")
        return self


class RelationshipUpdateInput(_Update):
    """A change of attitude between two entities (or an entity and the party)."""

    from_: str = Field(alias="from", min_length=1, description="Id, name, alias or 'party'.")
    to: str = Field(min_length=1, description="Id, name, alias or 'party'.")
    type: str | None = Field(default=None, description="Relation type; default 'attitude'.")
    old_status: str | None = Field(default=None, description="Attitude before the change.")
    new_status: str = Field(min_length=1, description="Attitude after: allied|neutral|hostile.")

    @field_validator("old_status", "new_status")
    @classmethod
    def _lower(cls, value: str | None) -> str | None:
        return value.strip().lower() if value is not None else None


class ChangeSetInput(BaseModel):
    """One session's change set, validated but not yet resolved against the graph."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    session_id: int = Field(ge=0, description="The session number.")
    title: str = ""
    date: str = ""
    visibility: Visibility = Field(default="party", description="Default for every update.")
    entity_updates: tuple[EntityUpdateInput, ...] = ()
    relationship_updates: tuple[RelationshipUpdateInput, ...] = ()

    @field_validator("session_id", mode="before")
    @classmethod
    def _no_bool(cls, value: Any) -> Any:
        if isinstance(value, bool):
            raise ValueError("must be a whole number, not true/false")
        return value

    @model_validator(mode="after")
    def _not_empty(self) -> ChangeSetInput:
        if not self.entity_updates and not self.relationship_updates:
            raise ValueError("the change set has no 'entity_updates' or 'relationship_updates'")
        return self


def parse_changeset(text: str, *, filename: str) -> ChangeSetInput:
    """Parse JSON (``.json`` files, or text that parses as JSON) or else YAML, and validate."""
    if (bad := value_problem(text, max_string=len(text))) is not None:
        raise ChangelogError(
            f"{filename}: the file {bad.removeprefix('holds ')}; nothing was posted"
        )
    return validate_changeset(_load(text, filename), filename=filename)


def validate_changeset(data: Any, *, filename: str) -> ChangeSetInput:
    """Validate a change set already parsed (a JSON body, a dict); ``filename`` names it in
    errors. Its characters, nesting, string lengths and update count are checked first."""
    if (problem := value_problem(data)) is not None:
        raise ChangelogError(f"{filename}: {problem}; nothing was posted")
    data = _jsonable(data)
    if not isinstance(data, dict):
        kind = "nothing" if data is None else type(data).__name__
        raise ChangelogError(
            f"{filename}: the top level must be a mapping with 'session_id' and updates, "
            f"got {kind}; write it as 'session_id: 12' followed by 'entity_updates:'"
        )
    updates = sum(
        len(data.get(key) or ()) if isinstance(data.get(key), list) else 0
        for key in ("entity_updates", "relationship_updates")
    )
    if updates > MAX_UPDATES:
        raise ChangelogError(
            f"{filename}: {updates:,} updates; the limit is {MAX_UPDATES:,} per change set. "
            "Split it into several sessions' change sets; nothing was posted"
        )
    try:
        return ChangeSetInput.model_validate(data)
    except ValidationError as exc:
        raise ChangelogError(_describe(exc, filename)) from None


def _load(text: str, filename: str) -> Any:
    try:
        return _parse(text, filename)
    except RecursionError:
        raise ChangelogError(f"{filename}: nested too deeply; nothing was posted") from None


def _parse(text: str, filename: str) -> Any:
    if filename.lower().endswith(".json"):
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise ChangelogError(
                f"{filename}: invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}; "
                "fix the syntax there"
            ) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        pass
    try:
        return load_yaml(text)
    except yaml.YAMLError as exc:
        raise ChangelogError(
            f"{filename}: invalid YAML{_yaml_where(exc)}; fix the syntax there"
        ) from None


def _yaml_where(exc: yaml.YAMLError) -> str:
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    if mark is None:
        return f": {problem}"
    return f" at line {mark.line + 1}, column {mark.column + 1}: {problem}"


def _jsonable(value: Any) -> Any:
    """YAML dates become ISO text and keys become text, so the input is plain JSON data."""
    if isinstance(value, dict):
        return {str(key): _jsonable(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(item) for item in value]
    if isinstance(value, dt.date | dt.datetime | dt.time):
        return value.isoformat()
    return value


def _clip(text: str, limit: int = 80) -> str:
    """``text`` cut to ``limit`` characters, so an error never echoes a huge input."""
    return text if len(text) <= limit else f"{text[: limit - 1]}… ({len(text):,} characters)"


def _scalar_text(key: str, value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str | int | float):
        return str(value)
    kind = "nothing" if value is None else type(value).__name__
    raise ValueError(f"property {key!r} must be text, a number or true/false, got {kind}")


def _describe(exc: ValidationError, filename: str) -> str:
    lines = [f"{filename}: {len(exc.errors())} problem(s) in the change set:"]
    for error in exc.errors():
        lines.append(f"  {_path(error['loc'])}: {_message(error)}")
    return "\n".join(lines)


def _path(loc: tuple[int | str, ...]) -> str:
    text = ""
    for part in loc:
        name = _clip(str(part), 40)
        text += f"[{part}]" if isinstance(part, int) else (f".{name}" if text else name)
    return text or "(top level)"


def _message(error: Any) -> str:
    kind = error["type"]
    if kind == "missing":
        return "is required; add it"
    if kind == "extra_forbidden":
        return f"is not a known key; use one of {', '.join(_TOP_LEVEL_KEYS)}"
    message = str(error["msg"]).removeprefix("Value error, ")
    if kind == "literal_error":
        return f"{message}; got {_clip(repr(error['input']))}"
    return message
