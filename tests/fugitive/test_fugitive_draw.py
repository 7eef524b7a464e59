"""Fugitive's drawing: every perspective draws, and hides exactly what that player cannot see."""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from types import SimpleNamespace

import matplotlib
import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

import gamelib
from gamelib.agents.basic import RandomAgent
from gamelib.core.drawing import LabelCollection
from gamelib.fugitive import analysis as fugitive_analysis
from gamelib.fugitive.board import PUBLISHED
from gamelib.fugitive.draw import MAX_PER_ROW, UNIT_INCHES, _row_layout, draw_belief, draw_state
from gamelib.fugitive.rules import (
    DETECTIVE,
    FUGITIVE,
    HUNTING,
    OVER,
    FugitiveState,
    mask_of,
)

PERSPECTIVES = (None, FUGITIVE, DETECTIVE)


def random_state(seed: int, actions: int) -> FugitiveState:
    game = gamelib.make("fugitive")
    state = gamelib.play(game, [RandomAgent(), RandomAgent()], seed=seed, max_actions=actions)
    assert isinstance(state, FugitiveState)
    return state


STATES = [
    random_state(seed, actions) for seed, actions in [(0, 6), (1, 30), (2, 60), (3, 90), (4, 400), (5, 45)]
]


def labels(fig: Figure) -> list[str]:
    """Every string the figure shows: glyph labels and any ordinary Text artist."""
    out: list[str] = []
    for ax in fig.axes:
        for artist in ax.collections:
            if isinstance(artist, LabelCollection):
                out.extend(artist.strings)
        out.extend(t.get_text() for t in ax.texts)
    out.extend(t.get_text() for t in fig.texts)
    return out


def pixels(fig: Figure) -> np.ndarray:
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    return np.asarray(canvas.buffer_rgba()).copy()


def hidden_hideouts(state: FugitiveState) -> list[int]:
    return [h for h, r in zip(state.hideouts, state.revealed, strict=True) if not r]


def scrambled_for_detective(state: FugitiveState) -> FugitiveState:
    """Another table the detective cannot tell apart: every secret replaced, every count kept."""
    other = state.clone()
    assert isinstance(other, FugitiveState)
    secret_pool = [n for n in range(41, 0, -1) if not (state.face_up | state.dhand) >> n & 1]
    for i, revealed in enumerate(state.revealed):
        if not revealed:
            other.hideouts[i] = secret_pool[i % len(secret_pool)]
            other.sprints[i] = tuple(
                secret_pool[(i + k + 3) % len(secret_pool)] for k in range(len(state.sprints[i]))
            )
    size = state.fhand.bit_count()
    other.fhand = mask_of(secret_pool[-size:]) if size else 0
    other.decks = [
        mask_of(range(lo, lo + d.bit_count()))
        for (lo, _), d in zip(PUBLISHED.deck_ranges, state.decks, strict=True)
    ]
    return other


def scrambled_for_fugitive(state: FugitiveState) -> FugitiveState:
    """Another table the fugitive cannot tell apart: a different detective hand of the same size."""
    other = state.clone()
    assert isinstance(other, FugitiveState)
    free = [n for n in range(4, 42) if not (state.dhand >> n & 1)]
    size = state.dhand.bit_count()
    other.dhand = mask_of(free[:size]) if size else 0
    return other


# ---------------------------------------------------------------------------- basics
@pytest.mark.parametrize("state", STATES, ids=lambda s: f"{len(s.history)}-actions")
@pytest.mark.parametrize("perspective", PERSPECTIVES)
def test_every_perspective_draws(state: FugitiveState, perspective: int | None) -> None:
    import matplotlib.pyplot as plt

    before = plt.get_fignums()
    fig = draw_state(state, perspective=perspective)
    assert isinstance(fig, Figure)
    assert plt.get_fignums() == before, "no pyplot figure may be opened"
    shown = labels(fig)
    assert f"{state.deck_sizes[0]}" in shown or state.deck_sizes[0] == 0
    assert any(s.startswith("Fugitive · round") for s in shown)
    assert "0" in shown, "the start card"


def test_game_draw_and_state_draw_use_this_drawing() -> None:
    state = STATES[2]
    assert isinstance(state.draw(perspective=DETECTIVE), Figure)
    assert isinstance(state.game.draw(state, perspective=FUGITIVE), Figure)


def test_repr_png_returns_png_bytes() -> None:
    data = STATES[1]._repr_png_()
    assert data is not None and data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 5_000


