"""``python -m alice_match ...`` is ``alice-match ...``."""

import sys

from alice_match.cli import main

sys.exit(main())
