"""How the CLI draws things: progress bars and result tables (rich). No logic lives here."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn

from graphrag_core.models import (
    PARTY_ID,
    AskResult,
    Change,
    ChangeSetRecord,
    Citation,
    EntityView,
    IngestReport,
    LedgerStage,
    RankedResult,
    Relation,
)
from graphrag_core.services.changelog import PostResult
from graphrag_core.services.withdrawal import WithdrawResult

_TASK_LABELS = {
    "read": "Reading sources",
    "extract": "Extracting",
    "embed": "Embedding",
    "write": "Writing to the store",
}


class RichProgress:
    """A ProgressListener drawing one rich bar per task, on stderr."""

    def __init__(self, console: Console) -> None:
        self._progress = Progress(
            SpinnerColumn(),
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            console=console,
            transient=True,
        )
        self._tasks: dict[str, int] = {}

    def __enter__(self) -> RichProgress:
        self._progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._progress.stop()

    def start(self, task: str, total: int | None) -> None:
        label = _TASK_LABELS.get(task, task)
        self._tasks[task] = self._progress.add_task(label, total=total)

    def advance(self, task: str, n: int = 1) -> None:
        if task in self._tasks:
            self._progress.advance(self._tasks[task], n)  # type: ignore[arg-type]

    def finish(self, task: str) -> None:
        if task in self._tasks:
            self._progress.remove_task(self._tasks.pop(task))  # type: ignore[arg-type]


_SHOWN_RECORDS = 10


def render_ingest(console: Console, report: IngestReport) -> None:
    """What changed, what the campaign holds, every failure once, and the first warnings about
    the sources (all of them are in the manifest)."""
    if not report.wrote:
        console.print(f"[green]Nothing to do[/]: {len(report.unchanged)} unchanged source(s).")
    else:
        recovered = f", {len(report.recovered)} recovered" if report.recovered else ""
        if report.outdated:
            recovered += f", {len(report.outdated)} read again (the extractor changed)"
        console.print(
            f"Ingested [bold]{escape(report.campaign)}[/]: {len(report.added)} added, "
            f"{len(report.changed)} changed, {len(report.removed)} removed, "
            f"{len(report.unchanged)} unchanged{recovered}; {report.embedded} text(s) embedded."
        )
    console.print(
        f"Campaign now holds {report.entities} entities, {report.relations} relations, "
        f"{report.chunks} chunks."
    )
    for path, reason in sorted(report.failures.items()):
        console.print(f"[red]failed[/] {escape(path)}: {escape(reason)}")
    for record in report.extraction_records[:_SHOWN_RECORDS]:
        console.print(f"[yellow]note[/] {escape(record)}")
    hidden = len(report.extraction_records) - _SHOWN_RECORDS
    if hidden > 0:
        console.print(f"[dim]… and {hidden} more note(s) in the ingest manifest[/]")


def render_post(console: Console, result: PostResult) -> None:
    if result.action == "duplicate":
        console.print(
            f"Session {result.session_id} was already posted with this content "
            f"(revision {result.revision}): nothing changed."
        )
        return
    verb = "Amended" if result.action == "amend" else "Posted"
    console.print(
        f"{verb} session {result.session_id} (revision {result.revision}): "
        f"{len(result.changes)} change(s), impact {result.impact:.1f}, "
        f"cumulative impact {result.cumulative_impact:.1f} → rebuild advice: {result.rebuild}."
    )
    for line in result.resolved:
        console.print(f"  {escape(line)}")


def render_withdraw(console: Console, result: WithdrawResult) -> None:
    back = (
        f"revision {result.in_effect_revision} is in effect"
        if result.in_effect_revision is not None
        else "the session has no changes in effect"
    )
    console.print(
        f"Withdrew session {result.session_id} revision {result.withdrawn_revision} "
        f"({result.withdrawn_changes} change(s)) as revision {result.revision}, from session "
        f"{result.at_session} on ({back}; --as-of before it still shows them): impact "
        f"{result.impact:.1f}, cumulative impact {result.cumulative_impact:.1f} → rebuild "
        f"advice: {result.rebuild}."
    )


def changeset_lines(records: Sequence[ChangeSetRecord]) -> list[str]:
    """One line per record: a post (marked when withdrawn) or a withdrawal."""
    gone = {(r.session_id, r.withdraws): r for r in records if r.withdraws is not None}
    lines = []
    for r in records:
        head = f"session {r.session_id} r{r.revision}:"
        if r.withdraws is not None:
            why = f": {r.note}" if r.note else ""
            lines.append(
                f"{head} withdraws r{r.withdraws} from session {r.at_session} on, by {r.source} "
                f"at {r.posted_at}{why}"
            )
            continue
        line = f"{head} {r.change_count} change(s) from {r.source} at {r.posted_at} {r.title}"
        if (w := gone.get((r.session_id, r.revision))) is not None:
            line += f" [WITHDRAWN by r{w.revision}, from session {w.at_session} on]"
        lines.append(line.rstrip())
    return lines


ASK_LEGEND = "✓ available now · ✗ unavailable now (dead, destroyed, hostile, …: see the note)"


def render_ask(console: Console, result: AskResult) -> None:
    """One block per result: rank, name, type and status, then why and where from."""
    mode = "player view" if result.as_player else "GM view"
    when = ", historical" if result.historical else ""
    if result.as_of_session is not None:
        when += f", as of session {result.as_of_session}"
    console.print(
        f"\n[bold]{escape(result.question)}[/]  [dim]({result.campaign}, {mode}{when})[/]"
    )
    if result.preset:
        console.print(f"  [dim]weights: {result.preset}[/]")
    if not result.results:
        console.print(f"  [dim]{escape(result.note or 'nothing found')}[/]")
        return
    for rank, item in enumerate(result.results, start=1):
        console.print(_headline(rank, item))
        if item.text:
            console.print(f"      {escape(one_line(item.text, 110))}", style="dim")
        if item.status_note:
            # the changes that matter: the item's own status, or those of what a passage names
            style = "yellow" if item.available else "red"
            console.print(f"      ! {escape(one_line(item.status_note, 108))}", style=style)
        sources = ", ".join(dict.fromkeys(_cited(c) for c in item.citations if c.source))
        if sources:
            console.print(f"      [dim]cites: {escape(one_line(sources, 105))}[/]")
    console.print(f"  [dim]{ASK_LEGEND}[/]")


def _cited(citation: Citation) -> str:
    """``book.pdf p. 47``, or the source alone."""
    page = f" p. {citation.page}" if citation.page is not None else ""
    return f"{citation.source}{page}"


def _headline(rank: int, item: RankedResult) -> str:
    status = "" if item.status_assumed else (item.status or "")
    if item.attitude:
        status = f"{status}, {item.attitude}" if status else item.attitude
    mark = "[green]✓[/]" if item.available else "[red]✗[/]"
    kind = "passage" if item.kind == "passage" else item.type
    state = f" · {status}" if status else ""
    return (
        f"  {rank:>2}. {mark} [bold]{escape(item.name)}[/]  [dim]{kind}{state} · "
        f"score {item.score:.2f}[/]"
    )


def one_line(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def render_entity(console: Console, view: EntityView) -> None:
    """Name, aliases, status and why, notes, relations and changes by name; in the GM view,
    what players cannot see is marked ``[GM only]``."""
    secret = _gm_mark(view.visibility)
    console.print(
        f"[bold]{escape(view.name)}[/] ({escape(view.type)}) [dim]id: {view.id}[/]{secret}"
    )
    if view.aliases:
        console.print(f"  aliases: {escape(', '.join(view.aliases))}")
    if view.gm_aliases:
        console.print(
            f"  [yellow]secret aliases \\[GM only]:[/] {escape(', '.join(view.gm_aliases))}"
        )
    status = view.status or "unknown"
    why = (
        f" (set in session {view.status_change.session_id} by {view.status_change.id})"
        if view.status_change
        else " (assumed: no source or change gives one)"
        if view.status_assumed
        else " (base)"
    )
    console.print(
        f"  status: {escape(status)}{why}"
        + (f"; attitude toward the party: {view.attitude}" if view.attitude else "")
    )
    if view.description:
        console.print(f"  {escape(view.description)}")
    if view.profile:
        console.print("  [dim]from the sources (derived, not authored):[/]")
        for sentence in view.profile:
            console.print(f"    {escape(sentence.text)} [dim]({escape(sentence.source_path)})[/]")
    if view.gm_notes:
        console.print(f"  [yellow]GM notes:[/] {escape(view.gm_notes)}")
    for rel in view.relations:
        console.print(f"  · {_relation_line(view, rel)}")
    for change in view.changes:
        console.print(f"  {_change_line(view, change)}")
    if view.mentioned_sessions:
        console.print(f"  {sessions_line(view.mentioned_sessions)}")
    if view.sources:
        console.print(f"  sources: {escape(', '.join(view.sources))}")


def sessions_line(sessions: tuple[int, ...]) -> str:
    """``mentioned in sessions 3–7 (3, 5, 7)``; ``mentioned in session 4``."""
    if len(sessions) == 1:
        return f"mentioned in session {sessions[0]}"
    span = f"mentioned in sessions {sessions[0]}–{sessions[-1]}"
    if len(sessions) == sessions[-1] - sessions[0] + 1:
        return span
    return f"{span} ({', '.join(map(str, sessions))})"


def _name(view: EntityView, entity_id: str) -> str:
    if entity_id == PARTY_ID and entity_id not in view.names:
        return "the party"
    return escape(view.names.get(entity_id, entity_id))


def _gm_mark(visibility: str) -> str:
    return " [yellow]\\[GM only][/]" if visibility == "gm" else ""


def _relation_line(view: EntityView, rel: Relation) -> str:
    attitude = f" ({rel.attitude})" if rel.attitude else ""
    return (
        f"{_name(view, rel.source)} —{rel.type}→ {_name(view, rel.target)}{attitude}"
        f"{_gm_mark(rel.visibility)}"
    )


def _change_line(view: EntityView, change: Change) -> str:
    """``session 7: attitude of Baron Aldric toward Cinder Knives: allied → hostile``."""
    field = change.field
    if change.kind == "relationship" and change.target_id:
        field = (
            f"attitude of {_name(view, change.entity_id)} toward {_name(view, change.target_id)}"
        )
    elif change.entity_id != view.id:
        field = f"{field} of {_name(view, change.entity_id)}"
    old = f"{escape(change.old_value)} → " if change.old_value else "→ "
    return (
        f"session {change.session_id}: {field}: {old}{escape(change.new_value)} "
        f"[dim]({change.id})[/]{_gm_mark(change.visibility)}"
    )


def render_ledger(console: Console, report: IngestReport) -> None:
    """The LLM ledger per stage, then the GM decisions that did not replay as stored
    (skipped, or found under another id): the game master must know."""
    print_ledger(console, report.ledger)
    for warning in report.decision_warnings:
        console.print(f"[yellow]{escape(warning)}[/]")


def print_ledger(console: Console, ledger: Mapping[str, LedgerStage]) -> None:
    for stage, s in ledger.items():
        console.print(
            f"LLM {stage}: {s.calls} call(s), {s.prompt_tokens} tokens in, "
            f"{s.completion_tokens} out, ${s.cost_usd:.4f}, {s.cache_hits} cache hit(s), "
            f"{s.retries} retries, {s.failures} failure(s)"
        )
