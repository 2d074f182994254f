"""API keys: stored hashed, shown once, checked in constant time, revocable at once; and the
rule that a server beyond loopback needs keys."""

from __future__ import annotations

import stat
from datetime import UTC, datetime
from pathlib import Path

import pytest

from graphrag_core.errors import ConfigError, RequestError
from graphrag_core.services.keys import KeyRing, create_key, key_file, read_keys, revoke_key
from graphrag_core.surfaces.cli.serve import check_binding, is_loopback

NOW = datetime(2026, 11, 24, tzinfo=UTC)


def test_a_key_is_stored_hashed_and_checks_only_whole(tmp_path: Path) -> None:
    ring = KeyRing(tmp_path)
    assert not ring.configured
    record, key = create_key(tmp_path, "emberfall", "player", NOW, "Tuesday")
    stored = key_file(tmp_path).read_text()
    secret = key.split("_", 2)[2]
    assert secret not in stored and record.digest in stored
    assert stat.S_IMODE(key_file(tmp_path).stat().st_mode) == 0o600
    assert ring.configured  # the ring sees the new file without a restart
    found = ring.check(key)
    assert found is not None and (found.campaign, found.role) == ("emberfall", "player")
    for wrong in (key[:-1], key + "x", f"lg_{record.id}_", "lg_x_y", "", secret, key.upper()):
        assert ring.check(wrong) is None, wrong


def test_two_keys_differ_in_salt_and_a_revoked_key_stops_at_once(tmp_path: Path) -> None:
    ring = KeyRing(tmp_path)
    first, key1 = create_key(tmp_path, "emberfall", "gm", NOW)
    second, key2 = create_key(tmp_path, "emberfall", "gm", NOW)
    assert first.salt != second.salt and key1 != key2
    revoke_key(tmp_path, first.id)
    assert ring.check(key1) is None and ring.check(key2) is not None
    assert [k.id for k in read_keys(tmp_path)] == [second.id]
    with pytest.raises(RequestError, match="no API key with id 'nope'"):
        revoke_key(tmp_path, "nope")


def test_bad_campaigns_roles_and_a_damaged_file_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not a valid campaign id"):
        create_key(tmp_path, "Bad Name", "gm", NOW)
    with pytest.raises(RequestError, match="role 'admin' is not one of: gm, player, recap"):
        create_key(tmp_path, "emberfall", "admin", NOW)  # type: ignore[arg-type]
    key_file(tmp_path).write_text("{not json")
    with pytest.raises(ConfigError, match="the API key file is damaged"):
        read_keys(tmp_path)


@pytest.mark.parametrize(
    ("host", "loopback"),
    [("127.0.0.1", True), ("::1", True), ("localhost", True), ("127.0.0.2", True),
     ("0.0.0.0", False), ("192.168.1.5", False), ("example.org", False), ("::", False)],
)  # fmt: skip
def test_only_loopback_runs_without_keys(tmp_path: Path, host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback
    if loopback:
        assert "loopback only" in check_binding(host, KeyRing(tmp_path))
    else:
        with pytest.raises(ConfigError, match=f"refusing to listen on {host} without API keys"):
            check_binding(host, KeyRing(tmp_path))
    create_key(tmp_path, "emberfall", "gm", NOW)
    assert check_binding(host, KeyRing(tmp_path)) == "API keys required"
