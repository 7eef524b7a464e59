"""An answer kept off screen until the teacher clicks: "Show the answer" / "Voir la réponse".

A notebook's answers to its "Questions for the class" must not be projected under the questions.
JupyterLab can collapse a cell (``source_hidden``), but Voilà, which serves the notebooks as
code-free classroom pages, ignores that metadata and renders every Markdown cell.  A widget is the
one thing both show the same way, so the answers live in a :class:`Reveal`::

    >>> from gamelib_widgets import Reveal
    >>> answer = Reveal("**Answers.** 1. Five footprints.")
    >>> answer.shown
    False
    >>> answer.toggle(); answer.shown
    True

The answer's text is not sent to the page at all before the first click (the output area stays
empty until then), so neither a look at the page source nor a screenshot can give it away.  The
button's label follows ``gamelib.set_language`` (``widgets/data/words.json``); the answer itself
is the notebook's prose, written once.
"""

from __future__ import annotations

import ipywidgets as widgets
from IPython.display import Markdown

from gamelib.core.i18n import Wording

words = Wording(__package__ or "gamelib_widgets")
"""The button's words, from ``widgets/data/words.json`` (``reveal_show``, ``reveal_hide``)."""


class Reveal(widgets.VBox):
    """A button that shows (and hides again) an answer written in Markdown.

    ``answer`` is Markdown (tables, lists, bold, line breaks as in a notebook cell).  The
    Markdown is rendered by the front end (JupyterLab or Voilà) only after the first click.
    """

    def __init__(self, answer: str) -> None:
        if not isinstance(answer, str) or not answer.strip():
            raise ValueError("Reveal needs the answer's text (Markdown), got an empty answer")
        self.answer = answer
        self.shown = False
        self._filled = False
        self.button = widgets.Button(icon="eye", button_style="info", layout=widgets.Layout(width="auto"))
        self.output = widgets.Output(layout=widgets.Layout(display="none"))
        self.button.on_click(lambda _button: self.toggle())
        self.refresh()
        super().__init__([self.button, self.output])

    def toggle(self) -> None:
        """Show the answer if it is hidden, hide it if it is shown."""
        if not self._filled:
            # Sent to the page only now: before the first click the page holds no answer text.
            self.output.append_display_data(Markdown(self.answer))
            self._filled = True
        self.shown = not self.shown
        self.output.layout.display = "block" if self.shown else "none"
        self.refresh()

    def refresh(self) -> None:
        """Label the button in the language in force (after ``gamelib.set_language``)."""
        self.button.description = words("reveal_hide" if self.shown else "reveal_show")
