"""Adapters that let other tools play aiplay's games.

* :mod:`aiplay.adapters.pettingzoo`: an AEC environment with action masks
  (needs the ``pettingzoo`` extra);
* :mod:`aiplay.adapters.gym`: one seat against aiplay bots as a Gymnasium
  environment with an action mask (needs the ``gym`` extra);
* :mod:`aiplay.adapters.openspiel`: every aiplay game registered as a pyspiel
  Python game (needs the ``compare`` extra, which installs OpenSpiel).

The submodules import their tool when imported, so importing this package
needs neither.
"""
