"""Settings, read once at the edge: ``LOREGRAPH_*`` environment variables, then a TOML project
file (the nearest ``loregraph.toml`` in the working directory or a folder above it, or the file
given to ``--config`` / ``LOREGRAPH_CONFIG``), then defaults. Library code receives the typed
sections below and never reads the environment. A bad setting (unknown key, bad value, missing or
malformed file) is a ``ConfigError`` naming the key or variable and what to do.

The data dir, first that applies: ``--data-dir`` (an explicit ``data_dir`` argument), then
``LOREGRAPH_DATA_DIR``, then ``data_dir`` of the project file (relative to that file), then a
legacy ``.loregraph`` in the working directory or above (used, with a notice saying how to keep
it: ``loregraph where --init``), then the per-user data dir (``platformdirs``:
``~/.local/share/loregraph`` on Linux). It never depends on the working directory alone."""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import platformdirs
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

PROJECT_FILE = "loregraph.toml"
DEFAULT_CONFIG_FILE = Path(PROJECT_FILE)
LEGACY_DATA_DIR = DEFAULT_DATA_DIR
"""``.loregraph``: where the store was before the per-user default (found by walking up)."""


def user_data_dir() -> Path:
    """The per-user data dir: ``$XDG_DATA_HOME/loregraph`` (``~/.local/share/loregraph``) on
    Linux, the platform's equivalent elsewhere."""
    return Path(platformdirs.user_data_dir("loregraph", appauthor=False))


def find_project_file(start: Path) -> Path | None:
    """The nearest ``loregraph.toml`` in ``start`` or a folder above it."""
    for folder in (start, *start.parents):
        if (folder / PROJECT_FILE).is_file():
            return folder / PROJECT_FILE
    return None


def find_legacy_store(start: Path) -> Path | None:
    """The nearest existing ``.loregraph`` folder in ``start`` or a folder above it."""
    for folder in (start, *start.parents):
        if (folder / LEGACY_DATA_DIR).is_dir():
            return folder / LEGACY_DATA_DIR
    return None


@dataclass(frozen=True)
class Placement:
    """Why the data dir is what it is: ``source`` is ``flag``, ``env``, ``project``,
    ``legacy`` or ``user``; ``project_file`` the project file read (if any); ``notice`` a
    line to print on stderr (the legacy store), else empty."""

    source: str = ""
    origin: str = ""
    project_file: Path | None = None
    notice: str = ""


class Settings(BaseSettings):
    """All settings. Environment names: ``LOREGRAPH_<FIELD>``; nested sections use ``__``
    (``LOREGRAPH_RANKING__INACTIVE_FACTOR=0.2``)."""

    model_config = SettingsConfigDict(
        env_prefix="LOREGRAPH_",
        env_nested_delimiter="__",
        extra="forbid",
        toml_file=None,
        populate_by_name=True,
    )

    _placement: Placement = PrivateAttr(default=Placement())

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
        """Why ``data_dir`` is what it is (the flag, a variable, the project file, a legacy
        ``.loregraph`` found by walking up, the per-user default); empty for settings not made
        by ``load_settings``."""
        return self._placement.origin

    @property
    def placement(self) -> Placement:
        """Where the data dir came from, the project file read, and the notice to show."""
        return self._placement

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
    """Read settings once; ``config_file`` replaces the project file found by walking up from
    the working directory. Raises ``ConfigError`` with one line per problem: which key or
    variable, what is wrong with it and what to do."""
    if config_file is not None and not config_file.is_file():
        raise ConfigError(
            f"config file {config_file} does not exist; pass an existing TOML file to "
            "--config, or leave it out to use the nearest loregraph.toml and LOREGRAPH_* "
            "variables"
        )
    toml_file = config_file or find_project_file(Path.cwd())
    try:
        if toml_file is not None:

            class _FileSettings(Settings):
                model_config = SettingsConfigDict(toml_file=toml_file)

            settings: Settings = _FileSettings(**overrides)  # type: ignore[arg-type]
        else:
            settings = Settings(**overrides)  # type: ignore[arg-type]
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{toml_file}: invalid TOML ({exc}); fix the syntax there") from None
    except ValidationError as exc:
        raise ConfigError(_describe(exc, toml_file or DEFAULT_CONFIG_FILE)) from None
    except SettingsError as exc:
        raise ConfigError(f"{exc}; fix or unset that LOREGRAPH_* variable") from None
    return _placed(settings, toml_file, explicit="data_dir" in overrides)


def _placed(settings: Settings, toml_file: Path | None, *, explicit: bool) -> Settings:
    """The data dir by precedence (flag, variable, project file, legacy ``.loregraph``,
    per-user default), recorded with why (``placement``, shown by ``loregraph where``)."""
    here = Path.cwd()
    if explicit:
        placement = Placement("flag", "set by --data-dir", toml_file)
    elif "LOREGRAPH_DATA_DIR" in os.environ:
        placement = Placement("env", "set by LOREGRAPH_DATA_DIR", toml_file)
    elif "data_dir" in settings.model_fields_set and toml_file is not None:
        folder = toml_file.resolve().parent
        settings = settings.model_copy(update={"data_dir": folder / settings.data_dir.expanduser()})
        placement = Placement("project", f"set by data_dir in {toml_file.resolve()}", toml_file)
    elif (legacy := find_legacy_store(here)) is not None:
        settings = settings.model_copy(update={"data_dir": legacy})
        where = "the working directory" if legacy.parent == here else "a parent folder"
        origin = f"a legacy .loregraph found in {where} (no data_dir in a loregraph.toml)"
        notice = (
            f"note: using the existing store {legacy.resolve()} (a .loregraph found in {where}); "
            "run `loregraph where --init` to keep it for this project (it writes data_dir to "
            f"{(toml_file or legacy.parent / PROJECT_FILE).resolve()}); otherwise commands "
            f"run outside {legacy.parent.resolve()} use the per-user store {user_data_dir()}"
        )
        placement = Placement("legacy", origin, toml_file, notice)
    else:
        settings = settings.model_copy(update={"data_dir": user_data_dir()})
        origin = "the per-user default (no --data-dir, LOREGRAPH_DATA_DIR or loregraph.toml)"
        placement = Placement("user", origin, toml_file)
    settings._placement = placement
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
