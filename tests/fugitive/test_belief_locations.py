"""Card locations (sprint / hand / deck of every unseen card) from the count, checked twice:

* against a brute-force listing of every (world, deal order) on small decks (option
  ``escape_card``), both measures, under every option that changes what a guess reveals (both
  editions, ``refuse_known_numbers``, both ``manhunt`` readings, canonical order), mid-turn too;
* against the slow path the library used before (kept here only as that check): a second, *full*
  programme (a layer per group, no group closed early, the last stack laid in layers), every final
  state's class shares from its counts, walked backward in pure Python.  It shares the moves and
  the final weights with the count, not the closing, the pairing nor the share pass.

And that one count serves the belief: its total, its hideout probabilities and then, on demand,
its card locations (the programme is built once).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction

import pytest
from fugitive_positions import random_position
from test_belief_brute_force import OPTIONS, positions, unseen_cards, world_weights

from gamelib.fugitive.belief import belief as belief_of_state
from gamelib.fugitive.belief import build, clear_caches, facts_from_state, probabilities
from gamelib.fugitive.belief.bits import H_SH, HE_SH, JM, LOWER, M_SH, NEED, U_SH, VALUE
from gamelib.fugitive.belief.facts import Facts
from gamelib.fugitive.belief.programme import Programme
from gamelib.fugitive.belief.tables import CLASSES, GROUPS, coef, falling
from gamelib.fugitive.rules import SETUP, FugitiveState, cards_of

Where = tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]


# ------------------------------------------------------------------------------ the slow path
def slow_card_locations(facts: Facts, measure: str, hideout: tuple[float, ...]) -> Where:
    """P(sprint), P(hand), P(deck) per number on the full programme (the old path)."""
    return _full_card_locations(build(facts, measure, full=True), hideout)


Convolved = list[tuple[int, list[int]]]
"""Per number of marked even cards in the hand: (weight, per group [sprint odd, sprint even,
hand odd, hand even] sums) of the completions."""


def shares(
    prog: Programme, state: int, memo: dict[tuple[int, int, int], Convolved] | None = None
) -> list[float]:
    """Per class: the completions of ``state`` weighted by the share of the class's non-hideout
    cards under sprint stacks (entries 2c) and in the hand (entries 2c + 1).

    The sums are exact integers until the last division by the class's free cards: the unmarked
    cards of a group are a uniform choice from its pool, and ``falling(pool, f) * f / pool`` and
    ``falling(pool, f) * C(pool - f, r) * r / pool`` are integers.  The groups' sums read only
    the groups' counts: ``memo`` keeps them (:func:`_convolved`).
    """
    facts = prog.facts
    need = (state >> NEED) & 127 if facts.pending else 0
    marks = (state >> JM) & 63 if facts.pending else 0
    limit = prog.hand_count if need else 0
    conv = _convolved(prog, state, limit, {} if memo is None else memo)
    return _finish(prog, state, conv, marks, need)


def _convolved(
    prog: Programme, state: int, limit: int, memo: dict[tuple[int, int, int], Convolved]
) -> Convolved:
    """The groups' completions and share sums of ``state``, convolved over the hand's marks.

    The sums over groups 0..g read only those groups' counts (``LOWER[g]``): ``memo`` keeps every
    such prefix by ``g`` and those counts, so final states that share their first groups' counts share that work."""
    deals = prog.measure == "deals"
    zero = [0] * (4 * GROUPS)
    # per group, per hand-mark count: (weight, [sprint odd, sprint even, hand odd, hand even] sums)
    conv: list[tuple[int, list[int]]] = [(1, zero)]
    first = 0
    for g in range(GROUPS - 1, -1, -1):
        hit = memo.get((g, state & LOWER[g], limit))
        if hit is not None:
            conv, first = hit, g + 1
            break
    for g in range(first, GROUPS):
        weights = prog._group_weights(state, g, limit)
        u = (state >> U_SH[g]) & 31
        h = (state >> H_SH[g]) & 15
        he = (state >> HE_SH[g]) & 15
        m = (state >> M_SH[g]) & 15
        a = prog.gavail[g]
        evens, odds = prog.avail[2 * g + 1] - he, prog.avail[2 * g] - (h - he)
        f = u - h - m
        hand = a - u if g == 0 else prog.fug[g] - u
        base = falling(evens, m) * (math.factorial(hand) if deals and g else 1)
        part: list[tuple[int, list[int]]] = []
        for jp, w in enumerate(weights):
            if not w:
                part.append((0, [0, 0, 0, 0]))
                continue
            pool = a - h - m - jp
            rest = hand - jp
            core = base * math.comb(evens - m, jp)
            spr = core * f * falling(pool - 1, f - 1) * math.comb(pool - f, rest) if f else 0
            hnd = core * falling(pool - 1, f) * math.comb(pool - f - 1, rest - 1) if rest else 0
            free_evens = evens - m - jp
            part.append((w, [spr * odds, m * w + spr * free_evens, hnd * odds, jp * w + hnd * free_evens]))
        nxt: dict[int, tuple[int, list[int]]] = {}
        for a_, (w1, x1) in enumerate(conv):
            if not w1:
                continue
            for b_, (w2, x2) in enumerate(part):
                if not w2:
                    continue
                x = [v * w2 for v in x1]
                for q in range(4):
                    x[4 * g + q] += w1 * x2[q]
                old = nxt.get(a_ + b_)
                if old is None:
                    nxt[a_ + b_] = (w1 * w2, x)
                else:
                    nxt[a_ + b_] = (old[0] + w1 * w2, [p + q for p, q in zip(old[1], x, strict=True)])
        conv = [nxt.get(k, (0, zero)) for k in range(max(nxt, default=-1) + 1)]
        memo[g, state & LOWER[g], limit] = conv
    return conv


