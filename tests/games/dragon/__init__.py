"""A package, so that the dragon tests can share `deals` by a relative import under importlib import mode."""
