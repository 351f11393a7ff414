"""Request bodies read as JSON within limits checked before and while parsing.

``json.loads`` alone can be made to fail in ways a handler does not expect: deeply nested
arrays exhaust the recursion limit (``RecursionError``), an integer of thousands of digits
passes Python's int-to-string limit (``ValueError``), ``NaN`` and ``1e999`` are not numbers
a request needs. Here the nesting depth is measured before parsing (strings stripped, then
brackets counted), each number is checked by size as the parser meets it, and every failure
is a ``BodyError`` with a message for the client.

>>> parse_object(b'{"move": "e4", "ply": 3}')
{'move': 'e4', 'ply': 3}
>>> parse_object(b'{"a": ' + b'[' * 100 + b']' * 100 + b'}')
Traceback (most recent call last):
...
gui.jsonbody.BodyError: malformed JSON: nested deeper than 16 levels
>>> parse_object(b'{"ply": 1' + b'0' * 5000 + b'}')
Traceback (most recent call last):
...
gui.jsonbody.BodyError: malformed JSON: a number of more than 30 characters
"""

from __future__ import annotations

import itertools
import json
import math
import re
from typing import Any

MAX_DEPTH = 16  # nested arrays/objects: the API's deepest body is 2 levels
MAX_NUMBER_CHARS = 30  # characters of one number: the API's numbers are small
_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")


class BodyError(ValueError):
    """A body that is not a JSON object within the limits; the message is for the client."""


def nesting_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in JSON ``text`` (brackets in strings ignored).

    >>> nesting_depth('{"a": [1, {"b": "[[["}]}')
    3
    """
    steps = (1 if bracket in "[{" else -1 for bracket in _BRACKETS.findall(_STRINGS.sub('""', text)))
    return max(itertools.accumulate(steps, initial=0))


def _number(text: str) -> str:
    if len(text) > MAX_NUMBER_CHARS:
        raise BodyError(f"malformed JSON: a number of more than {MAX_NUMBER_CHARS} characters")
    return text


def _int(text: str) -> int:
    return int(_number(text))


def _float(text: str) -> float:
    value = float(_number(text))
    if not math.isfinite(value):
        raise BodyError(f"malformed JSON: {text} is too large a number")
    return value


def _constant(text: str) -> Any:
    raise BodyError(f"malformed JSON: {text} is not a number JSON allows")


def parse_object(raw: bytes) -> dict[str, Any]:
    """The JSON object in ``raw`` (UTF-8; an empty body is ``{}``), or ``BodyError``."""
    if not raw:
        return {}
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BodyError("malformed JSON: the body is not UTF-8 text") from None
    if nesting_depth(text) > MAX_DEPTH:
        raise BodyError(f"malformed JSON: nested deeper than {MAX_DEPTH} levels")
    try:
        data = json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except json.JSONDecodeError as error:
        raise BodyError(f"malformed JSON: {error.msg} (line {error.lineno}, column {error.colno})") from None
    if not isinstance(data, dict):
        raise BodyError("the body must be a JSON object")
    return data
