"""Drive a rendered ``gamelib_widgets.Stepper`` the way a teacher does: type, click, look.

Shared by the JupyterLab and the Voilà tests: both render the same ipywidgets DOM, so everything
here works on a Playwright ``Locator`` for the ``.gamelib-stepper`` element and never on kernel
state.  What is observed is what a class sees: the board picture (hashed from the pixels the page
actually holds), the history list, the status line and the error line.

The CSS classes come from ``widgets/stepper.py``; a renamed class makes these tests fail loudly
(the locator times out naming the class), which is the point.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

ILLEGAL_NOTATION = "this is not a move"
"""Typed first: the stepper must refuse it with an error and leave board and history alone."""

_SNAPSHOT_JS = """
async (root) => {
  const hex = (buffer) => Array.from(new Uint8Array(buffer))
      .map((b) => b.toString(16).padStart(2, '0')).join('');
  const board = root.querySelector('.gamelib-board');
  const images = [];
  let pending = false;
  if (board) {
    for (const img of board.querySelectorAll('img')) {
      if (!img.complete || img.naturalWidth === 0) { pending = true; continue; }
      const bytes = await (await fetch(img.src)).arrayBuffer();
      const digest = await crypto.subtle.digest('SHA-256', bytes);
      const shown = img.getBoundingClientRect();
      images.push({hash: hex(digest).slice(0, 16), natural: [img.naturalWidth, img.naturalHeight],
                   shown: [Math.round(shown.width), Math.round(shown.height)]});
    }
  }
  const text = (selector) => {
    const el = root.querySelector(selector);
    return el ? el.innerText.trim() : null;
  };
  const select = root.querySelector('.gamelib-history select');
  const history = select ? Array.from(select.options).map((o) => o.textContent.trim()) : null;
  const cursor = select ? select.selectedIndex : -1;
  const button = (selector) => {
    const el = root.querySelector(selector);
    return el ? {text: el.innerText.trim(), disabled: el.disabled} : null;
  };
  const visible = (el) => el.offsetParent !== null && getComputedStyle(el).visibility !== 'hidden';
  const actions = Array.from(root.querySelectorAll('.gamelib-actions .gamelib-action'))
      .filter(visible).map((b) => b.innerText.trim());
  const listSelect = root.querySelector('.gamelib-action-list select');
  const listed = listSelect && visible(listSelect)
      ? Array.from(listSelect.options).map((o) => o.textContent.trim()) : [];
  const forceSelect = root.querySelector('.gamelib-force-choice select');
  const forced = forceSelect && visible(forceSelect)
      ? Array.from(forceSelect.options).map((o) => o.textContent.trim()) : [];
  return {
    images, pending,
    boardText: board ? board.innerText.trim() : null,
    history, cursor,
    status: text('.gamelib-status'),
    error: text('.gamelib-error'),
    notationDisabled: (root.querySelector('.gamelib-notation input') || {}).disabled ?? null,
    apply: button('.gamelib-apply'), undo: button('.gamelib-undo'), redo: button('.gamelib-redo'),
    playToEnd: button('.gamelib-play-to-end'), roll: button('.gamelib-roll'),
    actions, listed, forced,
  };
}
"""


@dataclass(frozen=True)
class StepperView:
    """What the page shows of one stepper at one moment."""

    board: str
    """Fingerprint of the board: the SHA-256 of each picture's bytes (or the text view)."""
    board_sizes: tuple[tuple[int, int], ...]
    """Displayed size (CSS pixels) of each board picture."""
    board_natural_sizes: tuple[tuple[int, int], ...]
    """Size in pixels of each board PNG: above the displayed size, the browser shrinks its fonts."""
    history: tuple[str, ...]
    cursor: int
    status: str
    error: str
    notation_enabled: bool
    undo_enabled: bool
    redo_enabled: bool
    play_to_end_enabled: bool
    action_buttons: tuple[str, ...]
    action_list: tuple[str, ...]
    chance_outcomes: tuple[str, ...]
    roll_visible: bool

    @property
    def game_over(self) -> bool:
        return "game over" in self.status

    def describe(self) -> str:
        moves = self.history[1:]
        shown = ", ".join(moves[-6:]) if moves else "(none)"
        return (
            f"status={self.status!r} error={self.error!r} board={self.board} history[{len(moves)}]: {shown} "
            f"cursor={self.cursor}"
        )


