"""What the detective knows, read from a state or from his information state: :class:`Facts`.

Everything the counting needs and nothing else: the face-up cards, the sizes of the face-down
stacks and of the fugitive's hand, when the fugitive drew from which deck, the numbers the
detective missed and the failed series (only those that say something: a series naming a number
already face up was a certain miss).  Also the reachability masks that prune the counting and the
failed series' progress along a row of hideouts.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from gamelib.core.game import InformationState
from gamelib.fugitive.belief import kernel
from gamelib.fugitive.belief.bits import DONE
from gamelib.fugitive.belief.tables import Tables, tables_for
from gamelib.fugitive.board import cards_of
from gamelib.fugitive.rules import (
    DEALING,
    F_SPRINT,
    FUGITIVE,
    SETUP,
    STEP_LIMIT,
    Add,
    Deal,
    Done,
    Draw,
    FugitiveObservation,
    FugitiveState,
    Guess,
    Hide,
    Layout,
    Pass,
    Reveal,
    Sprint,
    layout_for,
)

try:
    from gamelib.fugitive.belief import _facts
except ImportError:  # installed without a C compiler (or an older build): the pure loops serve
    _facts = None  # type: ignore[assignment]


@dataclass(frozen=True)
class Facts:
    """Everything the detective's observation says about the fugitive's cards, as plain data.

    Positions are 1..K (card 0 is position 0).  ``known[i]`` is the face-up value or -1;
    ``sprint_counts[i]`` the stack size; ``known_sprints[i]`` the face-up stack or ().
    ``last`` is the escape card: it selects the deck layout and the class tables.
    """

    last: int
    known: tuple[int, ...]
    sprint_counts: tuple[int, ...]
    known_sprints: tuple[tuple[int, ...], ...]
    unknown: int  # bitmask of the cards 1..last-1 the detective cannot see
    caps: tuple[tuple[int, int, int], ...]  # per position: deck cards the DP may still use
    hand_unknown: tuple[int, int, int]  # per deck: the fugitive's unknown cards in total
    forbidden: tuple[int, ...]  # per position: bitmask of numbers missed while it lay there
    series: tuple[tuple[tuple[int, ...], int], ...]  # failed series: (numbers, positions then)
    pending: bool  # the last hideout is still getting sprint cards
    holds_last: bool  # the escape card is in the fugitive's hand
    stuck_first_turn: bool  # edition 2: one first-turn hideout then a pass
    canonical_order: bool = False  # sprint stacks go in increasing order (option canonical_order)
    canonical_pending: bool = False  # canonical order, mid-stack: the hand above it must pay

    @property
    def size(self) -> int:
        return len(self.known) - 1

    @property
    def tables(self) -> Tables:
        return tables_for(self.last)


def facts_from_state(state: FugitiveState) -> Facts:
    """The detective's facts read straight from a state: one pass over the table, the draw log and
    the guess log (``named_log``), nothing built that the Facts do not keep (the fixed cost of every
    ``belief(state)``).  The same facts as :func:`_facts_by_parts` (the reference, checked equal
    by a test), which serves a state during the setup or without the log.  Only the detective's
    view is read: hideouts where ``revealed``, sprint stacks where shown (not under the escape
    card with option ``escape_sprints="hidden"``), stack sizes, his hand, the public logs and
    the history's action kinds (the stuck first turn); never ``fhand``, ``decks``, a face-down card."""
    named_log = getattr(state, "named_log", None)
    phase = state.phase
    if named_log is None or phase == SETUP:
        return _facts_by_parts(state)
    last = state.layout.last
    size = len(state.hideouts) - 1
    starts = _draws_by_table(state.draw_log, phase, size)
    hideouts, revealed, sprints, hide = (
        state.hideouts,
        state.revealed,
        state.sprints,
        state.hide_escape_sprints,
    )
    known, ups, counts, caps, up_to, face_up, up, first, hand_unknown = _table_pass(
        hideouts, revealed, sprints, tables_for(last).group_of, starts, _setup_drawn(last), last, hide
    )
    unknown = ((1 << last) - 2) & ~face_up & ~state.dhand
    never = ~(unknown | up | first)  # numbers no hideout can be: a series naming one says nothing
    forbidden, series = _log_guesses(named_log, up_to, never)
    canonical, pending, edition2 = state.canonical, phase == F_SPRINT, state.game.options.edition == 2
    facts = object.__new__(Facts)
    facts.__dict__.update(  # as build_facts sets them (no frozen __setattr__ per field)
        last=last,
        known=known,
        sprint_counts=counts,
        known_sprints=ups,
        unknown=unknown,
        caps=caps,
        hand_unknown=hand_unknown,
        forbidden=tuple(forbidden),
        series=tuple(series),
        pending=pending,
        holds_last=last not in known,
        stuck_first_turn=edition2 and _stuck_first_turn(state.history),
        canonical_order=canonical,
        canonical_pending=canonical and pending and counts[-1] > 0,
    )
    return facts