def _finish(prog: Programme, state: int, conv: Convolved, marks: int, need: int) -> list[float]:
    """The share sums weighed by the footprint identity's coefficient, per class, divided by the
    class's free cards."""
    facts = prog.facts
    sums = [0] * (2 * CLASSES)
    for jp, (_, x) in enumerate(conv):
        c = coef(marks + jp, need) if facts.pending else 1
        if not c:
            continue
        for g in range(GROUPS):
            for parity in range(2):
                cls = 2 * g + parity
                sums[2 * cls] += c * x[4 * g + parity]
                sums[2 * cls + 1] += c * x[4 * g + 2 + parity]
    out = [0.0] * (2 * CLASSES)
    for g in range(GROUPS):
        h = (state >> H_SH[g]) & 15
        he = (state >> HE_SH[g]) & 15
        free = (prog.avail[2 * g] - (h - he), prog.avail[2 * g + 1] - he)
        for parity in range(2):
            if free[parity]:
                cls = 2 * g + parity
                out[2 * cls] = sums[2 * cls] / free[parity]
                out[2 * cls + 1] = sums[2 * cls + 1] / free[parity]
    return out


def _full_card_locations(
    prog: Programme, hideout: tuple[float, ...]
) -> tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]:
    """P(sprint), P(hand), P(deck) per number.

    For a card ``v`` of class ``c``, by symmetry among the class's cards that are not hideouts,
    P(v sprint) = E[rho] - E[rho 1(v hideout)] with rho the share of class-``c`` non-hideout
    cards under sprint stacks (likewise for the hand); the second term needs a backward pass of
    rho, for the classes a hideout can come from.
    """
    facts = prog.facts
    class_of = facts.tables.class_of
    # every final state, even one whose signed weight (the footprint identity) cancels to 0:
    # its weighted shares need not cancel
    memo: dict[tuple[int, int, int], Convolved] = {}
    share_of = {key: shares(prog, key, memo) for key in prog.forward[-1]}
    share_of = {key: s for key, s in share_of.items() if any(s)}
    interest = sorted(
        {class_of[v] for i in range(1, facts.size + 1) if prog.hidden[i] for v in prog.values[i]}
    )
    width = 2 * len(interest)
    back: dict[int, list[float]] = {
        k: [s[2 * c + q] for c in interest for q in (0, 1)] for k, s in share_of.items()
    }
    joint = _joint_python(prog, back, width)
    expect = [0.0] * (2 * CLASSES)
    last = prog.forward[-1]
    for key, s in share_of.items():
        w = last[key]
        for j in range(2 * CLASSES):
            expect[j] += w * s[j]
    sprint = [0.0] * 43
    hand = [0.0] * 43
    deck = [0.0] * 43
    total = float(prog.total)
    for v in cards_of(facts.unknown):
        c = class_of[v]
        in_sprint, in_hand = expect[2 * c], expect[2 * c + 1]
        if c in interest:
            k = 2 * interest.index(c)
            in_sprint -= joint[k][v]
            in_hand -= joint[k + 1][v]
        sprint[v] = max(0.0, in_sprint / total)
        hand[v] = max(0.0, in_hand / total)
        deck[v] = max(0.0, 1.0 - hideout[v] - sprint[v] - hand[v])
    if facts.holds_last:
        hand[facts.last] = 1.0
    return tuple(sprint), tuple(hand), tuple(deck)