def read_view(stepper: Any, timeout_s: float = 30.0) -> StepperView:
    """Read the stepper, waiting until its board picture has finished loading."""
    deadline = time.monotonic() + timeout_s
    while True:
        raw = stepper.evaluate(_SNAPSHOT_JS)
        if not raw["pending"] or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    if raw["history"] is None:
        raise AssertionError("the stepper has no .gamelib-history select: did widgets/stepper.py change?")
    if raw["images"]:
        board = "png:" + ",".join(image["hash"] for image in raw["images"])
    else:
        board = "text:" + str(raw["boardText"] or "")

    def clean(text: str | None) -> str:
        return " ".join((text or "").replace("\xa0", " ").split())

    return StepperView(
        board=board,
        board_sizes=tuple(tuple(image["shown"]) for image in raw["images"]),
        board_natural_sizes=tuple(tuple(image["natural"]) for image in raw["images"]),
        history=tuple(clean(t) for t in raw["history"]),
        cursor=int(raw["cursor"]),
        status=clean(raw["status"]),
        error=clean(raw["error"]),
        notation_enabled=raw["notationDisabled"] is False,
        undo_enabled=bool(raw["undo"]) and not raw["undo"]["disabled"],
        redo_enabled=bool(raw["redo"]) and not raw["redo"]["disabled"],
        play_to_end_enabled=bool(raw["playToEnd"]) and not raw["playToEnd"]["disabled"],
        action_buttons=tuple(clean(t) for t in raw["actions"]),
        action_list=tuple(clean(t) for t in raw["listed"]),
        chance_outcomes=tuple(clean(t) for t in raw["forced"]),
        roll_visible=bool(raw["roll"]) and bool(raw["roll"]["text"]),
    )


def wait_for_view(
    stepper: Any,
    condition: Callable[[StepperView], bool],
    what: str,
    timeout_s: float,
    settle: Callable[[], None] | None = None,
) -> StepperView:
    """Poll the stepper until ``condition`` holds; fail naming ``what`` and the last view seen."""
    deadline = time.monotonic() + timeout_s
    view = read_view(stepper)
    while not condition(view):
        if time.monotonic() > deadline:
            raise AssertionError(
                f"after {timeout_s:.0f} s, still waiting for {what}; the page shows {view.describe()}"
            )
        time.sleep(0.2)
        view = read_view(stepper)
    if settle is not None:
        settle()
        view = read_view(stepper)
    return view


_DOM_SIGNATURE_JS = """
(root) => {
  const sources = Array.from(root.querySelectorAll('img')).map((img) => img.src + ':' + img.complete).join('|');
  return root.innerHTML.length + '#' + sources + '#' + root.innerText.length;
}
"""


def wait_dom_quiet(element: Any, quiet_s: float = 1.0, timeout_s: float = 60.0) -> None:
    """Wait until ``element``'s DOM (text, pictures) stops changing for ``quiet_s``.

    Voilà has no kernel status bar: after a click, the stepper's own widgets update first and its
    panels after them (each redraws a figure), so "the status changed" is not "the page is done".
    """
    deadline = time.monotonic() + timeout_s
    last = element.evaluate(_DOM_SIGNATURE_JS)
    quiet_since = time.monotonic()
    while time.monotonic() - quiet_since < quiet_s:
        if time.monotonic() > deadline:
            raise AssertionError(f"the page kept changing for {timeout_s:.0f} s after a click")
        time.sleep(0.2)
        current = element.evaluate(_DOM_SIGNATURE_JS)
        if current != last:
            last, quiet_since = current, time.monotonic()


def legal_notation(view: StepperView) -> str | None:
    """A legal action's notation as the page offers it (an action button, the list, a chance outcome)."""
    if view.action_buttons:
        return view.action_buttons[0]
    if view.action_list:
        return view.action_list[0]
    if view.chance_outcomes:
        # options read "deal 9  ·  12.5%": the notation is before the separator
        return view.chance_outcomes[0].split("·")[0].strip()
    return None


