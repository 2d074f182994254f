"""Settings, read once at the edge: ``LOREGRAPH_*`` environment variables, then a TOML config
file (``loregraph.toml`` in the working directory, or the file given to ``--config`` /
``LOREGRAPH_CONFIG``), then defaults. Library code receives the typed sections below and never
reads the environment. A bad setting (unknown key, bad value, missing or malformed file) is a
``ConfigError`` naming the key or variable and what to do."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

from pydantic import AliasChoices, BaseModel, Field, PrivateAttr, SecretStr, ValidationError
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    SettingsError,
    TomlConfigSettingsSource,
)

from graphrag_core.config import (
    DEFAULT_DATA_DIR,
    AnalyticsSettings,
    EmbeddingSettings,
    IngestSettings,
    LlmSettings,
    RankingSettings,
    StoreKind,
    StoreSettings,
)
from graphrag_core.errors import ConfigError

DEFAULT_CONFIG_FILE = Path("loregraph.toml")


class Settings(BaseSettings):
    """All settings. Environment names: ``LOREGRAPH_<FIELD>``; nested sections use ``__``
    (``LOREGRAPH_RANKING__INACTIVE_FACTOR=0.2``)."""

    model_config = SettingsConfigDict(
        env_prefix="LOREGRAPH_",
        env_nested_delimiter="__",
        extra="forbid",
        toml_file=DEFAULT_CONFIG_FILE,
        populate_by_name=True,
    )

    _data_dir_origin: str = PrivateAttr(default="")

    campaign: str = "default"
    store: StoreKind = "falkordb-embedded"
    data_dir: Path = DEFAULT_DATA_DIR
    graph_name: str = "loregraph"
    falkordb_url: str | None = None
    neo4j_uri: str | None = None
    neo4j_user: str = "neo4j"
    neo4j_password: str | None = None
    neo4j_database: str = "neo4j"
    startup_timeout_s: float = Field(
        default=20.0, gt=0, description="How long to wait for the embedded server to answer."
    )
    embedding: EmbeddingSettings = EmbeddingSettings()
    ranking: RankingSettings = RankingSettings()
    ingest: IngestSettings = IngestSettings()
    analytics: AnalyticsSettings = AnalyticsSettings()

    llm_model: str | None = None
    llm_base_url: str | None = None
    llm_api_key: SecretStr | None = Field(
        default=None,
        validation_alias=AliasChoices("LOREGRAPH_LLM_API_KEY", "OPENAI_API_KEY", "llm_api_key"),
    )
    llm: LlmSettings = LlmSettings()

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (init_settings, env_settings, TomlConfigSettingsSource(settings_cls))

    @property
    def data_dir_origin(self) -> str:
        """Why ``data_dir`` is what it is (a variable, the config file, found by walking up,
        the default); empty for settings not made by ``load_settings``."""
        return self._data_dir_origin

    def store_section(self) -> StoreSettings:
        return StoreSettings(
            kind=self.store,
            data_dir=self.data_dir,
            graph_name=self.graph_name,
            falkordb_url=self.falkordb_url,
            neo4j_uri=self.neo4j_uri,
            neo4j_user=self.neo4j_user,
            neo4j_password=self.neo4j_password,
            neo4j_database=self.neo4j_database,
            startup_timeout_s=self.startup_timeout_s,
        )

    def llm_section(self) -> LlmSettings:
        """The LLM section with the flat ``LOREGRAPH_LLM_*`` / ``OPENAI_API_KEY`` values
        filled in (they win over the section's own)."""
        return self.llm.model_copy(
            update={
                "model": self.llm_model or self.llm.model,
                "base_url": self.llm_base_url or self.llm.base_url,
                "api_key": self.llm_api_key or self.llm.api_key,
            }
        )


def load_settings(config_file: Path | None = None, **overrides: object) -> Settings:
    """Read settings once; ``config_file`` replaces the default TOML file. Raises
    ``ConfigError`` with one line per problem: which key or variable, what is wrong with it
    and what to do."""
    if config_file is not None and not config_file.is_file():
        raise ConfigError(
            f"config file {config_file} does not exist; pass an existing TOML file to "
            "--config, or leave it out to use ./loregraph.toml and LOREGRAPH_* variables"
        )
    toml_file = config_file or DEFAULT_CONFIG_FILE
    try:
        if config_file is not None:

            class _FileSettings(Settings):
                model_config = SettingsConfigDict(toml_file=config_file)

            return _placed(_FileSettings(**overrides))  # type: ignore[arg-type]
        return _placed(Settings(**overrides))  # type: ignore[arg-type]
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{toml_file}: invalid TOML ({exc}); fix the syntax there") from None
    except ValidationError as exc:
        raise ConfigError(_describe(exc, toml_file)) from None
    except SettingsError as exc:
        raise ConfigError(f"{exc}; fix or unset that LOREGRAPH_* variable") from None


def _placed(settings: Settings) -> Settings:
    """With the data dir left at its default (no variable, no config file setting it), the
    nearest existing ``.loregraph`` in the working directory or a folder above it: a command
    run from a subfolder uses the project's store, not a new, empty one. Records why the data
    dir is what it is (``data_dir_origin``, shown by ``loregraph where``)."""
    if "LOREGRAPH_DATA_DIR" in os.environ:
        origin = "set by LOREGRAPH_DATA_DIR"
    elif "data_dir" in settings.model_fields_set:
        origin = "set by the config file"
    else:
        origin = f"the default: {settings.data_dir} in the working directory"
        here = Path.cwd()
        for folder in (here, *here.parents):
            if (folder / settings.data_dir).is_dir():
                where = "the working directory" if folder == here else "a parent folder"
                origin = f"found in {where} (the nearest existing {settings.data_dir})"
                settings = settings.model_copy(update={"data_dir": folder / settings.data_dir})
                break
    settings._data_dir_origin = origin
    return settings


def _describe(exc: ValidationError, toml_file: Path) -> str:
    return "\n".join(_problem(error, toml_file) for error in exc.errors())


def _problem(error: Any, toml_file: Path) -> str:
    """One line naming where a bad setting came from (a variable or the file), and why."""
    loc = [str(part) for part in error["loc"]]
    variable = "LOREGRAPH_" + "__".join(loc).upper()
    if error["type"] == "extra_forbidden":
        where = f"{variable}" if variable in os.environ else f"{toml_file}: key {'.'.join(loc)!r}"
        known = ", ".join(_known_keys(loc[:-1]))
        return f"{where} is not a setting; remove it or use one of: {known}"
    if variable in os.environ:
        where = f"{variable}={os.environ[variable]!r}"
        fix = "fix or unset that variable"
    else:
        where = f"{toml_file}: {'.'.join(loc)} = {error.get('input')!r}"
        fix = "fix that value"
    return f"{where}: {error['msg']}; {fix}"


def _known_keys(section: list[str]) -> list[str]:
    model: type[BaseModel] = Settings
    for name in section:
        annotation = model.model_fields[name].annotation if name in model.model_fields else None
        if not (isinstance(annotation, type) and issubclass(annotation, BaseModel)):
            return []
        model = annotation
    return sorted(model.model_fields)
