"""``python -m gui``: the same as ``alice-engine gui``."""

import sys

from gui.cli import main

sys.exit(main())
