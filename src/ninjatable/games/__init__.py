"""The games: each subpackage registers one game with the kernel when imported."""

import importlib
import pkgutil

for _module in pkgutil.iter_modules(__path__):
    if _module.ispkg:
        importlib.import_module(f"{__name__}.{_module.name}")