def _table_pass(
    hideouts: list[int],
    revealed: list[bool],
    sprints: list[tuple[int, ...]],
    group_of: tuple[int, ...],
    starts: list[int],
    drawn: tuple[int, int, int],
    last: int,
    hide_escape: bool,
) -> tuple[Any, ...]:
    """:func:`facts_from_state`'s pass over the table: the known hideouts, the shown stacks, the
    stack sizes, the caps (the fugitive's draws by table size, ``starts``, after the setup's
    ``drawn``, less the face-up cards by group), the face-up hideouts by table size (``up_to``),
    the face-up cards, the face-up hideouts past position 0 and position 0's, and the hand's
    unknown cards per deck.  A hideout is read only where revealed, a stack's cards only where
    shown.  Compiled (``_facts.table_pass``) as :func:`_draws_by_table` is."""
    if kernel.COMPILED and _facts is not None:
        made = _facts.table_pass(hideouts, revealed, sprints, group_of, starts, drawn, last, hide_escape)
        if made is not None:
            return made
    size = len(hideouts) - 1
    h = hideouts[0]  # position 0 (card 0): face up, never a deck card, never a guess's hideout
    if revealed[0]:
        known, ups, face_up = [h], [sprints[0]], 1 << h
        for c in sprints[0]:
            face_up |= 1 << c
    else:
        known, ups, face_up = [-1], [()], 0
    first = face_up & (1 << h if h >= 0 else 0)  # position 0's face-up hideout (may hide)
    counts = [len(sprints[0])]
    r0, r1, r2 = drawn
    used = [0, 0, 0, 0, 0]  # face-up cards so far by group (-1, the escape card, last)
    caps = [(0, 0, 0)]
    up = 0
    up_to = [0]  # per table size k: the face-up hideouts among positions 1..k (bits)
    j = 0
    for i in range(1, size + 1):
        r0, r1, r2 = r0 + starts[j], r1 + starts[j + 1], r2 + starts[j + 2]
        j += 3
        s = sprints[i]
        counts.append(len(s))
        if revealed[i]:
            h = hideouts[i]
            known.append(h)
            up |= 1 << h
            used[group_of[h]] += 1
            if s and not (hide_escape and h == last):
                ups.append(s)
                for c in s:
                    face_up |= 1 << c
                    used[group_of[c]] += 1
            else:
                ups.append(())
        else:
            known.append(-1)
            ups.append(())
        caps.append((r0 - used[1], r1 - used[2], r2 - used[3]))
        up_to.append(up)
    hand = (r0 + starts[j] - used[1], r1 + starts[j + 1] - used[2], r2 + starts[j + 2] - used[3])
    return tuple(known), tuple(ups), tuple(counts), tuple(caps), up_to, face_up | up, up, first, hand


