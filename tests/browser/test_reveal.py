"""The answer button of the classroom pages (gamelib_widgets.Reveal), kernel side.

The browser test (test_classroom_pages.py) checks the page: no answer text before the click, the
answer after it. Here: the answer is not even in the widget's state before the first click, the
button says the right thing in both languages, and an empty answer is refused.
"""

from __future__ import annotations

import pytest

import gamelib


def test_the_answer_is_sent_only_at_the_first_click_and_toggles() -> None:
    from gamelib_widgets import Reveal

    answer = Reveal("**Answers.** 1. Five footprints.")
    assert answer.output.outputs == () and not answer.shown
    assert answer.output.layout.display == "none" and answer.button.description == "Show the answer"
    answer.button.click()
    assert answer.shown and answer.output.layout.display == "block"
    assert answer.output.outputs[0]["data"]["text/markdown"] == "**Answers.** 1. Five footprints."
    assert answer.button.description == "Hide the answer"
    answer.button.click()
    assert not answer.shown and answer.output.layout.display == "none" and len(answer.output.outputs) == 1


def test_the_button_speaks_the_language_in_force() -> None:
    from gamelib_widgets import Reveal

    try:
        gamelib.set_language("fr")
        answer = Reveal("Réponse.")
        assert answer.button.description == "Voir la réponse"
        answer.toggle()
        assert answer.button.description == "Masquer la réponse"
        gamelib.set_language("en")
        answer.refresh()
        assert answer.button.description == "Hide the answer"
    finally:
        gamelib.set_language("en")


@pytest.mark.parametrize("bad", ["", "   ", None])
def test_an_empty_answer_is_refused(bad: object) -> None:
    from gamelib_widgets import Reveal

    with pytest.raises(ValueError, match="answer"):
        Reveal(bad)  # type: ignore[arg-type]
