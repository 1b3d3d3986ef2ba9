"""A work budget for long computations: wall time, events and a cancel check.

A :class:`Budget` is passed into a loop (the Monte Carlo simulator checks it on every
iteration, including the restarts of an interrupted recovery) and stops the work with a
:class:`BudgetExceeded` or :class:`Cancelled` error, both :class:`~models.errors.ValidationError`
subclasses, so the command line answers with exit status 2 and one line, and a page shows a
message instead of keeping a core busy after its visitor has left.

    budget = Budget(max_seconds=10.0, cancel=lambda: session_closed)
    simulate_params(p, trials, days, budget=budget)

The budget starts on the first :meth:`Budget.check` (or :meth:`Budget.start`); one budget
may cover several calls (e.g. the chunks of one page run), which then share its time.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .errors import ValidationError

#: Default wall-time budget of one simulation call [s] (command line, reports, library).
MAX_SECONDS = 300.0


class BudgetExceeded(ValidationError):
    """The work went past its budget (wall time or events) and was stopped."""


class Cancelled(ValidationError):
    """The caller asked to stop (e.g. the page that started the work was left)."""


@dataclass
class Budget:
    """How much work one computation may do.

    Parameters
    ----------
    max_seconds : wall time allowed from the first check [s]; ``inf`` for none.
    max_events : events allowed (as counted by the computation); ``inf`` for none.
    cancel : called on every check; returning True stops the work with :class:`Cancelled`.
    field_name : the input named when the budget is exceeded (e.g. ``"trials"``).
    clock : monotonic clock [s] (a test may pass a fake one).
    """

    max_seconds: float = MAX_SECONDS
    max_events: float = math.inf
    cancel: Callable[[], bool] | None = None
    field_name: str = "trials"
    clock: Callable[[], float] = time.monotonic
    started: float | None = field(default=None, init=False)
    events_before: int = field(default=0, init=False)  # events of earlier calls or chunks
    spent_events: int = field(default=0, init=False)  # events at the last check

    def __post_init__(self) -> None:
        if not self.max_seconds > 0:
            raise ValidationError("max_seconds", f"{self.max_seconds!r} must be > 0")
        if not self.max_events > 0:
            raise ValidationError("max_events", f"{self.max_events!r} must be > 0")

    def start(self) -> None:
        if self.started is None:
            self.started = self.clock()

    @property
    def elapsed(self) -> float:
        """Seconds since the budget started (0 before)."""
        return 0.0 if self.started is None else self.clock() - self.started

    def check(self, events: int = 0) -> None:
        """Raise if cancelled or past the time or event budget; ``events`` so far in this call."""
        self.start()
        if self.cancel is not None and self.cancel():
            raise Cancelled("simulation", "was cancelled before it finished")
        total = self.events_before + events
        self.spent_events = total
        if total > self.max_events:
            raise BudgetExceeded(
                self.field_name,
                f"the work passed its budget of {self.max_events:.3g} events and was stopped; "
                "lower it (or the scenario's failure and stall rates)",
            )
        elapsed = self.clock() - self.started
        if elapsed > self.max_seconds:
            raise BudgetExceeded(
                self.field_name,
                f"the work passed its time budget of {self.max_seconds:g} s after "
                f"{total:,} events and was stopped; lower it (or the scenario's failure and "
                "stall rates)",
            )
