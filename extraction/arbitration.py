"""LLM arbitration for the uncertain band of the resolution cascade (stage ``resolve``):
"are these two one entity?". Verdicts are cached like extractions (key: model, the resolve
prompt's id and text hash, both entity texts), so unchanged content never pays twice; a
model that cannot be reached stops the run (``ChatModelError``), as in extraction."""

from __future__ import annotations

from extraction.cascade import Arbiter
from extraction.ledger import Ledger
from extraction.llm_cache import AnswerCache, cache_key, prompt_fingerprint
from extraction.llm_calls import UnusableOutputError, structured_call
from extraction.llm_schema import SameEntityVerdict
from extraction.prompt_files import load_prompt
from graphrag_core.errors import ChatModelError
from graphrag_core.models import Entity
from graphrag_core.ports import ChatModel


def describe(entity: Entity) -> str:
    return f"{entity.name} ({entity.type}): {entity.description}"


def verdict_key(model: str, version: str, a: Entity, b: Entity) -> str:
    """The cache key of the verdict on ``a`` and ``b`` (in either order); ``version``: the
    resolve prompt's ``prompt_fingerprint``."""
    return cache_key("resolve", model, version, *sorted([describe(a), describe(b)]))


def llm_arbiter(chat: ChatModel, ledger: Ledger, cache: AnswerCache | None = None) -> Arbiter:
    """An arbiter asking the model whether two entities are one."""
    prompt = load_prompt("resolve")
    version = prompt_fingerprint(prompt)

    def same(a: Entity, b: Entity) -> bool:
        key = verdict_key(chat.model_id, version, a, b)
        cached = cache.load([key]).get(key) if cache is not None else None
        if cached is not None:
            ledger.cache_hit("resolve")
            return SameEntityVerdict.model_validate_json(cached).same
        messages = prompt.messages(a=describe(a), b=describe(b))
        what = f"arbitration {a.name!r} / {b.name!r}"
        try:
            verdict, _ = structured_call(
                chat, messages, SameEntityVerdict, stage="resolve", ledger=ledger, max_tokens=128
            )
        except UnusableOutputError as exc:
            ledger.failure("resolve", f"{what} failed: {exc}; kept apart")
            return False
        except ChatModelError as exc:
            ledger.failure("resolve", f"{what} failed: {exc}")
            raise
        if cache is not None:
            cache.save({key: verdict.model_dump_json()})
        return verdict.same

    return same
