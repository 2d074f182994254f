"""The editable LLM price table (TOML, dollars per million tokens) and cost arithmetic."""

from __future__ import annotations

import tomllib
from fnmatch import fnmatchcase
from importlib import resources
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from graphrag_core.errors import ConfigError


class Price(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    input: float = Field(ge=0, description="Dollars per million prompt tokens.")
    output: float = Field(ge=0, description="Dollars per million completion tokens.")


class PriceTable(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    models: dict[str, Price] = Field(default_factory=dict)

    def price(self, model: str) -> Price | None:
        """The first entry whose key equals or fnmatches ``model`` (case-insensitive)."""
        name = model.casefold()
        for key, price in self.models.items():
            if fnmatchcase(name, key.casefold()):
                return price
        return None

    def cost(self, model: str, prompt_tokens: int, completion_tokens: int) -> float:
        """Dollars; 0 for a model the table does not price (the dry run says so)."""
        price = self.price(model)
        if price is None:
            return 0.0
        return (prompt_tokens * price.input + completion_tokens * price.output) / 1_000_000


def load_prices(path: Path | None = None) -> PriceTable:
    """The table at ``path``, or the one shipped with loregraph."""
    try:
        if path is None:
            text = (resources.files(__package__) / "prices.toml").read_text("utf-8")
        else:
            text = path.read_text("utf-8")
        return PriceTable.model_validate(tomllib.loads(text))
    except (OSError, tomllib.TOMLDecodeError, ValidationError) as exc:
        raise ConfigError(
            f"price table {path or 'prices.toml'} is unusable ({exc}); fix it or unset "
            "LOREGRAPH_LLM__PRICE_TABLE to use the shipped one"
        ) from exc
