"""The game state: plain lists and ints, so that it clones cheaply."""

from __future__ import annotations

import random
from typing import Any


class State:
    __slots__ = ("cfg", "vars", "cols", "zones", "loc", "pc", "stack", "current", "phase",
                 "pending", "rng", "log", "over", "outcome", "dirty", "turn", "index",
                 "steps", "auto_chance", "layers", "reach")

    def __init__(self, cfg: Any, rng: random.Random):
        self.cfg = cfg
        self.vars: list[Any] = []
        self.cols: list[list[Any]] = []
        self.zones: list[list[Any]] = []
        self.loc: list[Any] = []
        self.pc = 0
        self.stack: list[int] = []
        self.current = 0
        self.phase = 0
        self.pending: Any = None  # the decision or chance event the game waits for
        self.rng = rng
        self.log: list[tuple[Any, ...]] = []
        self.over = False
        self.outcome: list[str] | None = None
        self.dirty = True  # something an end rule reads may have changed
        self.turn = 0
        self.index = 0
        self.steps = 0
        self.auto_chance = True
        self.layers: list[list[Any]] = []  # tiles on grid boards (see tiles.py)
        self.reach: dict[Any, Any] = {}  # kept answers about tile networks

    def clone(self, copy_rng: bool = True) -> State:
        other = State.__new__(State)
        other.cfg = self.cfg
        other.vars = self.vars.copy()
        other.cols = [c.copy() for c in self.cols]
        other.zones = [z.copy() for z in self.zones]
        other.loc = self.loc.copy()
        other.pc = self.pc
        other.stack = self.stack.copy()
        other.current = self.current
        other.phase = self.phase
        other.pending = self.pending
        if copy_rng:
            rng = random.Random.__new__(random.Random)
            rng.setstate(self.rng.getstate())
            other.rng = rng
        else:
            other.rng = self.rng
        other.log = self.log.copy()
        other.over = self.over
        other.outcome = None if self.outcome is None else self.outcome.copy()
        other.dirty = self.dirty
        other.turn = self.turn
        other.index = self.index
        other.steps = self.steps
        other.auto_chance = self.auto_chance
        other.layers = [layer.copy() for layer in self.layers]
        other.reach = self.reach  # replaced, never mutated in place, when tiles change
        return other

    def fingerprint(self) -> tuple[Any, ...]:
        """Everything that defines the position, for comparing two states."""
        return (tuple(self.vars), tuple(map(tuple, self.cols)), tuple(map(tuple, self.zones)),
                self.pc, tuple(self.stack), self.current, self.phase, self.over,
                tuple(self.outcome or ()), self.turn, tuple(self.log),
                tuple(map(tuple, self.layers)))
