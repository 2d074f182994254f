"""loregraph: a knowledge-graph engine with GraphRAG for tabletop role-playing campaigns.

The public API. Models, errors and settings import eagerly; the service and the composition
root import on first use, so that ``import graphrag_core.models`` stays light and the domain
packages (which import the models) never import the service back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from graphrag_core.errors import (
    ChangelogConflictError,
    ChangelogError,
    ChatModelError,
    ConfigError,
    ExtractionError,
    LoregraphError,
    SourceError,
    StoreError,
    StoreUnavailableError,
    UnknownEntityError,
)
from graphrag_core.models import (
    AskResult,
    CampaignView,
    Change,
    Chunk,
    EffectiveState,
    Entity,
    EntityView,
    IngestReport,
    RankedResult,
    Relation,
)
from graphrag_core.settings import Settings, load_settings

if TYPE_CHECKING:
    from graphrag_core.services.service import LoregraphService
    from graphrag_core.wiring import build_service, open_service

__all__ = [
    "AskResult",
    "CampaignView",
    "Change",
    "ChangelogConflictError",
    "ChangelogError",
    "ChatModelError",
    "Chunk",
    "ConfigError",
    "EffectiveState",
    "Entity",
    "EntityView",
    "ExtractionError",
    "IngestReport",
    "LoregraphError",
    "LoregraphService",
    "RankedResult",
    "Relation",
    "Settings",
    "SourceError",
    "StoreError",
    "StoreUnavailableError",
    "UnknownEntityError",
    "build_service",
    "load_settings",
    "open_service",
]

_LAZY = {
    "LoregraphService": "graphrag_core.services.service",
    "build_service": "graphrag_core.wiring",
    "open_service": "graphrag_core.wiring",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from importlib import import_module

        return getattr(import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'graphrag_core' has no attribute {name!r}")