def _draws_by_table(draw_log: Any, phase: int, size: int) -> list[int]:
    """The fugitive's dealt draws by the table's size then and deck (``3 * on_table + deck``), two
    more slots than :func:`_holdings`' ``starts`` (which puts the setup deals first).  Compiled
    (``_facts.draws_by_table``) when :data:`kernel.COMPILED`, this loop otherwise and whenever
    the compiled one answers None (an entry it does not handle: the reference decides)."""
    if kernel.COMPILED and _facts is not None:
        made = _facts.draws_by_table(draw_log, phase == DEALING, size)
        if made is not None:
            return made
    starts = [0] * (3 * size + 3)
    if phase == DEALING and draw_log:
        draw_log = draw_log[:-1]  # the last draw is waiting for its card
    fugitive = FUGITIVE
    for player, deck, on_table in draw_log:
        if player == fugitive and on_table <= size:
            starts[3 * on_table + deck] += 1
    return starts


def _log_guesses(
    named_log: Any, up_to: list[int], never: int
) -> tuple[list[int], list[tuple[tuple[int, ...], int]]]:
    """:func:`_guesses_of_log` handed the face-up hideouts by table size (``up_to``) and the
    numbers no hideout can be (``never``, the complement of its ``may_hide``), with the series
    kept already as :func:`build_facts` keeps them (numbers as a sorted tuple): those it would
    filter out are those skipped here.  Compiled (``_facts.log_guesses``) as
    :func:`_draws_by_table` is."""
    if kernel.COMPILED and _facts is not None:
        made = _facts.log_guesses(named_log, up_to, never)
        if made is not None:
            return made
    forbidden, masks = _replay_log(named_log, up_to, never)
    return forbidden, [(tuple(cards_of(named)), on_table) for named, on_table in masks]


@functools.lru_cache(maxsize=64)
def _setup_drawn(last: int) -> tuple[int, int, int]:
    """Per deck, the cards the setup deals the fugitive (``layout_for(last).setup_deals``): what
    he holds of each deck before any hideout, once the setup is over."""
    drawn = [0, 0, 0]
    for d in layout_for(last).setup_deals:
        drawn[d] += 1
    return drawn[0], drawn[1], drawn[2]


def _facts_by_parts(state: FugitiveState) -> Facts:
    """:func:`facts_from_state`'s facts by :func:`build_facts` (the reference; the setup, and a
    state without its guess log, read the guesses from the history).  The deals say nothing the
    draw log does not, except how far the setup went (counted during the setup)."""
    hideouts = [h if r else -1 for h, r in zip(state.hideouts, state.revealed, strict=True)]
    history = state.history
    setup_done = None
    if state.phase == SETUP:
        setup_done = sum(1 for action in history if type(action) is Deal)
    sprints = state.sprints
    if state.hide_escape_sprints:
        face_up_sprints = [s if state.sprints_shown(i) else () for i, s in enumerate(sprints)]
    else:  # what sprints_shown says then, without a call per position
        face_up_sprints = [s if r else () for s, r in zip(sprints, state.revealed, strict=True)]
    return build_facts(
        hideouts=hideouts,
        sprint_counts=[len(s) for s in sprints],
        face_up_sprints=face_up_sprints,
        detective_hand=state.dhand,
        draw_log=state.draw_log,
        phase=state.phase,
        public=[],
        edition=state.game.options.edition,
        layout=state.layout,
        canonical=state.canonical,
        history=history,
        setup_done=setup_done,
        named_log=getattr(state, "named_log", None),
    )


def escape_card_of(obs: FugitiveObservation) -> int:
    """The escape card of the game an observation comes from (the observation does not name it).

    Every card 0..last lies somewhere the observation counts: a hand, a deck, a hideout or a
    sprint stack, so the sizes add up to ``last + 1``.
    """
    on_table = sum(1 + count for _, count, _ in obs.hideouts)
    cards = obs.fugitive_hand_size + obs.detective_hand_size + sum(obs.deck_sizes) + on_table
    last = cards - 1
    layout_for(last)  # validates: a doctored observation gets a clear error
    return last


