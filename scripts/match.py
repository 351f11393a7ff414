#!/usr/bin/env python3
"""``python scripts/match.py ...`` is ``alice-match ...`` (works from a checkout without installing)."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
for path in (os.path.dirname(HERE), HERE):
    if path not in sys.path:
        sys.path.insert(0, path)

from alice_match.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