@dataclass
class StepperReport:
    """What the exercise did, for the test's report and the timings table."""

    applied: str
    moves_to_end: int
    final_status: str
    prepared: tuple[str, ...]
    """What had to be done before typing a move (Reset, switching to the omniscient view)."""
    board_scale: str
    """Board PNG width -> displayed width at the end (``1400->680`` means fonts shown at 49 %)."""
    board_natural_sizes: tuple[tuple[int, int], ...] = ()
    board_sizes: tuple[tuple[int, int], ...] = ()


def exercise_stepper(
    stepper: Any, settle: Callable[[], None] | None = None, timeout_s: float = 120.0
) -> StepperReport:
    """Refuse a bad notation, apply a legal one, undo, play to the end; check board and history each time.

    ``settle`` waits for the page's own notion of quiet (the kernel idle in JupyterLab); the
    stepper's visible change is always awaited first, so it is an extra guard, not the only one.
    """
    stepper.scroll_into_view_if_needed()
    start = wait_for_view(
        stepper, lambda v: len(v.history) >= 1, "the stepper to show its history", timeout_s
    )
    prepared: list[str] = []
    if start.game_over:
        # A notebook may leave its stepper at the end of a game: a teacher presses Reset.
        stepper.locator("button.gamelib-reset").click()
        start = wait_for_view(
            stepper, lambda v: not v.game_over, "Reset to leave the finished game", timeout_s, settle
        )
        prepared.append("reset")
    if not start.notation_enabled:
        # The view is a player's who is not to move (the box is locked so errors leak no secret):
        # a teacher switches to the omniscient view to type a move.
        stepper.locator(".gamelib-perspective select").select_option(label="omniscient")
        start = wait_for_view(
            stepper,
            lambda v: v.notation_enabled,
            "the omniscient view to unlock the notation box",
            timeout_s,
            settle,
        )
        prepared.append("view omniscient")
    assert start.board not in ("png:", "text:"), f"the stepper shows no board: {start.describe()}"
    assert not start.error, f"the stepper starts with an error shown: {start.error!r}"
    notation_box = stepper.locator(".gamelib-notation input")
    apply_button = stepper.locator("button.gamelib-apply")

    # 1. A bad notation: refused with the rule broken shown, nothing moves.
    notation_box.fill(ILLEGAL_NOTATION)
    apply_button.click()
    refused = wait_for_view(
        stepper, lambda v: bool(v.error), "the error line after a bad notation", timeout_s, settle
    )
    assert refused.board == start.board, "a refused notation changed the board"
    assert refused.history == start.history, "a refused notation changed the history"

    # 2. A legal notation, typed as a teacher would: the history moves on to that move, board redrawn.
    #    (Compare cursors, not lengths: a notebook may leave an undone line, which the new move replaces.)
    notation = legal_notation(start)
    assert notation, f"the page offers no legal action to type: {start.describe()}"
    notation_box.fill(notation)
    apply_button.click()
    applied = wait_for_view(
        stepper,
        lambda v: v.cursor == start.cursor + 1 and not v.error and "(undone)" not in v.history[v.cursor],
        f"the history to show the typed move {notation!r}",
        timeout_s,
        settle,
    )
    assert applied.history[applied.cursor].endswith(notation), (
        f"history shows {applied.history[applied.cursor]!r}, typed {notation!r}"
    )
    # A setup step may leave the picture as it was (Get on Board shows its common objectives once
    # both are dealt), but the page must show that the game moved on: picture or status line.
    assert applied.board != start.board or applied.status != start.status, (
        f"neither the board picture nor the status changed after {notation!r}"
    )
    assert applied.undo_enabled, "undo stays disabled after a move"

    # 3. Undo: the typed move is marked undone, the board is the starting one again, redo is offered.
    stepper.locator("button.gamelib-undo").click()
    undone = wait_for_view(
        stepper,
        lambda v: v.cursor == start.cursor and v.redo_enabled,
        "undo to take effect",
        timeout_s,
        settle,
    )
    assert undone.history[start.cursor + 1].endswith("(undone)"), (
        f"undo left {undone.history[start.cursor + 1]!r}"
    )
    assert undone.board == start.board, "undo did not bring the starting board back"

    # 4. Play to end: the seated agents finish the game; the history and the board show it.
    stepper.locator("button.gamelib-play-to-end").click()
    finished = wait_for_view(
        stepper, lambda v: v.game_over, "the game to end after Play to end", timeout_s, settle
    )
    assert not finished.error, f"play to end reported an error: {finished.error!r}"
    assert finished.cursor > start.cursor, "the history did not move on after play to end"
    assert finished.cursor == len(finished.history) - 1, (
        "after play to end the last move is not the current one"
    )
    assert not any(line.endswith("(undone)") for line in finished.history), "play to end left an undone line"
    assert finished.board != start.board, "the board picture is unchanged after a whole game"
    assert not finished.play_to_end_enabled, "play to end is still enabled after the game ended"
    return StepperReport(
        applied=notation,
        moves_to_end=finished.cursor,
        final_status=finished.status,
        prepared=tuple(prepared),
        board_natural_sizes=finished.board_natural_sizes,
        board_sizes=finished.board_sizes,
        board_scale=",".join(
            f"{natural[0]}->{shown[0]}"
            for natural, shown in zip(finished.board_natural_sizes, finished.board_sizes, strict=True)
        ),
    )