def facts_from_observation(
    obs: FugitiveObservation, edition: int, canonical: bool = False, history: tuple[str, ...] | None = None
) -> Facts:
    if obs.detective_hand is None:
        raise ValueError("belief needs the detective's view: this observation hides the detective's hand")
    if history is None:
        history = getattr(obs, "history", None)
    if history is None:
        raise ValueError(
            "belief needs the detective's history as well as its observation: "
            "pass state.information_state(DETECTIVE)"
        )
    public: list[tuple[str, int]] = []
    for text in history:
        verb, _, arg = text.partition(" ")
        public.append((verb, int(arg) if verb in ("add", "guess") else 0))
    hideouts, counts, ups = [], [], []
    for (value, count, cards), r in zip(obs.hideouts, obs.revealed, strict=True):
        hideouts.append(value if r and value is not None else -1)
        counts.append(count)
        ups.append(tuple(cards) if r and cards is not None else ())
    dhand = 0
    for c in obs.detective_hand:
        dhand |= 1 << c
    return build_facts(
        hideouts=hideouts,
        sprint_counts=counts,
        face_up_sprints=ups,
        detective_hand=dhand,
        draw_log=obs.draw_log,
        phase=obs.phase,
        public=public,
        edition=edition,
        layout=layout_for(escape_card_of(obs)),
        canonical=canonical,
    )


def build_facts(
    *,
    hideouts: list[int],
    sprint_counts: list[int],
    face_up_sprints: list[tuple[int, ...]],
    detective_hand: int,
    draw_log: Any,
    phase: int,
    public: list[tuple[str, int]],
    edition: int,
    layout: Layout,
    canonical: bool,
    history: Any = None,
    setup_done: int | None = None,
    named_log: Any = None,
) -> Facts:
    """The facts from what the detective sees; the guesses are read from ``named_log`` (a state's
    log of them, :func:`_guesses_of_log`) when given, else replayed from ``history`` (a state's
    actions, :func:`_guesses_of_history`) when given, else from ``public``; ``setup_done``
    (the setup deals made, during the setup) when the caller read it already
    (:func:`facts_from_state`).

    A failed series is kept only if each of its numbers could be a hideout (unseen, or a face-up
    hideout): one that cannot makes it a certain miss, which says nothing (:func:`active_series`
    would drop it; dropped here, the long series of random play cost no tuple)."""
    last = layout.last
    face_up = 0
    for h, s in zip(hideouts, face_up_sprints, strict=True):
        if h >= 0:
            face_up |= 1 << h
        for c in s:
            face_up |= 1 << c
    unknown = ((1 << last) - 2) & ~face_up & ~detective_hand
    may_hide = unknown
    for h in hideouts:
        if h >= 0:
            may_hide |= 1 << h

    caps, hand_unknown = _holdings(hideouts, face_up_sprints, draw_log, phase, public, layout, setup_done)
    if named_log is not None:  # its series that cannot constrain are dropped in the replay
        forbidden, series_masks = _guesses_of_log(hideouts, named_log, may_hide)
        stuck = edition == 2 and _stuck_first_turn(history)
    elif history is not None:
        forbidden, series_masks, stuck = _guesses_of_history(hideouts, history)
    else:
        forbidden, series_masks, stuck = _guesses(hideouts, public)
    series_constraints = [
        (tuple(cards_of(mask)), deadline) for mask, deadline in series_masks if not mask & ~may_hide
    ]
    # the escape card face up ends the fugitive's run; otherwise it is in the fugitive's hand
    facts = object.__new__(Facts)
    # the frozen dataclass's __init__ sets each field by object.__setattr__: 14 calls, a third of
    # the facts' cost on an easy position; the same fields set at once (checked equal by a test)
    facts.__dict__.update(
        last=last,
        known=tuple(hideouts),
        sprint_counts=tuple(sprint_counts),
        known_sprints=tuple(map(tuple, face_up_sprints)),
        unknown=unknown,
        caps=tuple(caps),
        hand_unknown=hand_unknown,
        forbidden=tuple(forbidden),
        series=tuple(series_constraints),
        pending=phase == F_SPRINT,
        holds_last=last not in hideouts,
        stuck_first_turn=edition == 2 and stuck,
        canonical_order=canonical,
        canonical_pending=canonical and phase == F_SPRINT and sprint_counts[-1] > 0,
    )
    return facts


