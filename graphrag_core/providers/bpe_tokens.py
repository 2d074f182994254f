"""Token counter adapter: exact OpenAI token counts offline with ``bpe-openai``.

(tiktoken downloads its encodings at run time; bpe-openai ships them.)"""

from __future__ import annotations

import warnings
from typing import Any

DEFAULT_ENCODING = "o200k_base"


class BpeTokenCounter:
    """Counts tokens with one of OpenAI's encodings (default ``o200k_base``)."""

    def __init__(self, encoding: str = DEFAULT_ENCODING) -> None:
        with warnings.catch_warnings():
            # bpe-openai 0.1.x reads its data with importlib.resources.open_binary (deprecated)
            warnings.simplefilter("ignore", DeprecationWarning)
            import bpe_openai

        self._encoding: Any = bpe_openai.get_encoding(encoding)
        self.encoding_name = encoding

    def count(self, text: str) -> int:
        return len(self._encoding.encode(text))