# ---------------------------------------------------------------------------------------------- latency
_ARM_CLICK_JS = """
(root, [quietMs, timeoutMs]) => {
  // Arm a probe on the stepper; the test then clicks Step with the mouse.  The probe records, in the
  // page's own clock: the click (a capture listener on the button), the history list changing, the
  // board picture replaced AND decoded AND painted (two animation frames after decode), and the last
  // change to the stepper before it stayed still for quietMs (the panels redraw after the board).
  const board = root.querySelector('.gamelib-board');
  const select = root.querySelector('.gamelib-history select');
  const button = root.querySelector('button.gamelib-step');
  const sources = () => Array.from(board ? board.querySelectorAll('img') : []).map((i) => i.src).join('|');
  const historyKey = () => (select ? select.options.length + ':' + select.selectedIndex : '');
  const probe = {t0: null, history: null, board: null, quiet: null, timedOut: false,
                 src0: sources(), h0: historyKey()};
  window.__gamelibClickProbe = probe;
  button.addEventListener('click', () => { probe.t0 = performance.now(); }, {capture: true, once: true});
  probe.done = new Promise((resolve) => {
    let lastChange = performance.now();
    let boardSeen = false;
    let boardDrawn = true;
    const observer = new MutationObserver(() => {
      lastChange = performance.now();
      if (probe.t0 === null) return;
      if (probe.history === null && historyKey() !== probe.h0) probe.history = lastChange;
      if (!boardSeen && sources() !== probe.src0) {
        boardSeen = true;
        boardDrawn = false;
        const images = Array.from(board.querySelectorAll('img'));
        Promise.all(images.map((i) => i.decode().catch(() => null))).then(() => {
          requestAnimationFrame(() => requestAnimationFrame(() => {
            probe.board = performance.now();
            boardDrawn = true;
          }));
        });
      }
    });
    observer.observe(root, {subtree: true, childList: true, attributes: true, characterData: true});
    const timer = setInterval(() => {
      const now = performance.now();
      const settled = probe.t0 !== null && probe.history !== null && boardDrawn && now - lastChange >= quietMs;
      const late = probe.t0 !== null && now - probe.t0 > timeoutMs;
      if (settled || late) {
        probe.quiet = lastChange;
        probe.timedOut = !settled;
        observer.disconnect();
        clearInterval(timer);
        resolve();
      }
    }, 25);
  });
  return null;
}
"""