def _holdings(
    hideouts: list[int],
    face_up_sprints: list[tuple[int, ...]],
    draw_log: Any,
    phase: int,
    public: list[tuple[str, int]],
    layout: Layout,
    setup_done: int | None = None,
) -> tuple[list[tuple[int, int, int]], tuple[int, int, int]]:
    """What the fugitive holds, and when: per position, the deck cards it may still use there
    (drawn before, less the face-up ones), and per deck its unknown cards in total.

    The setup deals, then one card per dealt fugitive draw (a draw still waiting for its card
    counts for nothing yet)."""
    size = len(hideouts) - 1
    group_of_card = tables_for(layout.last).group_of
    setup_deals = layout.setup_deals
    if phase != SETUP:
        setup_done = len(setup_deals)
    elif setup_done is None:
        setup_done = sum(1 for verb, _ in public if verb == "deal")
    # per position and deck, flat: the fugitive's draws that start counting there
    starts = [0] * (3 * (size + 2))
    for d in setup_deals[:setup_done]:
        starts[d] += 1
    if phase == DEALING and draw_log:
        draw_log = draw_log[:-1]  # the last draw is waiting for its card
    for player, deck, on_table in draw_log:
        if player == FUGITIVE and on_table <= size:
            starts[3 * on_table + 3 + deck] += 1
    r0, r1, r2 = starts[0], starts[1], starts[2]  # drawn before the position
    used = [0, 0, 0, 0, 0]  # face-up cards so far by group (-1, the escape card, last)
    caps: list[tuple[int, int, int]] = [(0, 0, 0)]
    for i in range(1, size + 1):
        r0, r1, r2 = r0 + starts[3 * i], r1 + starts[3 * i + 1], r2 + starts[3 * i + 2]
        h = hideouts[i]
        if h >= 0:
            used[group_of_card[h]] += 1
        for c in face_up_sprints[i]:
            used[group_of_card[c]] += 1
        caps.append((r0 - used[1], r1 - used[2], r2 - used[3]))
    end = 3 * size + 3
    hand_unknown = (
        r0 + starts[end] - used[1],
        r1 + starts[end + 1] - used[2],
        r2 + starts[end + 2] - used[3],
    )
    return caps, hand_unknown


def _guesses(
    hideouts: list[int], public: list[tuple[str, int]]
) -> tuple[list[int], list[tuple[int, int]], bool]:
    """What the detective's guesses say: per position the numbers missed while it lay there, the
    failed series that constrain (their numbers as a bitmask, positions then), and whether the
    fugitive passed after a single first-turn hideout (edition 2's stuck first turn, when the
    edition says so).

    Rules v2 let the detective name any number; a series holding one that was certainly no
    face-down hideout then (face up already) says nothing, so the guesses are replayed in order to
    know what was face up when (held numbers and sprint cards are never counted as hideouts)."""
    size = len(hideouts) - 1
    # the detective's guesses, replayed in order: a hit turns its hideout face up (``found``); a
    # miss rules its number out of the positions then on the table; a failed series says that not
    # all of its numbers were face-down hideouts, unless one of them was certainly not one then
    # (face up already: rules v2 let the detective name it), and then it says nothing at all
    missed_at = [0] * (size + 1)  # numbers missed with that many hideouts on the table
    series_constraints: list[tuple[int, int]] = []
    on_table, pending_mask = 0, 0  # a series' numbers as bits: the rules keep them distinct
    on_table_up = 0  # the numbers of the hideouts on the table that are face up by now (bits)
    found = 0  # hideouts turned face up by the detective so far (bit per number)
    first_turn_hides, first_turn_passed, first_turn = 0, False, True
    for verb, arg in public:
        if verb == "add":  # the most frequent entry: a series' numbers
            pending_mask |= 1 << arg
            if first_turn and on_table:
                first_turn = False
            continue
        if first_turn and on_table > 0 and (verb == "draw" or verb == "guess"):
            first_turn = False  # the detective's first action ends the fugitive's first turn
        if verb == "hide":
            on_table += 1
            if on_table <= size and hideouts[on_table] >= 0:
                on_table_up |= 1 << hideouts[on_table]
            if first_turn:
                first_turn_hides += 1
        elif verb == "guess":
            if on_table_up >> arg & 1:
                found |= 1 << arg  # a hit (or a face-up hideout named again): face up from now on
            else:
                missed_at[on_table] |= 1 << arg
        elif verb == "pass" and first_turn:
            first_turn_passed = True
        elif verb == "reveal":
            if not found & pending_mask:  # else a certain miss: it says nothing
                if pending_mask & ~on_table_up:
                    series_constraints.append((pending_mask, on_table))
                else:  # the series hit: its hideouts are face up from now on
                    found |= pending_mask
            pending_mask = 0
    return _forbidden(missed_at), series_constraints, first_turn_passed and first_turn_hides == 1


