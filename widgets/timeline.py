"""A line of play with a cursor: the model behind undo, redo, reset and click-to-rewind.

The stepper keeps one snapshot (a clone) per position instead of replaying the history on every
undo.  Clones of the hot state are a few microseconds (ints, tuples, small lists), so an undo or a
rewind is a list index and one clone whatever the game's length, and it is exact by construction:
nothing is recomputed, so nothing can come out differently.  Snapshots are never handed out for
mutation; callers clone :attr:`Timeline.current` before applying anything.

This module knows nothing of Jupyter, so the same logic is tested without widgets.
"""

from __future__ import annotations

from gamelib import State


class Timeline:
    """Snapshots ``line[0..n]`` of one line of play and a cursor into it.

    ``line[i]`` is the position after ``start_ply + i`` actions.  Positions after the cursor are
    the redo line: undo moves the cursor back and keeps them; playing a different action from the
    cursor replaces them (playing the very action the redo line holds just moves forward, as a
    chess GUI follows its main line).
    """

    __slots__ = ("_cursor", "_line")

    def __init__(self, root: State) -> None:
        self._line: list[State] = [root.clone()]
        self._cursor = 0

    @classmethod
    def replayed(cls, state: State) -> Timeline:
        """A timeline from the start of ``state``'s game up to ``state``, cursor at the end.

        The start is ``game.new_game(seed=state.seed)`` and every action of ``state.history`` is
        replayed, so the whole game can be undone.  A state that does not replay to itself (one
        built by ``determinize``, say) becomes the root: it cannot be undone past.
        """
        try:
            walker = state.game.new_game(seed=state.seed)
            line = [walker.clone()]
            for action in state.history:
                walker.apply(action)
                line.append(walker.clone())
        except ValueError:
            return cls(state)
        if line[-1] != state:
            return cls(state)
        timeline = cls.__new__(cls)
        timeline._line = line
        timeline._cursor = len(line) - 1
        return timeline

    # ---------------------------------------------------------------- reading
    @property
    def cursor(self) -> int:
        """Index of the current position in the line (0 = the root)."""
        return self._cursor

    @property
    def current(self) -> State:
        """The snapshot at the cursor.  Read it, clone it; never mutate it."""
        return self._line[self._cursor]

    @property
    def end(self) -> State:
        """The last snapshot of the line (the end of the redo line)."""
        return self._line[-1]

    @property
    def start_ply(self) -> int:
        """How many actions the root position already has (0 when the line starts the game)."""
        return len(self._line[0].history)

    def __len__(self) -> int:
        return len(self._line)

    def at(self, index: int) -> State:
        """The snapshot at ``index`` (0 = root).  Read only."""
        return self._line[index]

    def can_undo(self) -> bool:
        return self._cursor > 0

    def can_redo(self) -> bool:
        return self._cursor < len(self._line) - 1

    # ---------------------------------------------------------------- moving
    def push(self, state: State) -> None:
        """Record ``state``, the position one action after the cursor, and move onto it.

        ``state`` is cloned, so the caller may go on mutating its object.
        """
        nxt = self._cursor + 1
        if nxt < len(self._line) and self._line[nxt] == state:
            self._cursor = nxt  # the action the redo line already holds: keep the line
            return
        del self._line[nxt:]
        self._line.append(state.clone())
        self._cursor = nxt

    def undo(self) -> bool:
        if not self.can_undo():
            return False
        self._cursor -= 1
        return True

    def redo(self) -> bool:
        if not self.can_redo():
            return False
        self._cursor += 1
        return True

    def rewind(self, index: int) -> None:
        """Move the cursor to ``index`` (forward or back), keeping the whole line."""
        if not 0 <= index < len(self._line):
            raise IndexError(f"position {index} is outside the line (0 to {len(self._line) - 1})")
        self._cursor = index
