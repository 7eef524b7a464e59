"""The Jupyter layer of gamelib: ipywidgets views built only on gamelib's public API.

>>> from widgets import Stepper
>>> stepper = Stepper("fugitive", seed=7)      # display it in a notebook cell
>>> stepper.apply("deal 5") or stepper.error   # the setup deal draws from cards 4 to 14
True

Game-specific panels live in submodules (``widgets.fugitive``) so importing this package does not
import any game.  Nothing in ``gamelib`` imports ``widgets``.
"""

from widgets.stepper import MAX_BUTTONS, Panel, PanelFactory, Stepper
from widgets.timeline import Timeline

__all__ = ["MAX_BUTTONS", "Panel", "PanelFactory", "Stepper", "Timeline"]
