"""The research tests share two helper modules (the Blind Bids test game and the list of configurations).

The suite runs in importlib mode, which puts no test folder on sys.path, so this folder is added here.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
