"""The Jupyter layer of gamelib: ipywidgets views built only on gamelib's public API.

The folder is ``widgets/``; it installs and imports as ``gamelib_widgets`` (pyproject.toml maps
the name to the folder), so it cannot collide with another distribution's ``widgets``.

>>> from gamelib_widgets import Stepper
>>> stepper = Stepper("fugitive", seed=7)      # display it in a notebook cell
>>> stepper.apply("deal 5") or stepper.error   # the setup deal draws from cards 4 to 14
True

For a class: ``stepper.play()``/``pause()`` (or the Play button and its speed slider) let the
seated agents and chance move one by one; ``Stepper(..., hot_seat=True)`` passes the laptop
between seats behind a cover; ``gamelib.set_language("fr")`` switches every label to French.

Game-specific panels live in submodules (``gamelib_widgets.fugitive``,
``gamelib_widgets.getonboard``, ``gamelib_widgets.delanopolis``) so importing this package does
not import any game; ``Stepper(..., panels="auto")`` shows the panels a game offers.  Nothing in
``gamelib`` imports ``gamelib_widgets``.
"""

from .language import LanguageToggle
from .reveal import Reveal
from .stepper import HUMAN, MAX_BUTTONS, Panel, PanelFactory, Stepper, panels_for
from .timeline import Timeline

__all__ = [
    "HUMAN",
    "MAX_BUTTONS",
    "LanguageToggle",
    "Panel",
    "PanelFactory",
    "Reveal",
    "Stepper",
    "Timeline",
    "panels_for",
]