def _forbidden(missed_at: list[int]) -> list[int]:
    """Per position, the numbers it cannot hold: a number missed with k hideouts on the table
    was none of positions 1..k."""
    forbidden = [0] * len(missed_at)
    running = 0
    for i in range(len(missed_at) - 1, 0, -1):
        running |= missed_at[i]
        forbidden[i] = running
    return forbidden


def _guesses_of_history(hideouts: list[int], history: Any) -> tuple[list[int], list[tuple[int, int]], bool]:
    """:func:`_guesses` read from a state's actions rather than from public steps: the same replay
    (kept step for step alike, the two are checked equal on every stored position), by the
    actions' classes, without a list of steps to build first.  Actions the detective does not see
    (sprint cards, done) and deals change nothing here.  A series' numbers stay a bitmask (random
    play's long series of certain misses, dropped by :func:`build_facts`, cost no tuple)."""
    size = len(hideouts) - 1
    missed_at = [0] * (size + 1)
    series_constraints: list[tuple[int, int]] = []
    on_table, pending_mask = 0, 0  # a series' numbers as bits: the rules keep them distinct
    on_table_up = 0
    found = 0
    first_turn_hides, first_turn_passed, first_turn = 0, False, True
    add, hide, guess, draw, reveal, pass_ = Add, Hide, Guess, Draw, Reveal, Pass
    for action in history:
        kind = type(action)
        if kind is add:
            pending_mask |= 1 << action.number
            if first_turn and on_table:
                first_turn = False
            continue
        if kind in _SILENT:
            continue
        if kind is draw:
            if first_turn and on_table > 0:
                first_turn = False
        elif kind is hide:
            on_table += 1
            if on_table <= size and hideouts[on_table] >= 0:
                on_table_up |= 1 << hideouts[on_table]
            if first_turn:
                first_turn_hides += 1
        elif kind is guess:
            if first_turn and on_table > 0:
                first_turn = False
            number = action.number
            if on_table_up >> number & 1:
                found |= 1 << number
            else:
                missed_at[on_table] |= 1 << number
        elif kind is pass_:
            if first_turn:
                first_turn_passed = True
        elif kind is reveal:
            if not found & pending_mask:
                if pending_mask & ~on_table_up:
                    series_constraints.append((pending_mask, on_table))
                else:
                    found |= pending_mask
            pending_mask = 0
    return _forbidden(missed_at), series_constraints, first_turn_passed and first_turn_hides == 1


def _guesses_of_log(
    hideouts: list[int], named_log: Any, may_hide: int = -1
) -> tuple[list[int], list[tuple[int, int]]]:
    """:func:`_guesses_of_history`'s forbidden numbers and failed series read from a state's log
    of the detective's guesses (``named_log``: hideouts on the table, numbers named as a bitmask,
    whether a series), one entry per guess and per series revealed: the same replay without the
    rest of the history (checked equal on every stored position).  A number named is looked up
    among the hideouts then on the table that are face up now (``up_to``).

    A series naming a number outside ``may_hide`` (the numbers that could be hideouts, face-up
    hideouts included; every number by default) is skipped at once: it neither hit (its numbers
    would all be face-up hideouts, which may hide) nor constrains (:func:`build_facts` drops it);
    random play's long series are about half the log, and most are such."""
    size = len(hideouts) - 1
    up_to = [0] * (size + 1)  # per table size k: the face-up hideouts among positions 1..k (bits)
    up = 0
    for i in range(1, size + 1):
        h = hideouts[i]
        if h >= 0:
            up |= 1 << h
        up_to[i] = up
    return _replay_log(named_log, up_to, ~may_hide)