def _joint_python(prog: Programme, back: dict[int, list[float]], width: int) -> list[list[float]]:
    """The backward pass of the shares in pure Python: per share, per number, the weight of the
    worlds where that number is a face-down hideout, times the share (the pure-Python path)."""
    joint = [[0.0] * 43 for _ in range(width)]
    for t in range(len(prog.layers) - 1, -1, -1):
        i, kind, _ = prog.layers[t]
        cur: dict[int, list[float]] = {}
        record = kind == VALUE and prog.hidden[i]
        for src, fw in prog.forward[t].items():
            acc = [0.0] * width
            live = False
            for dst, w, label in prog.moves(t, src):  # regenerated: the saved edges' format is the count's
                b = back.get(dst)
                if b is None:
                    continue
                live = True
                for k in range(width):
                    acc[k] += w * b[k]
                if record:
                    for k in range(width):
                        joint[k][label] += fw * w * b[k]
            if live:
                cur[src] = acc
        back = cur
    return joint


# ------------------------------------------------------------------------------ brute force
def enumerated_locations(state: FugitiveState, measure: str) -> tuple[int, dict[str, Counter[int]]]:
    """The total weight and, per place, each card's weight there, by listing every world (with
    its deal orders under ``deals``): the hideouts, the stacks, the hand, the rest in a deck."""
    weights = world_weights(state)
    unseen = unseen_cards(state)
    places: dict[str, Counter[int]] = {name: Counter() for name in ("hideout", "sprint", "hand", "deck")}
    total = 0
    for (row, stacks, hand), orders in weights.items():
        w = orders if measure == "deals" else 1
        total += w
        hidden = {row[i] for i in state.hidden_positions()}
        sprints = set().union(*(stacks[i] for i in range(len(row)) if not state.sprints_shown(i)))
        for c in unseen:
            if c in hidden:
                places["hideout"][c] += w
            elif c in sprints:
                places["sprint"][c] += w
            elif c in hand:
                places["hand"][c] += w
            else:
                places["deck"][c] += w
    return total, places


def assert_locations_equal_the_listing(state: FugitiveState, measure: str) -> None:
    clear_caches()
    got = belief_of_state(state, measure=measure)
    total, places = enumerated_locations(state, measure)
    assert total > 0
    probs = {
        "hideout": got.hideout_prob,
        "sprint": got.sprint_prob,
        "hand": got.hand_prob,
        "deck": got.deck_prob,
    }
    for name, counter in places.items():
        for v in range(1, state.last):
            expected = float(Fraction(counter[v], total))
            assert probs[name][v] == pytest.approx(expected, abs=1e-12), (name, v, measure, state.history)


@pytest.mark.parametrize("measure", ["deals", "worlds"])
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_card_locations_equal_the_enumeration(options: dict, measure: str) -> None:
    checked = with_sprints = 0
    for state in positions(options, seed=300 + len(str(options)), count=8):
        if not belief_of_state(state).exact:
            continue  # the documented relaxations count a superset: nothing exact to compare
        assert_locations_equal_the_listing(state, measure)
        checked += 1
        with_sprints += any(state.sprints[i] for i in state.hidden_positions())
    assert checked >= 2
    assert with_sprints >= 1, "no position with a face-down sprint stack: the shares went untested"


def test_card_locations_mid_turn_equal_the_enumeration() -> None:
    """The fugitive laying a sprint stack (the hand may pay the pending hideout's footprints)."""
    found = 0
    for seed in range(400):
        state = random_position(seed, random.Random(seed).randrange(10, 40), escape_card=11)
        if state.phase != 3 or not state.sprints[-1]:  # F_SPRINT with a card already laid
            continue
        for measure in ("deals", "worlds"):
            assert_locations_equal_the_listing(state, measure)
        found += 1
        if found == 3:
            break
    assert found >= 2