@pytest.mark.parametrize("bad", [2, "detective", 0.0])
def test_bad_perspective_is_an_error(bad: object) -> None:
    with pytest.raises(ValueError, match="perspective"):
        draw_state(STATES[1], perspective=bad)  # type: ignore[arg-type]


def test_draws_into_a_given_axes() -> None:
    fig = Figure(figsize=(8, 8))
    left, right = fig.subplots(1, 2)
    right.plot([0, 1], [0, 1])
    belief = uniform_belief(STATES[2])
    assert draw_state(STATES[2], ax=left, perspective=DETECTIVE, belief=belief) is fig
    assert len(fig.axes) == 2, "no extra axes"
    assert left.get_aspect() == 1.0, "cards keep their shape in any axes"
    assert any(isinstance(c, LabelCollection) for c in left.collections)
    fig.savefig(io.BytesIO(), format="png", dpi=40)


# ---------------------------------------------------------------------------- hidden information
@pytest.mark.parametrize("state", STATES[1:], ids=lambda s: f"{len(s.history)}-actions")
def test_detective_view_depends_only_on_the_detectives_observation(state: FugitiveState) -> None:
    other = scrambled_for_detective(state)
    assert other.observation(DETECTIVE).hideouts == state.observation(DETECTIVE).hideouts
    same = np.array_equal(
        pixels(draw_state(state, perspective=DETECTIVE)), pixels(draw_state(other, perspective=DETECTIVE))
    )
    assert same, "the detective's picture changed with information the detective does not have"
    if hidden_hideouts(state) or state.fhand:
        differ = not np.array_equal(pixels(draw_state(state)), pixels(draw_state(other)))
        assert differ, "the omniscient picture must show the secrets (else this test proves nothing)"


@pytest.mark.parametrize("state", STATES[1:], ids=lambda s: f"{len(s.history)}-actions")
def test_fugitive_view_hides_the_detectives_hand(state: FugitiveState) -> None:
    other = scrambled_for_fugitive(state)
    same = np.array_equal(
        pixels(draw_state(state, perspective=FUGITIVE)), pixels(draw_state(other, perspective=FUGITIVE))
    )
    assert same
    if state.dhand:
        assert not np.array_equal(pixels(draw_state(state)), pixels(draw_state(other)))


@pytest.mark.parametrize("state", STATES[1:], ids=lambda s: f"{len(s.history)}-actions")
def test_detective_labels_never_name_a_face_down_hideout_or_the_fugitives_hand(state: FugitiveState) -> None:
    shown = set(labels(draw_state(state, perspective=DETECTIVE)))
    # numbers that other, public labels may legitimately print (deck sizes, hand size, round)
    public = {str(n) for n in (*state.deck_sizes, state.fhand.bit_count())}
    secrets = hidden_hideouts(state) + state.fugitive_hand
    secrets += [c for s, r in zip(state.sprints, state.revealed, strict=True) if not r for c in s]
    for number in secrets:
        if str(number) not in public:
            assert str(number) not in shown, f"{number} is secret from the detective"
    omniscient = set(labels(draw_state(state)))
    assert all(str(n) in omniscient for n in secrets), "the omniscient view shows every card"


def test_fugitive_hand_is_shown_to_the_fugitive_and_hidden_from_the_detective() -> None:
    state = STATES[1]
    fugitive_view = labels(draw_state(state, perspective=FUGITIVE))
    assert f"Fugitive's hand · {state.fhand.bit_count()} cards" in fugitive_view
    assert f"Fugitive's hand · {state.fhand.bit_count()} cards (hidden)" in labels(
        draw_state(state, perspective=DETECTIVE)
    )
    assert f"Detective's hand · {state.dhand.bit_count()} cards (hidden)" in fugitive_view


# ---------------------------------------------------------------------------- game moments
def find_state(
    predicate: Callable[[FugitiveState], bool], seeds: range = range(300), **options: object
) -> FugitiveState:
    """The first state of random games (in seed order) where ``predicate`` holds."""
    game = gamelib.make("fugitive", options=options)
    agent = RandomAgent()
    for seed in seeds:
        state = game.new_game(seed=seed)
        assert isinstance(state, FugitiveState)
        rng = random.Random(seed)
        while not state.is_terminal() and not predicate(state):
            state.apply(state.sample_chance() if state.is_chance_node() else agent.act(state, 0, rng))
        if predicate(state):
            return state
    raise AssertionError("no such state in the seeds tried")