_AWAIT_CLICK_JS = """
async () => {
  const probe = window.__gamelibClickProbe;
  await probe.done;
  const since = (t) => (t === null || probe.t0 === null ? null : t - probe.t0);
  return {history: since(probe.history), board: since(probe.board), quiet: since(probe.quiet),
          timedOut: probe.timedOut, clicked: probe.t0 !== null};
}
"""


def quantile(values: list[float], q: float) -> float:
    """The nearest-rank quantile of ``values`` (-1.0 when there is none: nothing was measured)."""
    if not values:
        return -1.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


@dataclass
class ClickLatency:
    """Milliseconds from a mouse click on Step to what the page shows, one entry per click."""

    game: str
    board_ms: list[float]
    """Click to the new board picture decoded and painted (the history's time when the picture stays
    the same, as for a hidden move seen from a seat)."""
    history_ms: list[float]
    quiet_ms: list[float]
    """Click to the last change of the stepper (panels included) before it stayed still."""
    unchanged_boards: int = 0

    @property
    def clicks(self) -> int:
        return len(self.board_ms)

    @property
    def median_ms(self) -> float:
        return quantile(self.board_ms, 0.5)

    @property
    def p90_ms(self) -> float:
        return quantile(self.board_ms, 0.9)

    @property
    def history_median_ms(self) -> float:
        return quantile(self.history_ms, 0.5)

    @property
    def still_median_ms(self) -> float:
        return quantile(self.quiet_ms, 0.5)

    def describe(self) -> str:
        if not self.clicks:
            return "no Step click could be timed"
        same = f", {self.unchanged_boards} with the same picture" if self.unchanged_boards else ""
        return (
            f"click Step -> new board: median {self.median_ms:.0f} ms, p90 {self.p90_ms:.0f} ms, "
            f"max {max(self.board_ms):.0f} ms over {self.clicks} clicks{same} "
            f"(history {self.history_median_ms:.0f} ms, stepper still {self.still_median_ms:.0f} ms, medians)"
        )


def stepper_title(stepper: Any) -> str:
    """The game's title as the stepper's header shows it."""
    return str(stepper.evaluate("(el) => (el.querySelector('b') || {innerText: '?'}).innerText.trim()"))


def measure_click_latency(
    stepper: Any, clicks: int = 10, timeout_s: float = 120.0, quiet_ms: int = 250
) -> ClickLatency:
    """Click Step ``clicks`` times with the mouse; time each click to the new board in the page's clock.

    Each click waits for the previous one to finish (the stepper still for ``quiet_ms``), so a click
    measures one move, not a queue.  When the game is over (or ends on the way) the stepper is Reset,
    untimed, and the clicks go on from the start.
    """
    stepper.scroll_into_view_if_needed()
    step = stepper.locator("button.gamelib-step")
    result = ClickLatency(game=stepper_title(stepper), board_ms=[], history_ms=[], quiet_ms=[])
    resets = 0
    while result.clicks < clicks:
        if step.is_disabled():
            # the game is over (a notebook may leave its stepper near the end): Reset, untimed
            if resets == 2:
                break
            resets += 1
            stepper.locator("button.gamelib-reset").click()
            wait_for_view(stepper, lambda v: not v.game_over, "Reset before timing Step", timeout_s)
            wait_dom_quiet(stepper, quiet_s=0.5, timeout_s=timeout_s)
            continue
        stepper.evaluate(_ARM_CLICK_JS, [quiet_ms, timeout_s * 1000])
        step.click()
        probe = stepper.page.evaluate(_AWAIT_CLICK_JS)
        assert probe["clicked"], "the Step button did not receive the click"
        if probe["timedOut"]:
            raise AssertionError(
                f"{result.game}: after clicking Step the stepper did not show a new move within "
                f"{timeout_s:.0f} s: {read_view(stepper).describe()}"
            )
        error = stepper.locator(".gamelib-error").inner_text().strip()
        assert not error, f"{result.game}: Step reported an error: {error!r}"
        if probe["board"] is None:
            result.unchanged_boards += 1
        result.history_ms.append(probe["history"])
        result.board_ms.append(probe["board"] if probe["board"] is not None else probe["history"])
        result.quiet_ms.append(probe["quiet"])
    return result
