"""Slugs and name normalisation."""

from __future__ import annotations

import pytest

from extraction.slugs import normalise_name, slugify


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("Merchants' Guild", "merchants-guild"),
        ("Torven Blackwater", "torven-blackwater"),
        ("  Café   Noël!! ", "cafe-noel"),
        ("world/vault/The Hollow King.md", "world-vault-the-hollow-king-md"),
        ("Orun’s Forge", "oruns-forge"),
        ("---", "name-cb3f91d54e"),
        ("   ", ""),
    ],
)
def test_slugify(name: str, slug: str) -> None:
    assert slugify(name) == slug


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("The  Red   Oak", "red oak"),
        ("the red oak", "red oak"),
        ("Merchants' Guild", "merchants guild"),
        ("THEODORE", "theodore"),
        ("Séverine", "severine"),
        ("Mr. Blue", "mr blue"),
        ("Ms Gray", "ms gray"),
        ("St. Agnes's", "st agness"),
        ("End. Of", "end. of"),  # a full stop after no title stays
    ],
)
def test_normalise_name(text: str, key: str) -> None:
    assert normalise_name(text) == key
