"""No GM-only text of the example campaign reaches any player-facing output.

The secrets are gathered from the example's files here, independently of loregraph's own
parsers: GM-only entities (their names, aliases, ids, descriptions), secret aliases, GM notes,
GM sections of Markdown files and vault notes, GM-only front matter, relations marked
``visibility: gm`` and GM-only changes with their notes and details. Then every player-facing
output — ``ask --as-player --json`` over many questions (the demo's, one set per entity, and
questions made of the secrets themselves) with k=100, current and historical, ``entity
--as-player`` for every entity, ``communities``/``community --as-player``, ``ask --global
--as-player`` — must contain none of their 5-word shingles (those that never occur in
party-visible text), no secret name, no GM-only relation and no GM-only change or chunk id.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml

from graphrag_core.errors import AnalyticsError, UnknownEntityError
from graphrag_core.ports import Embedder
from graphrag_core.services.service import LoregraphService
from graphrag_core.settings import Settings
from graphrag_core.surfaces.cli.demo import changelog_files, load_questions
from graphrag_core.wiring import open_service
from tests.integration.cli_world import run

pytestmark = [pytest.mark.integration, pytest.mark.slow]

CAMPAIGN = "emberfall"
SHINGLE = 5
_GM_HEADING = re.compile(r"\b(?:GM|DM)s?\b|secret|spoiler|game master|dungeon master", re.I)
_GM_VALUES = {"gm", "secret", "gm-only", "gm_only", "dm", "hidden", "private"}
_FRONT = re.compile(r"\A---\n(.*?)\n---\n?", re.S)


@dataclass
class Secrets:
    """What players must never see, and what they may (to tell shared words apart)."""

    gm_texts: list[str] = field(default_factory=list)
    party_texts: list[str] = field(default_factory=list)
    names: set[str] = field(default_factory=set)
    relations: set[tuple[str, str, str]] = field(default_factory=set)  # (source, type, target)

    def shingles(self) -> set[str]:
        public = set().union(*(_shingles(t) for t in self.party_texts))
        return set().union(*(_shingles(t) for t in self.gm_texts)) - public

    def secret_names(self) -> set[str]:
        public = " ".join(_words(t) for t in self.party_texts)
        return {n for n in self.names if not re.search(rf"\b{re.escape(_words(n))}\b", public)}


def _words(text: str) -> str:
    text = text.replace("[[", "").replace("]]", "").replace("_", " ").replace("-", " ")
    return " ".join(re.findall(r"[a-z0-9']+", text.lower()))


def _shingles(text: str) -> set[str]:
    words = _words(text).split()
    return {" ".join(words[i : i + SHINGLE]) for i in range(len(words) - SHINGLE + 1)}


def _strings(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list | tuple):
        return [s for v in value for s in _strings(v)]
    return [str(value)] if value is not None else []


def gather(example: Path) -> Secrets:
    secrets = Secrets()
    world = example / "world"
    _gather_pack(yaml.safe_load((world / "world.yaml").read_text()), secrets)
    for path in sorted(world.rglob("*")):
        if path.suffix in (".md", ".txt"):
            _gather_markdown(path, secrets)
    for path in sorted((example / "changelog").glob("*.yaml")):
        _gather_changes(yaml.safe_load(path.read_text()), secrets)
    return secrets


def _gather_pack(pack: dict[str, Any], secrets: Secrets) -> None:
    for item in pack["entities"]:
        public = [item["name"], item.get("description", ""), *item.get("aliases", [])]
        public += _strings(item.get("attributes", {}))
        if item.get("visibility") == "gm":
            secrets.gm_texts += public
            secrets.names.update([item["name"], *item.get("aliases", []), item.get("id", "")])
        else:
            secrets.party_texts += public
        secrets.gm_texts += [item.get("gm_notes", ""), *item.get("gm_aliases", [])]
        secrets.names.update(item.get("gm_aliases", []))
        for rel in item.get("relations", []):
            # the relation as the file writes it: "{type: works_for, target: hesper-vantrell}"
            written = [yaml.safe_dump(rel, default_flow_style=True, sort_keys=False)]
            if rel.get("visibility") == "gm":
                secrets.gm_texts += [rel.get("description", ""), *written]
                secrets.relations.add((item.get("id", ""), rel["type"], rel["target"]))
            else:
                secrets.party_texts += [rel.get("description", ""), *written]


def _gather_markdown(path: Path, secrets: Secrets) -> None:
    text = path.read_text()
    front: dict[str, Any] = {}
    match = _FRONT.match(text)
    if match:
        front = yaml.safe_load(match.group(1)) or {}
        text = text[match.end() :]
    secrets.gm_texts += [str(v) for k, v in front.items() if str(k).startswith("gm_")]
    secrets.names.update(_strings(front.get("gm_aliases")))
    if str(front.get("visibility", "party")).lower() in _GM_VALUES:
        secrets.gm_texts.append(text)
        secrets.names.update([path.stem, *_strings(front.get("aliases"))])
        return
    gm_level = 0
    for line in text.splitlines():
        heading = re.match(r"^(#+)\s+(.*)", line)
        if heading:
            level = len(heading.group(1))
            if gm_level and level <= gm_level:
                gm_level = 0
            if not gm_level and _GM_HEADING.search(heading.group(2)):
                gm_level = level
        (secrets.gm_texts if gm_level else secrets.party_texts).append(line)


def _gather_changes(data: dict[str, Any], secrets: Secrets) -> None:
    default = data.get("visibility", "party")
    for update in [*data.get("entity_updates", []), *data.get("relationship_updates", [])]:
        texts = _strings({k: v for k, v in update.items() if k not in ("visibility",)})
        if update.get("visibility", default) == "gm":
            secrets.gm_texts += [t for t in texts if len(t.split()) >= SHINGLE]
        else:
            secrets.party_texts += texts


@dataclass
class Oracle:
    shingles: set[str]
    names: list[re.Pattern[str]]
    ids: re.Pattern[str] | None

    def leaks(self, label: str, data: Any) -> list[str]:
        """Where ``data`` (JSON-like; a question it echoes is left out) names a secret."""
        found: list[str] = []
        if isinstance(data, dict):
            data = {k: v for k, v in data.items() if k != "question"}
        for text in _strings(data):
            words = _words(text)
            hits = sorted(_shingles(text) & self.shingles)
            hits += [p.pattern for p in self.names if p.search(words)]
            if self.ids is not None:
                hits += self.ids.findall(text)
            found += [f"{label}: {hit!r} in {text[:160]!r}" for hit in hits]
        return found


@pytest.fixture(scope="module")
def service(
    tmp_path_factory: pytest.TempPathFactory, real_embedder: Embedder, example_dir: Path
) -> Iterator[LoregraphService]:
    world = tmp_path_factory.mktemp("example") / "emberfall"
    shutil.copytree(example_dir, world)
    data_dir = tmp_path_factory.mktemp("data")
    with open_service(Settings(data_dir=data_dir), embedder=real_embedder) as svc:
        report = svc.ingest(world / "world", CAMPAIGN)
        assert report.wrote and not report.failures
        for file in changelog_files(world):
            svc.post_changelog(file, CAMPAIGN)
        svc.build(CAMPAIGN)
        yield svc


@pytest.fixture(scope="module")
def secrets(example_dir: Path) -> Secrets:
    return gather(example_dir)


@pytest.fixture(scope="module")
def oracle(service: LoregraphService, secrets: Secrets) -> Oracle:
    gm = service.view(CAMPAIGN, as_player=False).view
    hidden_ids = [c.id for c in gm.chunks.values() if c.visibility == "gm"]
    hidden_ids += [c.id for c in gm.changes.values() if c.visibility == "gm"]
    hidden_ids += [e.id for e in gm.entities.values() if e.visibility == "gm"]
    ids = "|".join(re.escape(i) for i in sorted(hidden_ids, key=len, reverse=True))
    return Oracle(
        shingles=secrets.shingles(),
        names=[re.compile(rf"\b{re.escape(_words(n))}\b") for n in secrets.secret_names() if n],
        ids=re.compile(rf"(?<![\w-])(?:{ids})(?![\w-])") if ids else None,
    )


def test_the_example_holds_enough_secrets_to_test(secrets: Secrets, oracle: Oracle) -> None:
    assert len(oracle.shingles) > 300
    assert len(oracle.names) >= 5
    assert len(secrets.relations) >= 5
    assert oracle.ids is not None


def test_the_player_view_itself_holds_no_secret(service: LoregraphService, oracle: Oracle) -> None:
    """Every player-facing answer is built from this view alone: no chunk, entity, relation
    or change in it may carry a secret, whether a given answer happens to show it or not."""
    view = service.view(CAMPAIGN, as_player=True).view
    leaks = oracle.leaks("player view", view.model_dump(mode="json"))
    assert not leaks, "\n".join(leaks[:40])


def _questions(service: LoregraphService, secrets: Secrets, example_dir: Path) -> list[str]:
    gm = service.view(CAMPAIGN, as_player=False).view
    questions = [str(item["question"]) for item in load_questions(example_dir)]
    for entity in sorted(gm.entities.values(), key=lambda e: e.id):
        questions.append(
            f"Tell me about {entity.name}: what secret is {entity.name} hiding, and who does "
            f"{entity.name} really work for?"
        )
    # the secrets themselves as questions: a player who guesses must learn nothing more
    questions += [" ".join(t.split()[:12]) for t in secrets.gm_texts if len(t.split()) >= 8]
    questions += sorted(secrets.secret_names())
    return list(dict.fromkeys(questions))


def test_ask_as_player_never_shows_a_secret(
    service: LoregraphService, secrets: Secrets, oracle: Oracle, example_dir: Path
) -> None:
    leaks: list[str] = []
    gm = service.view(CAMPAIGN, as_player=False).view
    cited: set[str] = set()
    questions = _questions(service, secrets, example_dir)
    assert len(questions) > 100
    for index, question in enumerate(questions):
        historical = index % 3 == 0  # every third question also without demotion
        answer = service.ask(question, CAMPAIGN, as_player=True, k=100, historical=historical)
        leaks += oracle.leaks(f"ask {question!r}", answer.model_dump(mode="json"))
        cited.update(c.id for result in answer.results for c in result.citations)
    for session in (3, 5):
        answer = service.ask(
            "What happened?", CAMPAIGN, as_player=True, k=100, as_of_session=session
        )
        leaks += oracle.leaks(f"ask --as-of {session}", answer.model_dump(mode="json"))
    # the passages behind the answers, whole: the text shown is cut, the ranking is not
    for chunk_id in sorted(cited & set(gm.chunks)):
        leaks += oracle.leaks(f"cited chunk {chunk_id}", [gm.chunks[chunk_id].text])
    assert not leaks, "\n".join(leaks[:40])


def test_every_entity_as_player_shows_no_secret(
    service: LoregraphService, secrets: Secrets, oracle: Oracle
) -> None:
    gm = service.view(CAMPAIGN, as_player=False).view
    leaks: list[str] = []
    shown = 0
    for entity in gm.entities.values():
        for name in (entity.id, entity.name, *entity.gm_aliases):
            try:
                view = service.entity(name, CAMPAIGN, as_player=True)
            except UnknownEntityError as exc:  # it echoes the name asked; check the rest
                leaks += oracle.leaks(f"entity {name!r} error", list(exc.suggestions))
                continue
            shown += 1
            assert name not in entity.gm_aliases, f"secret alias {name!r} resolves for players"
            leaks += oracle.leaks(f"entity {name!r}", view.model_dump(mode="json"))
            leaks += [
                f"entity {name!r}: GM-only relation {key}"
                for key in _relation_keys(view.relations, gm)
                if key in _gm_relation_keys(secrets, gm)
            ]
    assert shown >= 40
    assert not leaks, "\n".join(leaks[:40])


def _relation_keys(relations: Any, gm: Any) -> set[tuple[str, str, str]]:
    return {(r.source, r.type, r.target) for r in relations}


def _gm_relation_keys(secrets: Secrets, gm: Any) -> set[tuple[str, str, str]]:
    """The example's GM-only relations with both ends as ids (targets are written as names)."""
    by_name = {e.name.lower(): e.id for e in gm.entities.values()}
    by_name.update({a.lower(): e.id for e in gm.entities.values() for a in e.aliases})
    return {
        (source, kind, by_name.get(target.lower(), target))
        for source, kind, target in secrets.relations
    }


