"""UCI options: typed values, their ``option name ...`` lines and ``setoption`` parsing.

Names are matched case-insensitively (as Stockfish does) and may contain spaces. A bad
value raises ``OptionError`` and leaves the option unchanged:

>>> hash_mb = SpinOption("Hash", 16, 1, 1024)
>>> hash_mb.uci_line()
'option name Hash type spin default 16 min 1 max 1024'
>>> hash_mb.parse("4096")
Traceback (most recent call last):
...
uci.options.OptionError: Hash: 4096 is out of range 1..1024
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from uci.shared import echo

Value = int | bool | str | None
OnChange = Callable[[Value], None]


def _given(text: str | None) -> str:
    """A setoption value as quoted in an error (cut short), or "no value"."""
    return echo(text) if text is not None else "no value"


class OptionError(ValueError):
    """A ``setoption`` that cannot be applied; the message is shown to the user."""


class Option:
    """One UCI option. ``on_change(new_value)`` runs before the value is stored; if it
    raises ``OptionError`` the value stays as it was."""

    kind = ""

    def __init__(self, name: str, default: Value, on_change: OnChange | None = None) -> None:
        self.name = name
        self.default = default
        self.value = default
        self.on_change = on_change

    def parse(self, text: str | None) -> Value:
        raise NotImplementedError

    def uci_line(self) -> str:
        return f"option name {self.name} type {self.kind}"

    def set(self, text: str | None) -> None:
        value = self.parse(text)
        if self.on_change is not None:
            self.on_change(value)
        self.value = value


class SpinOption(Option):
    kind = "spin"

    def __init__(self, name: str, default: int, minimum: int, maximum: int, on_change: OnChange | None = None) -> None:
        super().__init__(name, default, on_change)
        self.minimum = minimum
        self.maximum = maximum

    def parse(self, text: str | None) -> int:
        if text is None:
            raise OptionError(f"{self.name}: missing value (expected an integer {self.minimum}..{self.maximum})")
        try:
            value = int(text)
        except ValueError:
            raise OptionError(f"{self.name}: {echo(text)} is not an integer") from None
        if not self.minimum <= value <= self.maximum:
            raise OptionError(f"{self.name}: {value} is out of range {self.minimum}..{self.maximum}")
        return value

    def uci_line(self) -> str:
        return f"{super().uci_line()} default {self.default} min {self.minimum} max {self.maximum}"


class CheckOption(Option):
    kind = "check"

    def parse(self, text: str | None) -> bool:
        word = (text or "").lower()
        if word not in ("true", "false"):
            raise OptionError(f"{self.name}: expected true or false, got {_given(text)}")
        return word == "true"

    def uci_line(self) -> str:
        return f"{super().uci_line()} default {'true' if self.default else 'false'}"


class ComboOption(Option):
    kind = "combo"

    def __init__(self, name: str, default: str, choices: list[str], on_change: OnChange | None = None) -> None:
        super().__init__(name, default, on_change)
        self.choices = choices

    def parse(self, text: str | None) -> str:
        for choice in self.choices:
            if text is not None and choice.lower() == text.lower():
                return choice
        raise OptionError(f"{self.name}: {_given(text)} is not supported (choices: {', '.join(self.choices)})")

    def uci_line(self) -> str:
        return f"{super().uci_line()} default {self.default}" + "".join(f" var {c}" for c in self.choices)


class StringOption(Option):
    """A free text value (a path); ``<empty>`` or no value is the empty string."""

    kind = "string"
    EMPTY = "<empty>"  # how UCI GUIs send an empty string

    def parse(self, text: str | None) -> str:
        return "" if text is None or text == self.EMPTY else text

    def uci_line(self) -> str:
        return f"{super().uci_line()} default {self.default or self.EMPTY}"


class ButtonOption(Option):
    """A button has no value; setting it runs ``on_change(None)``. A given value is ignored."""

    kind = "button"

    def __init__(self, name: str, on_change: OnChange | None = None) -> None:
        super().__init__(name, None, on_change)

    def parse(self, text: str | None) -> None:
        return None


class Options:
    """The engine's options, in the order they are listed by ``uci``."""

    def __init__(self, options: Iterable[Option]) -> None:
        self._by_key: dict[str, Option] = {}
        for option in options:
            self._by_key[option.name.lower()] = option

    def __iter__(self) -> Iterator[Option]:
        return iter(self._by_key.values())

    def find(self, name: str) -> Option | None:
        return self._by_key.get(" ".join(name.split()).lower())

    def __getitem__(self, name: str) -> Value:
        option = self.find(name)
        if option is None:
            raise KeyError(name)
        return option.value

    def set(self, name: str, text: str | None) -> Option:
        """Apply ``setoption name <name> value <text>``; raises ``OptionError``."""
        option = self.find(name)
        if option is None:
            raise OptionError(f"unknown option {echo(name)} (options: {', '.join(o.name for o in self)})")
        option.set(text)
        return option
