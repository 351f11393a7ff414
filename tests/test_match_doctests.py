"""The examples in the alice_match docstrings are run, so they stay true."""

from __future__ import annotations

import doctest
import types

import pytest

import support.matchargs as matchargs
from alice_match import game, report, schedule, standings, stats, tc, uci_process


@pytest.mark.parametrize("module", [schedule, standings, report, game, stats, tc, uci_process, matchargs])
def test_docstring_examples(module: types.ModuleType) -> None:
    failed, attempted = doctest.testmod(module)
    assert attempted > 0 and failed == 0
