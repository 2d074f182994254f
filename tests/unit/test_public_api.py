from __future__ import annotations

import graphrag_core


def test_public_api_is_sorted_and_every_name_resolves() -> None:
    assert graphrag_core.__all__ == sorted(graphrag_core.__all__)
    for name in graphrag_core.__all__:
        assert getattr(graphrag_core, name) is not None, name
