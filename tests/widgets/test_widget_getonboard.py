"""Get on Board's click-an-intersection panel drives the Stepper like a player would."""

from __future__ import annotations

import pytest

from gamelib.getonboard.phases import P_START
from gamelib_widgets.getonboard import IntersectionPanel, getonboard_stepper


def test_clicks_choose_the_start_and_lay_sticks() -> None:
    stepper = getonboard_stepper(players=2, seed=3)
    panel = stepper.panels[0]
    assert isinstance(panel, IntersectionPanel)
    while stepper.state.current_player < 0:
        assert stepper.roll()
    # the start choice: exactly the dealt starts are clickable
    targets = panel.targets(stepper.state)
    assert len(targets) == 2 and all(not panel.buttons[n].disabled for n in targets)
    first = sorted(targets)[0]
    assert panel.click(first)
    while stepper.state.current_player < 0 or stepper.state.phase == P_START:
        if stepper.state.current_player < 0:
            stepper.roll()
        else:
            panel.click(sorted(panel.targets(stepper.state))[0])
    state = stepper.state
    before = len(state.history)
    target = sorted(panel.targets(state))[0]
    assert panel.click(target)
    assert len(stepper.state.history) == before + 1
    # a click elsewhere is refused and changes nothing
    idle = next(n for n, b in panel.buttons.items() if b.disabled)
    assert not panel.click(idle) and "no stick" in stepper.error
    assert "no stick" in stepper.error_html.value  # shown on the stepper's error line
    assert len(stepper.state.history) == before + 1
    assert stepper.undo() and len(stepper.state.history) == before


def test_panel_refuses_other_games() -> None:
    from gamelib_widgets.stepper import Stepper

    with pytest.raises(ValueError, match="Get on Board"):
        Stepper("fugitive", panels=[IntersectionPanel])