def _replay_log(named_log: Any, up_to: list[int], never: int) -> tuple[list[int], list[tuple[int, int]]]:
    """The replay of :func:`_guesses_of_log` and :func:`_log_guesses` (``never``: the numbers no
    hideout can be)."""
    missed_at = [0] * len(up_to)
    series_constraints: list[tuple[int, int]] = []
    found = 0  # numbers the detective found (hit or named again face up), as in the replay
    for on_table, named, series in named_log:
        if not series:
            if up_to[on_table] & named:
                found |= named
            else:
                missed_at[on_table] |= named
        elif named & never:
            continue  # no hit, and no constraint kept
        elif not found & named:  # else a certain miss: it says nothing
            if named & ~up_to[on_table]:
                series_constraints.append((named, on_table))
            else:  # the series hit: its hideouts are face up from now on
                found |= named
    return _forbidden(missed_at), series_constraints


def _stuck_first_turn(history: Any) -> bool:
    """Whether the fugitive passed after a single first-turn hideout, from a state's actions: the
    first turn replayed as :func:`_guesses_of_history` does, up to the detective's first action
    once a hideout lies on the table (it ends the first turn; nothing later matters here).
    Compiled (``_facts.stuck_first_turn``) as :func:`_draws_by_table` is."""
    if kernel.COMPILED and _facts is not None:
        made = _facts.stuck_first_turn(history, Hide, Pass, Add, Draw, Guess)
        if made is not None:
            return made
    on_table, passed = 0, False
    hide, pass_, add, draw, guess = Hide, Pass, Add, Draw, Guess
    for action in history:
        kind = type(action)
        if kind is hide:
            on_table += 1
        elif kind is pass_:
            passed = True
        elif (kind is add or kind is draw or kind is guess) and on_table:
            break
    return passed and on_table == 1


_SILENT = frozenset((Deal, Sprint, Done))
"""Actions that say nothing to the guesses' replay: deals, and the sprint cards the detective
does not see."""


def reachable_values(facts: Facts) -> list[int]:
    """Per position, a bitmask of values a hideout can take (ignoring card counts): prunes series.

    A hideout at ``i`` lies 1 .. ``span`` above one at ``i - 1`` (3 plus the footprints of its
    sprint cards: 2 each, 1 for a face-up odd one), the shifted copies doubled in place (one pass,
    no call per position: the fixed cost of every count).  A face-up hideout ``k`` only asks
    whether some value ``k - span .. k - 1`` was reachable (one mask, no copies), and the common
    span 3 is three shifts.  Compiled (``_facts.reachable``) as :func:`_draws_by_table` is."""
    known, counts, shown_all = facts.known, facts.sprint_counts, facts.known_sprints
    forbidden, unknown, size = facts.forbidden, facts.unknown, len(facts.known) - 1
    pending_at, last = (size if facts.pending else -1), facts.last
    if kernel.COMPILED and _facts is not None:
        made = _facts.reachable(known, counts, shown_all, forbidden, unknown, pending_at, last, STEP_LIMIT)
        if made is not None:
            return made
    reach = [1]
    r = 1
    for i in range(1, size + 1):
        if not r:
            reach.extend([0] * (size + 1 - i))
            break
        shown = shown_all[i]
        span = STEP_LIMIT + 2 * counts[i]
        if shown:
            span -= sum(map(_ODD, shown))
        if i == pending_at:
            span = last
        k = known[i]
        if k >= 0:  # (acc << 1) & (1 << k) below: bit k - 1 of acc, some bit k - span .. k - 1 of r
            below = r & ((1 << k) - 1)
            low = k - span if span > 1 else k - 1
            if low > 0:
                below >>= low
            r = 1 << k if below else 0
        else:
            if span == 3:
                acc = r | r << 1 | r << 2
            else:
                acc, length = r, 1
                while length < span:
                    step = length if length + length <= span else span - length
                    acc |= acc << step
                    length += step
            r = (acc << 1) & unknown & ~forbidden[i]
        reach.append(r)
    return reach


