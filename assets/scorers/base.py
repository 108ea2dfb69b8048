"""The Scorer protocol: one metric, the families it applies to, the values it returns.

A scorer module subclasses `Scorer` and registers one instance
(`assets.scorers.registry.register_scorer`). The judging stage runs every registered
scorer that applies to an answer's family and merges the values it returns into the
answer's `Score`; the leaderboard, diagnostics and release card list metrics from the
registry. A scorer returning a value it did not declare is an error, as is a value name
two scorers declare with different meanings.

Offline and model-backed implementations sit behind the same scorer: `ScoringContext.judge`
is the judge model client, or None when no judge model is configured. A metric that needs
a model returns None (null, never 0) offline.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from core.protocols import LLM
from core.records import Answer, AnswerArtifacts, Failure, GoldTarget, Task

if TYPE_CHECKING:
    from assets.families.base import AnswerKind, TaskFamily
    from assets.scorers.llm_judge import JudgeLedger

STAGE = "judge_scores"


class UnknownValueError(ValueError):
    """A scorer returned a value name it did not declare."""


@dataclass
class JudgeSettings:
    """How answers are judged when a judge model is configured."""

    protocol: Literal["compact", "reference"] = "compact"
    repeats: int = 3  # rubric repeats R (Trace and Persuasiveness): mean and spread
    temperature: float = 0.7  # rubric sampling temperature for repeats (0 when repeats == 1)
    workers: int = 4  # answers judged concurrently (the client is thread-safe)
    pairwise: Literal["auto", "metric", "llm", "off"] = "auto"  # auto: llm with a judge model
    pairwise_max_tasks: int = 12  # LLM pairwise: first N tasks (2 calls per pair of systems)
    agreement_sample: int = 0  # also judge N answers one-claim-per-call and report agreement


@dataclass
class ScoringContext:
    """Everything a scorer may use for one answer. `memo` shares one judge call between
    scorers that read the same reply (Trace and Persuasiveness share the rubric call)."""

    answer: Answer
    task: Task
    gold: GoldTarget
    embed: Callable[[list[str]], Any]
    kb_dates: dict[str, date]
    cutoff: date
    settings: JudgeSettings
    ledger: JudgeLedger
    judge: LLM | None = None  # the judge LLM client; None offline
    kb_get: Callable | None = None
    artifacts: AnswerArtifacts | None = None  # the answer's artifacts (answer_artifacts asset), when built
    memo: dict[str, Any] = field(default_factory=dict)
    checklists: dict[str, Any] = field(default_factory=dict)  # task id -> stored ACE checklist (the release's)
    failures: list[Failure] = field(default_factory=list)

    def fail(self, what: str, exc: Exception) -> None:
        """Record a failed judge call; only the metric that needed it stays null."""
        self.failures.append(
            Failure(stage=STAGE, item_id=self.answer.answer_id, reason=f"{what}: {type(exc).__name__}: {exc}"[:1000])
        )


@dataclass
class ScorerResult:
    """What one scorer says about one answer."""

    values: dict[str, float | None]
    rationale: str = ""  # why, for this item (joined into Score.note)
    details: dict[str, dict[str, float]] = field(default_factory=dict)  # Score dict fields, e.g. drift


class Scorer(ABC):
    """One metric. Declare `families` (names) and/or `answer_kinds` it applies to."""

    name: ClassVar[str]
    title: ClassVar[str]  # the paper's name, e.g. "Future-Target Alignment"
    summary: ClassVar[str]  # one line: what it measures
    source: ClassVar[str] = ""  # where it is defined, e.g. "ForeSci Appendix C.1"
    values: ClassVar[tuple[str, ...]]  # every value name it may return
    reported: ClassVar[tuple[str, ...] | None] = None  # shown in leaderboards (default: values)
    headline: ClassVar[tuple[str, ...] | None] = None  # values charted and compared (None: the first; () none)
    labels: ClassVar[dict[str, str]] = {}  # short display labels of values
    # the `foresci leaderboard` columns: column name -> the value it averages (None: the headline values,
    # each under its own name); columns are ordered by `leaderboard_rank`, then registration (assets/leaderboard/board.py)
    leaderboard: ClassVar[dict[str, str] | None] = None
    leaderboard_rank: ClassVar[int] = 100
    families: ClassVar[tuple[str, ...]] = ()
    answer_kinds: ClassVar[tuple[AnswerKind, ...]] = ()
    needs_judge: ClassVar[bool] = False  # null without a judge model

    def applies_to(self, family: TaskFamily) -> bool:
        return family.name in self.families or family.answer_kind in self.answer_kinds

    @abstractmethod
    def score(self, ctx: ScoringContext) -> ScorerResult:
        """Values (and a rationale) for `ctx.answer`."""

    def checked(self, ctx: ScoringContext) -> ScorerResult:
        """`score`, refusing value names the scorer did not declare."""
        result = self.score(ctx)
        unknown = sorted(set(result.values) - set(self.values))
        if unknown:
            raise UnknownValueError(f"scorer {self.name!r} returned undeclared values {unknown}")
        return result

    def describe(self, family_names: list[str]) -> dict[str, str]:
        """One row of `foresci scorers`."""
        return {
            "scorer": self.name,
            "title": self.title,
            "values": ", ".join(self.values),
            "families": ", ".join(family_names),
            "needs judge": "yes" if self.needs_judge else "no",
            "summary": self.summary,
        }
