"""Observation encodings built from named pieces, as OpenSpiel's observers are.

A game's observation tensor is a fixed-length list of floats that learning libraries copy at
every step.  Rather than one long loop with hand-kept offsets (``base = 172 + 129``), an
:class:`Encoding` is declared as a sequence of named :class:`Piece`\\ s: each says its size (or
shape) and how to write itself; offsets and the total size are derived, so a new piece touches
one place.  A :class:`Block` repeats pieces once per seat (or per terrain...) interleaved, the
layout per-player blocks have.

>>> from gamelib.core.encoding import Block, Encoding, Piece
>>> def hand(state, player, out, at):            # a writer: fills out[at : at + size]
...     for card in state["hands"][player]:
...         out[at + card] = 1.0
>>> def score(state, player, out, at):           # in a Block: ``at`` holds one offset per index
...     for seat, i in enumerate(at):
...         out[i] = state["scores"][seat] / 10
>>> enc = Encoding("toy", [
...     Piece("hand", 4, hand, doc="cards in my hand"),
...     Block("seat", 2, [Piece("score", 1, score), Piece("me", 1, values=lambda s, p, q: [float(p == q)])]),
... ])
>>> state = {"hands": [[0, 2], [3]], "scores": [5, 10]}
>>> enc.encode(state, 0)
[1.0, 0.0, 1.0, 0.0, 0.5, 1.0, 1.0, 0.0]
>>> enc.piece("seat.score", enc.encode(state, 0))
[[0.5], [1.0]]
>>> print(enc.describe())
toy: 8 floats
piece         offset  size  shape  stride  doc
hand               0     4  4              cards in my hand
seat × 2           4     4  2×2
  seat.score       4     1  1           2
  seat.me          5     1  1           2

Writers assume a zeroed buffer (a one-hot writes its one).  ``values=`` pieces return their
floats instead (simpler, a little slower).  :meth:`Encoding.check` runs each piece alone and
verifies it writes exactly its own slice, so each piece is testable by itself.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import chain, islice
from typing import Any, Generic, TypeVar

from gamelib.core.resolve import companion_module

S = TypeVar("S")


@dataclass(frozen=True)
class Piece(Generic[S]):
    """One named run of the tensor: ``size`` floats (or a ``shape``, stored row by row).

    Give either ``write`` (fills the buffer in place: fastest) or ``values`` (returns the floats).
    ``columns`` optionally names the entries of a row (the last axis), for :meth:`Encoding.describe`.
    """

    name: str
    shape: int | tuple[int, ...]
    write: Callable[[S, int, list[float], Any], None] | None = None
    values: Callable[..., Iterable[float]] | None = None
    doc: str = ""
    columns: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.name.isidentifier():
            raise ValueError(f"a piece name is an identifier, got {self.name!r}")
        if (self.write is None) == (self.values is None):
            raise ValueError(f"piece {self.name!r}: give exactly one of write= and values=")
        if any(isinstance(d, bool) or not isinstance(d, int) or d < 0 for d in self.dims):
            raise ValueError(f"piece {self.name!r}: a shape is non-negative ints, got {self.shape!r}")
        if self.columns and len(self.columns) != self.dims[-1]:
            raise ValueError(
                f"piece {self.name!r}: {len(self.columns)} column names for {self.dims[-1]} columns"
            )

    @property
    def dims(self) -> tuple[int, ...]:
        return (self.shape,) if isinstance(self.shape, int) else tuple(self.shape)

    @property
    def size(self) -> int:
        return math.prod(self.dims)


@dataclass(frozen=True)
class Block(Generic[S]):
    """``pieces`` repeated ``count`` times, interleaved: index 0's pieces, then index 1's...

    Each piece is called once per encoding with ``at``, the ``range`` of its ``count`` offsets.
    """

    name: str
    count: int
    pieces: Sequence[Piece[S]]
    doc: str = ""

    def __post_init__(self) -> None:
        if not self.name.isidentifier():
            raise ValueError(f"a block name is an identifier, got {self.name!r}")
        if isinstance(self.count, bool) or not isinstance(self.count, int) or self.count < 0:
            raise ValueError(f"block {self.name!r}: count is a non-negative int, got {self.count!r}")

    @property
    def stride(self) -> int:
        return sum(p.size for p in self.pieces)

    @property
    def size(self) -> int:
        return self.count * self.stride


@dataclass(frozen=True)
class Slot:
    """Where one piece sits: its first offset, size, repeats and the distance between repeats."""

    name: str
    offset: int
    piece: Piece[Any]
    count: int = 1
    stride: int = 0
    block: str = ""

    @property
    def at(self) -> int | range:
        """What the writer receives: the offset, or the offsets of every repeat in a block."""
        if not self.block:
            return self.offset
        return range(self.offset, self.offset + self.count * self.stride, self.stride)

    def starts(self) -> list[int]:
        """The offset of each repeat (one for a piece outside a block)."""
        if not self.block:
            return [self.offset]
        return list(range(self.offset, self.offset + self.count * self.stride, self.stride))


@dataclass
class Encoding(Generic[S]):
    """A tensor layout from named pieces: sizes and offsets derived, each piece readable alone."""

    name: str
    pieces: Sequence[Piece[S] | Block[S]]
    size: int = field(init=False)
    slots: dict[str, Slot] = field(init=False, repr=False)
    _steps: list[tuple[Callable[..., None], Any]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.slots = {}
        offset = 0
        for item in self.pieces:
            if isinstance(item, Block):
                inner = 0
                for piece in item.pieces:
                    self._add(
                        Slot(
                            f"{item.name}.{piece.name}",
                            offset + inner,
                            piece,
                            item.count,
                            item.stride,
                            item.name,
                        )
                    )
                    inner += piece.size
            else:
                self._add(Slot(item.name, offset, item))
            offset += item.size
        self.size = offset
        self._steps = [(_writer(slot), slot.at) for slot in self.slots.values() if slot.piece.size]

    def _add(self, slot: Slot) -> None:
        if slot.name in self.slots:
            raise ValueError(f"encoding {self.name!r}: two pieces are named {slot.name!r}")
        self.slots[slot.name] = slot

    def __len__(self) -> int:
        return self.size

    # ------------------------------------------------------------------ encoding
    def encode(self, state: S, player: int) -> list[float]:
        """The whole tensor of ``state`` as ``player`` sees it."""
        out = [0.0] * self.size
        for write, at in self._steps:
            write(state, player, out, at)
        if len(out) != self.size:
            self._blame(state, player)
        return out

    def encode_piece(self, name: str, state: S, player: int) -> list[float] | list[list[float]]:
        """One piece computed alone (a block's piece: one list per index), as :meth:`piece` reads it."""
        slot = self._slot(name)
        out = [0.0] * self.size
        _writer(slot)(state, player, out, slot.at)
        if len(out) != self.size:
            raise ValueError(
                f"piece {name!r} wrote {len(out) - self.size:+d} floats beyond its {slot.piece.size}"
            )
        return self.piece(name, out)

    def check(self, state: S, player: int) -> None:
        """Each piece, run alone, writes exactly its own slice, and together they give :meth:`encode`.

        ValueError naming the piece otherwise (a generic test runs this over every game).
        """
        whole = self.encode(state, player)
        for slot in self.slots.values():
            mine = {i for start in slot.starts() for i in range(start, start + slot.piece.size)}
            for fill in (0.0, -7.5):
                out = [fill] * self.size
                _writer(slot)(state, player, out, slot.at)
                if len(out) != self.size:
                    raise ValueError(
                        f"piece {slot.name!r} changed the tensor's length by {len(out) - self.size:+d}"
                    )
                stray = [i for i in range(self.size) if i not in mine and out[i] != fill]
                if stray:
                    raise ValueError(
                        f"piece {slot.name!r} wrote outside its slice, at {self.where(stray[0])}"
                    )
                if fill == 0.0:
                    wrong = [i for i in sorted(mine) if out[i] != whole[i]]
                    if wrong:
                        raise ValueError(
                            f"piece {slot.name!r} alone differs from the whole at {self.where(wrong[0])}"
                        )

    def _blame(self, state: S, player: int) -> None:
        for slot in self.slots.values():
            out = [0.0] * self.size
            _writer(slot)(state, player, out, slot.at)
            if len(out) != self.size:
                raise ValueError(
                    f"encoding {self.name!r}: piece {slot.name!r} wrote {len(out) - self.size:+d} floats "
                    f"beyond its size {slot.piece.size}"
                )
        raise ValueError(f"encoding {self.name!r}: the tensor's length changed")

    # ------------------------------------------------------------------ reading back
    def _slot(self, name: str) -> Slot:
        try:
            return self.slots[name]
        except KeyError:
            raise KeyError(
                f"encoding {self.name!r} has no piece {name!r}; pieces: {', '.join(self.slots)}"
            ) from None

    def offset(self, name: str) -> int:
        """Where piece ``name`` starts (a block's piece: where its index 0 starts)."""
        return self._slot(name).offset

    def piece(self, name: str, tensor: Sequence[float]) -> list[float] | list[list[float]]:
        """Piece ``name`` read out of a whole ``tensor``: its floats (a 2-D piece: its rows;
        a block's piece ``"block.piece"``: one list per index; ``"block[i].piece"``: index ``i``'s)."""
        if len(tensor) != self.size:
            raise ValueError(f"encoding {self.name!r} is {self.size} floats long, got {len(tensor)}")
        index: int | None = None
        if "[" in name:
            block, _, rest = name.partition("[")
            number, _, tail = rest.partition("]")
            if not number.isdigit() or not tail.startswith("."):
                raise KeyError(f"expected 'block[i].piece', got {name!r}")
            index, name = int(number), block + tail
        slot = self._slot(name)
        size, dims = slot.piece.size, slot.piece.dims
        parts: list[Any] = [list(tensor[s : s + size]) for s in slot.starts()]
        if len(dims) == 2:
            parts = [[row[r * dims[1] : (r + 1) * dims[1]] for r in range(dims[0])] for row in parts]
        if index is not None:
            if not 0 <= index < slot.count:
                raise IndexError(f"block {slot.block!r} has {slot.count} entries, got index {index}")
            entry: list[Any] = parts[index]
            return entry
        return parts if slot.block else parts[0]

    def where(self, position: int) -> str:
        """Which piece (and entry) tensor position ``position`` belongs to: ``"seat[1].score[0]"``."""
        for slot in self.slots.values():
            for k, start in enumerate(slot.starts()):
                if start <= position < start + slot.piece.size:
                    name = f"{slot.block}[{k}].{slot.piece.name}" if slot.block else slot.name
                    return f"{name}[{position - start}]"
        raise IndexError(f"position {position} is outside the {self.size} floats of {self.name!r}")

    # ------------------------------------------------------------------ display
    def describe(self) -> EncodingTable:
        """A table of the pieces: offset, size, shape, stride (blocks) and doc; ``str`` or HTML."""
        rows: list[tuple[str, int, int, str, str, str]] = []
        offset = 0
        for item in self.pieces:
            if isinstance(item, Block):
                rows.append(
                    (
                        f"{item.name} × {item.count}",
                        offset,
                        item.size,
                        f"{item.count}×{item.stride}",
                        "",
                        item.doc,
                    )
                )
                for piece in item.pieces:
                    slot = self.slots[f"{item.name}.{piece.name}"]
                    rows.append(
                        (
                            f"  {slot.name}",
                            slot.offset,
                            piece.size,
                            _shape(piece),
                            str(item.stride),
                            _doc(piece),
                        )
                    )
            else:
                rows.append((item.name, offset, item.size, _shape(item), "", _doc(item)))
            offset += item.size
        return EncodingTable(f"{self.name}: {self.size} floats", rows)


@dataclass(frozen=True)
class EncodingTable:
    """:meth:`Encoding.describe`'s table: plain text with ``str``, a table in a notebook."""

    title: str
    rows: list[tuple[str, int, int, str, str, str]]

    HEADER = ("piece", "offset", "size", "shape", "stride", "doc")

    def __str__(self) -> str:
        cells = [self.HEADER, *[tuple(str(c) for c in row) for row in self.rows]]
        widths = [max(len(r[k]) for r in cells) for k in range(5)]
        lines = [self.title]
        for r in cells:
            lines.append(
                f"{r[0]:<{widths[0]}}  {r[1]:>{widths[1]}}  {r[2]:>{widths[2]}}  {r[3]:<{widths[3]}}"
                f"  {r[4]:>{widths[4]}}  {r[5]}".rstrip()
            )
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        import html  # only Jupyter shows it: a playing process never imports html

        head = "".join(f"<th>{h}</th>" for h in self.HEADER)
        body = "".join(
            "<tr>"
            + "".join(f"<td>{html.escape(str(c)).replace('  ', '&nbsp;&nbsp;')}</td>" for c in row)
            + "</tr>"
            for row in self.rows
        )
        return f"<p><b>{html.escape(self.title)}</b></p><table><tr>{head}</tr>{body}</table>"


def _shape(piece: Piece[Any]) -> str:
    return "×".join(str(d) for d in piece.dims)


def _doc(piece: Piece[Any]) -> str:
    if piece.columns:
        return (piece.doc + " " if piece.doc else "") + "(" + ", ".join(piece.columns) + ")"
    return piece.doc


def _writer(slot: Slot) -> Callable[..., None]:
    """The function that fills the slot: the piece's writer, or one made from its ``values``."""
    piece = slot.piece
    if piece.write is not None:
        return piece.write
    values, size = piece.values, piece.size
    assert values is not None

    def write_one(state: Any, player: int, out: list[float], at: int) -> None:
        out[at : at + size] = values(state, player)

    def write_each(state: Any, player: int, out: list[float], at: range) -> None:
        for index, start in enumerate(at):
            out[start : start + size] = values(state, player, index)

    return write_each if slot.block else write_one


# ---------------------------------------------------------------------------- helpers for writers
_BYTE_BITS = [tuple(float(b >> k & 1) for k in range(8)) for b in range(256)]


def bit_floats(mask: int, size: int) -> list[float]:
    """Bits ``0 .. size-1`` of ``mask`` as floats 0.0 / 1.0 (a bitmask's piece, without a Python
    loop).  The members of a bitmask as numbers are :func:`gamelib.core.bitsets.members`."""
    data = (mask & ((1 << size) - 1)).to_bytes((size + 7) // 8, "little")
    return list(islice(chain.from_iterable(map(_BYTE_BITS.__getitem__, data)), size))


def encoding_of(game: Any) -> Encoding[Any]:
    """The named-piece layout of ``game``'s observation tensor, to read or show in a notebook.

    By convention a game declares it in an ``encoding`` module next to its rules, as
    ``encoding_for(game)``; NotImplementedError for a game whose tensor is not declared in pieces.

    >>> import gamelib
    >>> encoding_of(gamelib.make("fugitive")).offset("decks")
    301
    """
    build = getattr(companion_module(type(game), "encoding"), "encoding_for", None)
    if build is None:
        raise NotImplementedError(f"{game.name}'s observation tensor is not declared in named pieces")
    encoding = build(game)
    assert isinstance(encoding, Encoding)
    return encoding


def cached_encoding(game: Any, build: Callable[[Any], Encoding[Any]]) -> Encoding[Any]:
    """The encoding ``build(game)`` made once per game object (kept in the game, which is immutable)."""
    enc: Encoding[Any] | None = game.__dict__.get("_encoding")
    if enc is None:
        enc = game.__dict__["_encoding"] = build(game)
    return enc