def test_communities_and_global_answers_as_player_show_no_secret(
    service: LoregraphService, oracle: Oracle
) -> None:
    leaks: list[str] = []
    gm_ids = [c.id for c in service.communities(CAMPAIGN)]
    player = service.communities(CAMPAIGN, as_player=True)
    assert player, "players see no community at all"
    leaks += oracle.leaks("communities", [c.model_dump(mode="json") for c in player])
    for community_id in gm_ids:
        try:
            view = service.community(community_id, CAMPAIGN, as_player=True)
        except AnalyticsError as exc:
            leaks += oracle.leaks(f"community {community_id} error", {"error": str(exc)})
            continue
        leaks += oracle.leaks(f"community {community_id}", view.model_dump(mode="json"))
    for question in (
        "What are the main powers in the Marches and how do they stand?",
        "Who is secretly behind the trouble in Harrowgate?",
        "What does the cult want?",
    ):
        answer = service.ask_global(question, CAMPAIGN, as_player=True)
        leaks += oracle.leaks(f"ask --global {question!r}", answer.model_dump(mode="json"))
    assert not leaks, "\n".join(leaks[:40])


def test_the_cli_player_json_shows_no_secret(
    service: LoregraphService, oracle: Oracle, tmp_path: Path
) -> None:
    """The same through the CLI, on the same store (its data dir), for two questions."""
    env = {"LOREGRAPH_DATA_DIR": str(service.data_dir), "LOREGRAPH_CAMPAIGN": CAMPAIGN}
    for args in (
        ["ask", "Dace Rook, the scarred gang boss", "--as-player", "--json", "-k", "100"],
        ["ask", "Who harasses independent traders?", "--as-player", "--json", "-k", "100"],
        ["entity", "Dace Rook", "--as-player", "--json"],
    ):
        code, output = run(env, *args)
        assert code == 0, output
        assert not oracle.leaks(" ".join(args), json.loads(output))


