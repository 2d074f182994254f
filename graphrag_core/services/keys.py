"""API keys for the HTTP API: who may do what, in which campaign.

A key is scoped to one campaign and one role (``gm``: everything in its campaign; ``player``:
player-facing reads only, as ``--as-player``; ``recap``: post and list change sets). The secret
is shown once, at creation; the key file (``<data_dir>/api-keys.json``, written atomically,
mode 0600) holds only a per-key salt and the HMAC-SHA256 of the secret under it. A key reads
``lg_<id>_<secret>``: the id finds the record, the secret is checked in constant time."""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import tempfile
from datetime import datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from graphrag_core.errors import ConfigError, RequestError
from graphrag_core.services.llm_use_cases import check_campaign

Role = Literal["gm", "player", "recap"]
ROLES: tuple[Role, ...] = ("gm", "player", "recap")
KEY_FILE = "api-keys.json"
_PREFIX = "lg"


class ApiKey(BaseModel):
    """One stored key: never the secret, only its salted HMAC."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(description="Public id, the part of the key after 'lg_'.")
    campaign: str
    role: Role
    created_at: str
    label: str = ""
    salt: str = Field(description="Hex salt of the HMAC.")
    digest: str = Field(description="Hex HMAC-SHA256 of the secret under the salt.")


class _KeyFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    keys: list[ApiKey] = []


def key_file(data_dir: Path) -> Path:
    return data_dir / KEY_FILE


def _digest(salt: str, secret: str) -> str:
    return hmac.new(bytes.fromhex(salt), secret.encode(), hashlib.sha256).hexdigest()


def read_keys(data_dir: Path) -> list[ApiKey]:
    """The stored keys; none when the file does not exist."""
    path = key_file(data_dir)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the API keys: {exc}") from exc
    try:
        return _KeyFile.model_validate_json(text).keys
    except ValidationError as exc:
        raise ConfigError(
            f"{path}: the API key file is damaged ({exc.error_count()} error(s)); restore it "
            "or delete it and create the keys again"
        ) from None


def _write_keys(data_dir: Path, keys: list[ApiKey]) -> None:
    data_dir.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=data_dir, prefix=".tmp-keys-", suffix=".json")
    os.fchmod(fd, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(_KeyFile(keys=keys).model_dump_json(indent=2))
    Path(tmp).replace(key_file(data_dir))


def create_key(
    data_dir: Path, campaign: str, role: Role, now: datetime, label: str = ""
) -> tuple[ApiKey, str]:
    """Store a new key; returns its record and the full key, which is never stored."""
    check_campaign(campaign)
    if role not in ROLES:
        raise RequestError(f"role {role!r} is not one of: {', '.join(ROLES)}")
    key_id, secret, salt = secrets.token_hex(6), secrets.token_urlsafe(24), secrets.token_hex(16)
    record = ApiKey(
        id=key_id,
        campaign=campaign,
        role=role,
        created_at=now.isoformat(),
        label=label,
        salt=salt,
        digest=_digest(salt, secret),
    )
    _write_keys(data_dir, [*read_keys(data_dir), record])
    return record, f"{_PREFIX}_{key_id}_{secret}"


def revoke_key(data_dir: Path, key_id: str) -> ApiKey:
    """Remove the key ``key_id``; the removed record is returned."""
    keys = read_keys(data_dir)
    match = [k for k in keys if k.id == key_id]
    if not match:
        known = ", ".join(k.id for k in keys) or "none"
        raise RequestError(f"no API key with id {key_id!r} (keys: {known})")
    _write_keys(data_dir, [k for k in keys if k.id != key_id])
    return match[0]


class KeyRing:
    """The keys of a data dir, re-read whenever the key file changes (so ``keys create`` and
    ``keys revoke`` take effect on a running server at its next request)."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self._stamp: tuple[int, int] | None = (-1, -1)
        self._keys: dict[str, ApiKey] = {}
        self._refresh()

    def _refresh(self) -> None:
        try:
            stat = key_file(self.data_dir).stat()
            stamp: tuple[int, int] | None = (stat.st_mtime_ns, stat.st_ino)
        except FileNotFoundError:
            stamp = None
        if stamp != self._stamp:
            self._keys = {k.id: k for k in read_keys(self.data_dir)}
            self._stamp = stamp

    @property
    def configured(self) -> bool:
        """Whether any key exists: without one, only loopback use is allowed."""
        self._refresh()
        return bool(self._keys)

    def check(self, presented: str) -> ApiKey | None:
        """The key ``presented`` stands for, or None when it is no valid key."""
        self._refresh()
        parts = presented.split("_", 2)
        if len(parts) != 3 or parts[0] != _PREFIX:
            return None
        record = self._keys.get(parts[1])
        if record is None:
            return None
        ok = hmac.compare_digest(_digest(record.salt, parts[2]), record.digest)
        return record if ok else None