# ------------------------------------------------------------------------------ the slow path, published deck
@pytest.mark.parametrize("measure", ["deals", "worlds"])
def test_card_locations_equal_the_full_programme_pass(measure: str) -> None:
    rng = random.Random(5)
    compared = 0
    for seed in range(40):
        options = {"edition": 2} if seed % 3 == 0 else {}
        state = random_position(seed, rng.randrange(20, 90), **options)
        if state.phase == SETUP:
            continue
        clear_caches()
        got = belief_of_state(state, measure=measure)
        slow = slow_card_locations(facts_from_state(state), measure, got.hideout_prob)
        for fast_probs, slow_probs in zip((got.sprint_prob, got.hand_prob, got.deck_prob), slow, strict=True):
            assert fast_probs == pytest.approx(slow_probs, abs=1e-12)
        compared += any(0 < p < 1 for p in got.sprint_prob)
        if compared == 12:
            break
    assert compared >= 6, "too few positions with face-down sprint cards"


def test_one_count_serves_total_hideouts_and_card_locations(monkeypatch: pytest.MonkeyPatch) -> None:
    """The programme is built once: belief() counts, the card locations walk that count.  (Small
    positions are counted without a programme, by the direct counts, and so are their card
    locations: their own tests check that no programme is built there.)"""
    monkeypatch.setattr(probabilities, "DIRECT_COUNT", False)
    calls: Counter[str] = Counter()
    real = probabilities.build

    def counting_build(*args, **kwargs):
        calls["full" if kwargs.get("full") else "count"] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(probabilities, "build", counting_build)
    state = random_position(3, 70)
    assert any(state.sprints[i] for i in state.hidden_positions())
    clear_caches()
    b = belief_of_state(state)
    assert probabilities.cache_sizes()["counted"] == 1
    where = (b.sprint_prob, b.hand_prob, b.deck_prob)
    assert calls == Counter(count=1), calls
    assert probabilities.cache_sizes()["counted"] == 0  # let go once the locations are kept
    face_down = sum(len(s) for i, s in enumerate(state.sprints) if not state.sprints_shown(i))
    assert sum(where[0]) == pytest.approx(face_down)
    # a count dropped from the cache is counted again, with the same answer
    clear_caches()
    again = belief_of_state(state)
    for key in list(probabilities._COUNTED):
        probabilities._take_counted(key)
    assert (again.sprint_prob, again.hand_prob, again.deck_prob) == where
    assert calls == Counter(count=3), calls


def test_kept_counts_are_bounded_and_their_edges_tallied(monkeypatch: pytest.MonkeyPatch) -> None:
    """belief() keeps its latest counts for the card locations: at most _COUNTED_SIZE of them and
    _COUNTED_EDGES edges (the newest always), their edges a running total.  The direct count
    (positions whose only face-down stack is the last) keeps no programme, so it is off here."""
    monkeypatch.setattr(probabilities, "DIRECT_COUNT", False)
    monkeypatch.setattr(probabilities, "_COUNTED_SIZE", 3)
    clear_caches()
    for seed in range(8):
        belief_of_state(random_position(200 + seed, 40))
        kept = probabilities._COUNTED
        assert 1 <= len(kept) <= 3
        assert probabilities._counted_edges[0] == sum(p.edges for p in kept.values())
    monkeypatch.setattr(probabilities, "_COUNTED_EDGES", 0)
    belief_of_state(random_position(300, 40))
    assert len(probabilities._COUNTED) == 1  # the newest is kept whatever its size
    clear_caches()
    assert probabilities._counted_edges[0] == 0 and not probabilities._COUNTED


def test_card_locations_sum_to_the_cards_in_each_place() -> None:
    for seed in range(6):
        state = random_position(100 + seed, 60, edition=2)
        if state.phase == SETUP:
            continue
        clear_caches()
        b = belief_of_state(state)
        for v in cards_of(facts_from_state(state).unknown):
            where = b.hideout_prob[v] + b.sprint_prob[v] + b.hand_prob[v] + b.deck_prob[v]
            assert where == pytest.approx(1.0, abs=1e-12)
        face_down = sum(len(s) for i, s in enumerate(state.sprints) if not state.sprints_shown(i))
        assert sum(b.sprint_prob) == pytest.approx(face_down)
        assert sum(b.hand_prob) == pytest.approx(state.fhand.bit_count())
        assert math.isclose(sum(b.hideout_prob), len(state.hidden_positions()))