# ------------------------------------------------------------------ hostile names (issue 11)

HOSTILE_SECRETS = ("nightshade", "zebra crown", "ledger of debts", "hunter2")
HOSTILE_FILES = {
    # a public and a GM-only entity whose names are a near-duplicate (same id)
    "world.yaml": "entities:\n  - name: Torven\n    type: NPC\n    description: A merchant.\n",
    "secret.yaml": (
        "entities:\n  - name: Torvén\n    type: NPC\n    visibility: gm\n"
        "    description: Secretly poisons the well with nightshade each night.\n"
    ),
    # non-Latin names (an empty id before the derivation is fixed: never merged)
    "vault/Старая мельница.md": "---\ntype: Location\n---\n# Старая мельница\nAn old mill.\n",
    "vault/Тайна.md": "---\ntype: Location\nvisibility: gm\n---\n# Тайна\nThe zebra crown.\n",
    "vault/秘密.md": "---\ntype: Item\nvisibility: gm\n---\n# 秘密\nThe ledger of debts.\n",
    "vault/Αγορά.md": "---\ntype: Location\n---\n# Αγορά\nA busy market square.\n",
    # unstorable characters: those files are reported, never half-stored
    "nul.yaml": 'entities:\n  - name: Nul\n    visibility: gm\n    description: "hunter2\\0"\n',
    "surrogate.yaml": (
        'entities:\n  - name: Sur\n    visibility: gm\n    description: "hunter2 \\uD800"\n'
    ),
}


def test_hostile_names_merge_no_secret_into_player_output(tmp_path: Path) -> None:
    folder = tmp_path / "hostile"
    for name, text in HOSTILE_FILES.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    env = {"LOREGRAPH_DATA_DIR": str(tmp_path / "data"), "LOREGRAPH_CAMPAIGN": "hostile"}
    code, output = run(env, "ingest", str(folder), "--no-build")
    assert code in (0, 3) and "Traceback" not in output, output
    questions = [
        "Torven", "Torvén", "who poisons the well", "nightshade", "Старая мельница", "Тайна",
        "秘密", "Αγορά", "zebra crown", "ledger of debts", "hunter2", "secret",
    ]  # fmt: skip
    for question in questions:
        code, output = run(env, "ask", question, "--as-player", "--json", "-k", "100")
        assert code == 0, output
        found = [s for s in HOSTILE_SECRETS if s in output.lower().replace(question.lower(), "")]
        assert not found, f"ask {question!r} shows {found}"
    for name in ("Torven", "Torvén"):
        code, output = run(env, "entity", name, "--as-player", "--json")
        assert code in (0, 1), output
        assert not [s for s in HOSTILE_SECRETS if s in output.lower()], output