def test_manhunt_and_game_over_are_announced() -> None:
    manhunt = find_state(lambda s: s.phase == HUNTING, manhunt="immediate")
    assert any(s.startswith("MANHUNT") for s in labels(draw_state(manhunt, perspective=DETECTIVE)))
    for winner, words in (
        (FUGITIVE, "The fugitive escapes"),
        (DETECTIVE, "The detective found every hideout"),
    ):
        over = find_state(lambda s, w=winner: s.phase == OVER and s.winner == w)  # type: ignore[misc]
        for perspective in PERSPECTIVES:
            assert any(s.startswith(words) for s in labels(draw_state(over, perspective=perspective)))


def test_a_pending_hideout_shows_the_footprints_still_missing() -> None:
    state = gamelib.make("fugitive").new_game(seed=1)
    for text in ("deal 4", "deal 5", "deal 6", "deal 15", "deal 16", "hide 6"):  # 6 = 0 + 3 + 3
        state.apply(text)
    assert isinstance(state, FugitiveState)
    assert "3 more" in labels(draw_state(state, perspective=FUGITIVE))
    assert "3 more" not in labels(draw_state(state, perspective=DETECTIVE)), "the detective cannot know"


def test_long_tables_wrap_into_balanced_rows() -> None:
    assert _row_layout(1) == (1, 1)
    assert _row_layout(MAX_PER_ROW) == (1, MAX_PER_ROW)
    assert _row_layout(MAX_PER_ROW + 1) == (2, (MAX_PER_ROW + 2) // 2)
    assert _row_layout(3 * MAX_PER_ROW) == (3, MAX_PER_ROW)

    def table(cards: int) -> FugitiveState:
        state = STATES[1].clone()
        assert isinstance(state, FugitiveState)
        state.hideouts = list(range(cards))  # a synthetic table: drawing does not re-check rules
        state.revealed = [True] + [False] * (cards - 1)
        state.sprints = [()] * cards
        return state

    one_row, three_rows = draw_state(table(10)), draw_state(table(30))
    row_inches = (0.4 + 1.4) * UNIT_INCHES  # step labels + a card
    assert three_rows.get_size_inches()[1] >= one_row.get_size_inches()[1] + 2 * row_inches
    assert three_rows.get_size_inches()[0] == one_row.get_size_inches()[0], "wrapping keeps the width"
    assert {str(n) for n in range(30)} <= set(labels(three_rows))


# ---------------------------------------------------------------------------- belief
def uniform_belief(state: FugitiveState) -> SimpleNamespace:
    blocked = state.face_up | state.dhand
    free = [n for n in range(1, state.last) if not blocked >> n & 1]
    hidden = state.hidden_positions()
    per_number = [len(hidden) / len(free) if n in free else 0.0 for n in range(43)]
    return SimpleNamespace(
        hideout_prob=per_number,
        position_probs={i: [1 / len(free) if n in free else 0.0 for n in range(43)] for i in hidden},
    )


def test_belief_strip_is_drawn_with_every_number() -> None:
    state = STATES[2]
    shown = labels(draw_state(state, perspective=DETECTIVE, belief=uniform_belief(state)))
    assert any(s.startswith("Detective's belief") for s in shown)
    assert all(str(n) in shown for n in range(1, 42))
    assert not any("true face-down" in s for s in shown), "the detective's view marks no secret"
    omniscient = labels(draw_state(state, belief=uniform_belief(state)))
    assert any("true face-down" in s for s in omniscient)


def test_belief_accepts_the_analysis_module() -> None:
    state = STATES[1]
    belief = fugitive_analysis.belief(state)
    assert isinstance(draw_state(state, perspective=DETECTIVE, belief=belief), Figure)
    assert isinstance(draw_belief(belief), Figure)


@pytest.mark.parametrize(
    ("belief", "message"),
    [
        (object(), "hideout_prob"),
        (SimpleNamespace(hideout_prob=[0.0] * 42), "43 entries"),
        (SimpleNamespace(hideout_prob=[0.0] * 42 + [1.5]), r"\[0, 1\]"),
        (SimpleNamespace(hideout_prob=[float("nan")] * 43), r"\[0, 1\]"),
    ],
)
def test_bad_belief_is_an_error(belief: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        draw_state(STATES[1], belief=belief)
    with pytest.raises(ValueError, match=message):
        draw_belief(belief)


def test_draw_belief_has_a_row_per_face_down_position() -> None:
    state = STATES[2]
    belief = uniform_belief(state)
    fig = draw_belief(belief)
    rows = ["any"] + [f"#{i}" for i in state.hidden_positions()]
    assert labels(fig) == [str(n) for n in range(1, 42)] + rows, "numbers along x, rows along y"
    assert fig.axes[0].images[0].get_array().shape == (len(rows), 41)
    assert len(fig.axes) == 2, "the heat map and its colour bar"
    mine = Figure(figsize=(10, 4))
    ax = mine.add_subplot()
    assert draw_belief(belief, ax=ax) is mine, "draws into the caller's axes"
    mine.savefig(io.BytesIO(), format="png", dpi=40, bbox_inches="tight")
    assert isinstance(draw_belief(SimpleNamespace(hideout_prob=belief.hideout_prob)), Figure)
    with pytest.raises(ValueError, match="position_probs"):
        draw_belief(SimpleNamespace(hideout_prob=belief.hideout_prob, position_probs={1: [0.0] * 5}))


def test_backend_is_not_switched() -> None:
    backend = matplotlib.get_backend()
    draw_state(STATES[0])
    assert matplotlib.get_backend() == backend


# ---------------------------------------------------------------------------- a scripted game
SCRIPT = """deal 5, deal 8, deal 11, deal 17, deal 22,
hide 3, done, hide 5, done, draw 1, deal 4, draw 2, deal 20, guess 2,
draw 1, deal 7, hide 8, done, draw 1, deal 6, guess 3,
draw 2, deal 15, hide 11, done, draw 2, deal 16, guess 9,
draw 2, deal 19, hide 15, sprint 1, done, draw 3, deal 30, guess 12,
draw 3, deal 33, hide 19, sprint 2, done, draw 1, deal 10, guess 8,
draw 2, deal 24, hide 22, done, draw 2, deal 21, add 13, add 18"""
"""The game behind docs/images/fugitive.png: two hideouts found, two sprints, a series pending."""


def scripted() -> FugitiveState:
    state = gamelib.make("fugitive").new_game(seed=2026)
    for text in SCRIPT.replace("\n", " ").split(","):
        state.apply(text.strip())
    assert isinstance(state, FugitiveState)
    return state


def test_scripted_game_reads_as_each_player_sees_it() -> None:
    state = scripted()
    assert state.hideouts == [0, 3, 5, 8, 11, 15, 19, 22] and state.series == (13, 18)
    detective = labels(draw_state(state, perspective=DETECTIVE))
    assert {"3", "8", "found", "+3"} <= set(detective), "found cards and the step between 0 and 3"
    assert "5–6" in detective, "between found 3 and 8, position 2 is 5 or 6 (step limits)"
    assert detective.count("?") == 5 + 2, "five face-down hideouts and two hidden sprint cards"
    assert any("series: 13, 18" in s for s in detective)
    assert "view: the detective · last: add 18" in detective
    omniscient = labels(draw_state(state))
    assert {"5", "11", "15", "19", "22", "+4"} <= set(omniscient)
    assert any(s.endswith("· last: add 18") for s in omniscient)


# ---------------------------------------------------------------------------- small decks
def small_state(last: int, seed: int = 5, actions: int = 14) -> FugitiveState:
    """A position of a small deck with a face-down hideout, reached by random play."""
    game = gamelib.make("fugitive", options={"escape_card": last})
    for attempt in range(seed, seed + 100):
        state = gamelib.play(game, [RandomAgent(), RandomAgent()], seed=attempt, max_actions=actions)
        assert isinstance(state, FugitiveState)
        if state.hidden_positions() and not state.is_terminal():
            return state
    raise AssertionError("no small-deck position with a face-down hideout")


def strip_numbers(shown: list[str]) -> list[str]:
    """The numbers along the belief strip: the labels between its title and the colour bar's 0."""
    start = next(i for i, s in enumerate(shown) if s.startswith("Detective's belief")) + 1
    return shown[start : shown.index("0", start)]


@pytest.mark.parametrize("last", [7, 10, 12])
@pytest.mark.parametrize("perspective", PERSPECTIVES)
def test_a_small_deck_draws_only_its_own_numbers(last: int, perspective: int | None) -> None:
    state = small_state(last)
    fig = draw_state(state, perspective=perspective, belief=uniform_belief(state))
    fig.savefig(io.BytesIO(), format="png", dpi=30)
    shown = labels(fig)
    assert f"Fugitive · round {state.round + 1} · escape card {last}" in shown
    assert strip_numbers(shown) == [str(n) for n in range(1, last)], "the strip covers 1..last-1"
    assert not {str(n) for n in range(last + 1, 43)} & set(shown), "no number beyond the deck"
    ranges = [f"{lo}–{hi}" if lo < hi else str(lo) for lo, hi in state.layout.deck_ranges]
    assert all(r in shown for r in ranges), "each deck is labelled with its own range"


def test_the_published_deck_keeps_its_title_and_strip() -> None:
    state = STATES[2]
    shown = labels(draw_state(state, perspective=DETECTIVE, belief=uniform_belief(state)))
    assert f"Fugitive · round {state.round + 1}" in shown and not any("escape card" in s for s in shown)
    assert strip_numbers(shown) == [str(n) for n in range(1, 42)]
    assert {"4–14", "15–28", "29–41"} <= set(shown)


def test_a_small_decks_escape_card_is_drawn_as_the_escape_card() -> None:
    state = gamelib.make("fugitive", options={"escape_card": 7}).new_game(seed=0)
    for move in ("hide 3", "done", "hide 7", "sprint 1", "done"):  # 3 + 3 + 1 footprint = 7
        state.apply(move)
    for move in ("draw 1", "deal 4", "draw 2", "deal 5", "manhunt"):  # the detective draws, then hunts
        state.apply(move)
    assert isinstance(state, FugitiveState) and state.phase == HUNTING
    shown = labels(draw_state(state, perspective=DETECTIVE))
    assert "7" in shown and "escape" in shown
    assert shown.count("found") == 1, "7 is the escape card, not a find (only the legend says 'found')"
    assert "42" not in shown and {"4", "5", "6"} <= set(shown), "one-card decks show their card"
    assert "7" not in labels(draw_state(gamelib.make("fugitive").new_game(seed=0), perspective=DETECTIVE))


@pytest.mark.parametrize("last", [7, 12])
def test_draw_belief_of_a_small_deck_has_an_axis_of_its_numbers(last: int) -> None:
    state = small_state(last)
    belief = uniform_belief(state)
    fig = draw_belief(belief, last=last)
    ax = fig.axes[0]
    assert ax.get_xlim() == (0.5, last - 0.5), "the axis spans 1..last-1"
    rows = 1 + len(state.hidden_positions())
    assert ax.images[0].get_array().shape == (rows, last - 1)
    assert labels(fig)[: last - 1] == [str(n) for n in range(1, last)]
    fig.savefig(io.BytesIO(), format="png", dpi=30)
    # the belief may name its own deck, or list only the numbers 0..last
    short = SimpleNamespace(
        last=last,
        hideout_prob=belief.hideout_prob[: last + 1],
        position_probs={p: v[: last + 1] for p, v in belief.position_probs.items()},
    )
    assert draw_belief(short).axes[0].get_xlim() == (0.5, last - 0.5)
    assert draw_belief(belief).axes[0].get_xlim() == (0.5, 41.5), "43 entries, no last: published"
    assert isinstance(draw_state(state, belief=short), Figure)


def test_a_belief_of_the_wrong_size_for_a_small_deck_is_an_error() -> None:
    state = small_state(7)
    with pytest.raises(ValueError, match=r"8 entries \(numbers 0..7\) or 43"):
        draw_state(state, belief=SimpleNamespace(hideout_prob=[0.0] * 9))
    with pytest.raises(ValueError, match="43 entries"):
        draw_belief(SimpleNamespace(hideout_prob=[0.0] * 8)), "without last, 8 entries are too few"
    with pytest.raises(ValueError, match="last must be between 7 and 42"):
        draw_belief(SimpleNamespace(hideout_prob=[0.0] * 43), last=6)
    with pytest.raises(ValueError, match=r"position_probs\[1\] must have 8 entries"):
        draw_belief(SimpleNamespace(hideout_prob=[0.0] * 8, position_probs={1: [0.0] * 5}), last=7)


def test_a_small_deck_with_the_analysis_belief_draws() -> None:
    state = small_state(12)
    belief = fugitive_analysis.belief(state)
    shown = labels(draw_state(state, perspective=DETECTIVE, belief=belief))
    assert strip_numbers(shown) == [str(n) for n in range(1, 12)]
    assert draw_belief(belief, last=state.last).axes[0].get_xlim() == (0.5, 11.5)
