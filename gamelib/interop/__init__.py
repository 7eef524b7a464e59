"""Adapters to other ecosystems: OpenSpiel (``gamelib.interop.openspiel``) and PettingZoo
(``gamelib.interop.pettingzoo``).  Each needs its optional extra; nothing else imports them."""
