"""The belief's edge loops, the one place their inner work is done.

Every layer of the belief's programme walks its sources the same way: a source's moves are a list
memoised on the bits of the source they read (its *signature*, ``src & reads``), and a move
``(d, w, ...)`` leads to ``(src & keep) + d`` with weight ``w``.  Forward, a layer pushes each
source's weight along its moves (:func:`push`); backward, a source pulls the completions of its
destinations (:func:`pull`).  These loops are where the hardest positions spend most of their time
(a fraction of a microsecond of dictionary and integer work per edge), so they are named once here:
the pure-Python functions below are the reference, and a compiled implementation of the same
functions, when one is importable, replaces them with identical results (same integers, same
dictionary order).

The compiled module (``_kernel.c``, built by ``pip install -e .`` when a C compiler is there; an
install without one keeps the pure functions) runs the loop on native integers (keys of 128 bits,
its own hash table of the destinations in the order they were first reached, Python ints made
once per destination): the same loop through the C API on Python ints gains 1.45x only (their
allocation, hashing and arithmetic dominate).  A weight is native while it fits 128 bits; a
product or sum beyond is added on Python ints, in C (exact: only the value is kept, and int
addition is associative), so the card locations' wide packed sums stay compiled.  What the native
loop cannot take (a key or destination outside [0, 2**128), a move that is not a tuple of ints, a
container of another type) makes it run the pure function instead, from the start, so the results
never depend on which ran.  Along a pass the states may stay native: given a compiled ``States``
object (:func:`native`), the compiled functions answer with another, which the next call reads
directly (a dict of Python ints made by one layer and read again by the next cost most of what the
native loop spent per edge); :func:`as_dict` gives the dict where a caller reads the states.
``GAMELIB_PURE_PYTHON=1`` in the environment, or :func:`use_compiled`,
keeps the pure functions (to compare, or to debug them).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from typing import Any

try:
    from gamelib.fugitive.belief import _kernel as _compiled
except ImportError:  # installed without a C compiler: the pure functions serve
    _compiled = None  # type: ignore[assignment]

Moves = list[tuple[Any, ...]]
"""A signature's moves: tuples whose first two items are the delta ``d`` and the weight ``w``
(a label may follow)."""


def push_pure(
    states: dict[int, int],
    reads: int,
    keep: int,
    memo: dict[int, Moves],
    miss: Callable[[int], Moves] | None = None,
) -> tuple[dict[int, int], int]:
    """One layer forward: ``out[(src & keep) + d] += weight * w`` for every source ``(src,
    weight)`` of ``states`` and every move ``(d, w, ...)`` of ``memo[src & reads]``.

    A signature missing from ``memo`` is filled with ``miss(sig)`` (``memo`` keeps it, as the
    loops it replaces did); without ``miss`` it is a ``KeyError``.  Returns the next states, in the
    order their first edge reached them, and the number of edges walked."""
    out: dict[int, int] = {}
    get = out.get
    count = 0
    for src, weight in states.items():
        sig = src & reads
        hit = memo.get(sig)
        if hit is None:
            if miss is None:
                raise KeyError(sig)
            hit = memo[sig] = miss(sig)
        base = src & keep
        count += len(hit)
        for move in hit:
            dst = base + move[0]
            out[dst] = get(dst, 0) + weight * move[1]
    return out, count


def pull_pure(
    sources: Iterable[int],
    reads: int,
    keep: int,
    memo: dict[int, Moves],
    nxt: dict[int, int],
    miss: Callable[[int], Moves] | None = None,
    *,
    flagged: tuple[int, Mapping[int, int]] | None = None,
) -> dict[int, int]:
    """One layer backward: for every source, ``b = sum(w * nxt[(src & keep) + d])`` over the
    moves ``(d, w, ...)`` of ``memo[src & reads]`` whose destination ``nxt`` holds; returns the
    sources with ``b != 0``, in the order of ``sources``.  A signature missing from ``memo`` is
    filled with ``miss(sig)``, as :func:`push_pure` does (the card locations' walk meets signatures
    the count did not).

    ``flagged = (flag, other)``: a destination with a bit of ``flag`` reads ``other[dst ^ flag]``
    instead of ``nxt`` (the card locations' closing pair layers sum ``w S(dst)`` and ``w' B(dst)``
    in one pull, the second kind of move flagged: no dict of both made per layer)."""
    if flagged is not None:
        return _pull_flagged(sources, reads, keep, memo, nxt, miss, *flagged)
    cur: dict[int, int] = {}
    get = nxt.get
    for src in sources:
        sig = src & reads
        hit = memo.get(sig)
        if hit is None:
            if miss is None:
                raise KeyError(sig)
            hit = memo[sig] = miss(sig)
        base = src & keep
        b = 0
        for move in hit:
            x = get(base + move[0])
            if x:
                b += x * move[1]
        if b:
            cur[src] = b
    return cur


def _pull_flagged(
    sources: Iterable[int],
    reads: int,
    keep: int,
    memo: dict[int, Moves],
    nxt: Mapping[int, int],
    miss: Callable[[int], Moves] | None,
    flag: int,
    other: Mapping[int, int],
) -> dict[int, int]:
    """:func:`pull_pure` with ``flagged = (flag, other)`` (its own loop: the plain one stays as lean)."""
    cur: dict[int, int] = {}
    get, get_other = nxt.get, other.get
    for src in sources:
        sig = src & reads
        hit = memo.get(sig)
        if hit is None:
            if miss is None:
                raise KeyError(sig)
            hit = memo[sig] = miss(sig)
        base = src & keep
        b = 0
        for move in hit:
            dst = base + move[0]
            x = get_other(dst ^ flag) if dst & flag else get(dst)
            if x:
                b += x * move[1]
        if b:
            cur[src] = b
    return cur


def pull_tally_pure(
    states: dict[int, int],
    reads: int,
    keep: int,
    memo: dict[int, Moves],
    nxt: dict[int, int],
    tally: list[int],
    miss: Callable[[int], Moves] | None = None,
) -> dict[int, int]:
    """:func:`pull_pure` over the keys of ``states`` whose moves are ``(d, w, label)`` triples,
    tallying each edge's share of the total by its label (a face-down position's value): for every
    move whose destination ``nxt`` holds, ``tally[label] += states[src] * w * nxt[dst]``, in place."""
    cur: dict[int, int] = {}
    get = nxt.get
    for src, fw in states.items():
        sig = src & reads
        hit = memo.get(sig)
        if hit is None:
            if miss is None:
                raise KeyError(sig)
            hit = memo[sig] = miss(sig)
        base = src & keep
        b = 0
        for delta, w, label in hit:
            x = get(base + delta)
            if x:
                x *= w
                b += x
                tally[label] += fw * x
        if b:
            cur[src] = b
    return cur


def native(states: dict[int, int]) -> Any:
    """The first states of a pass, kept native when :data:`COMPILED`: a compiled ``States``
    object, which :func:`push` (:func:`pull`, :func:`pull_tally`: their sources) reads without a
    dict and answers with another (the pass stays native from layer to layer); else ``states``
    itself (then every call takes and gives dicts, as the pure functions do)."""
    return _compiled.native(states) if COMPILED and _compiled is not None else states


def as_dict(states: Any) -> dict[int, int]:
    """``states`` as a dict: itself, or the dict a compiled ``States`` stands for (the same ints
    in the same order, made anew)."""
    return states if type(states) is dict else states.to_dict()


push = push_pure
"""The forward loop: the compiled one when :data:`COMPILED`, else :func:`push_pure`."""
pull = pull_pure
"""The backward loop: the compiled one when :data:`COMPILED`, else :func:`pull_pure`."""
pull_tally = pull_tally_pure
"""The backward loop with a tally: the compiled one when :data:`COMPILED`, else :func:`pull_tally_pure`."""
COMPILED = False
"""Whether :func:`push` and :func:`pull` run compiled (the module is there and not turned off)."""


def use_compiled(on: bool) -> bool:
    """Turns the compiled loops on or off (when the module is there); returns :data:`COMPILED`.

    The compiled functions stay bound to ``push``, ``pull`` and ``pull_tally`` either way (a caller may have
    imported them by name); turned off, they call the pure functions at once."""
    global COMPILED, push, pull, pull_tally
    if _compiled is not None:
        _compiled.configure(push_pure, pull_pure, pull_tally_pure, on)
        push, pull, pull_tally = _compiled.push, _compiled.pull, _compiled.pull_tally
    COMPILED = _compiled is not None and _compiled.enabled()
    return COMPILED


use_compiled(os.environ.get("GAMELIB_PURE_PYTHON") != "1")