_ODD = (1).__and__
"""A card's odd footprint (``1 & c``), mapped over a face-up stack without a generator."""


def spread_up(bits: int, span: int) -> int:
    """Bits ``p + 1 .. p + span`` for every bit ``p`` of ``bits``: the values a hideout can take
    after one at ``p``.  Shifted copies doubled (a few big-int operations, not one per bit)."""
    if span <= 0:
        return 0
    acc, length = bits, 1
    while length < span:
        step = min(length, span - length)
        acc |= acc << step
        length += step
    return acc << 1


def spread_down(bits: int, span: int) -> int:
    """Bits ``p`` such that ``bits`` holds one of ``p + 1 .. p + span``: the values from which a
    hideout can go on to one of ``bits`` (the converse of :func:`spread_up`)."""
    if span <= 0:
        return 0
    acc, length = bits >> 1, 1
    while length < span:
        step = min(length, span - length)
        acc |= acc >> step
        length += step
    return acc


def active_series(facts: Facts, reach: list[int] | None = None) -> list[tuple[tuple[int, ...], int]]:
    """The failed series that can still constrain the worlds, their numbers trimmed."""
    if not facts.series:
        return []
    if reach is None:
        reach = reachable_values(facts)
    # per table size d: the face-up hideouts among positions 1..d, and the values the face-down
    # ones among them can take (bits)
    size = facts.size
    up_to, can_to = [0] * (size + 1), [0] * (size + 1)
    for i in range(1, size + 1):
        known = facts.known[i]
        up_to[i] = up_to[i - 1] | (1 << known if known >= 0 else 0)
        can_to[i] = can_to[i - 1] | (reach[i] if known < 0 else 0)
    out = []
    for numbers, deadline in facts.series:
        up, can = up_to[deadline], can_to[deadline]
        rest = []
        satisfied = False
        for n in numbers:
            if up >> n & 1:
                continue  # known to be a hideout in time: it matches for sure
            if not can >> n & 1:
                satisfied = True  # this number cannot be a hideout then: the series failed anyway
                break
            rest.append(n)
        if satisfied:
            continue
        if not rest:
            raise ValueError(f"inconsistent observation: the failed series {numbers} is all hideouts")
        out.append((tuple(rest), deadline))
    return sorted(set(out))


def advance(progress: int, active: list[tuple[int, tuple[int, ...], int]], v: int, i: int) -> int:
    """Move every failed series past hideout ``v`` at position ``i``; -1 if one would now hold."""
    for j, numbers, deadline in active:
        shift = 6 * j
        p = (progress >> shift) & 63
        if p != DONE:
            target = numbers[p]
            if v > target:
                p = DONE  # a number of the series was skipped: the series fails, as observed
            elif v == target:
                p += 1
                if p == len(numbers):
                    return -1  # every number would have been a hideout: the series would have hit
            if i == deadline and p != DONE:
                p = DONE
            progress = (progress & ~(63 << shift)) | (p << shift)
    return progress


def facts_key(facts: Facts) -> tuple[Any, ...]:
    return (
        facts.last,
        facts.known,
        facts.sprint_counts,
        facts.known_sprints,
        facts.unknown,
        facts.caps,
        facts.hand_unknown,
        facts.forbidden,
        facts.series,
        facts.pending,
        facts.holds_last,
    )


def facts_of(
    state_or_observation: FugitiveState | FugitiveObservation | InformationState,
    edition: int | None,
    canonical_order: bool,
) -> Facts:
    if isinstance(state_or_observation, FugitiveState):
        return facts_from_state(state_or_observation)
    if isinstance(state_or_observation, FugitiveObservation):
        return facts_from_observation(state_or_observation, edition or 1, canonical_order)
    if isinstance(state_or_observation, InformationState) and isinstance(
        state_or_observation.observation, FugitiveObservation
    ):
        return facts_from_observation(
            state_or_observation.observation, edition or 1, canonical_order, state_or_observation.history
        )
    raise TypeError(
        "belief needs a FugitiveState or the detective's information state, "
        f"got {type(state_or_observation).__name__}"
    )
