"""The one list of report tables: each is a function and its schema, registered here.

A **base table** is made from replay results, one game at a time: a function of a
:class:`GameFacts` that gives the game's rows, registered with its schema (column
names and pandas dtypes, in column order) by :func:`base_table`.  A **derived table**
is made from the base tables (the players' statistics, the tenpai rate by turn):
registered by :func:`derived_table`.  The base tables are registered in
:mod:`kansa.reports.tables`, the derived ones in :mod:`kansa.reports.stats`; everything
that lists tables reads :data:`BASE` and :data:`DERIVED` (the rows a worker sends
back, the frames, the narrowing to one player, the results store's folders,
``kansa stats``' files).  The README documents every base column (a test checks).

>>> @base_table("example", {"game": "string", "n": "Int64"})
... def _example(g: GameFacts) -> list[dict[str, Any]]:
...     return [{"game": g.key, "n": len(g.result.hands)}]
>>> BASE.pop("example").schema
{'game': 'string', 'n': 'Int64'}
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import pandas as pd

from kansa.replay.ledger import Transfer
from kansa.replay.result import HandRecord, ReplayResult
from kansa.reports.facts import TenpaiAtEnd, first_tenpai_turn, tenpai_at_end
from kansa.reports.ledger import payments

Row = dict[str, Any]
PlayerRows = Callable[[pd.DataFrame, str], pd.DataFrame]
"""A table's rows about one player (given the rows of the games the player sat in)."""


class HandFacts:
    """What several tables need to know about one hand, worked out once."""

    def __init__(self, game: GameFacts, index: int, hand: HandRecord) -> None:
        self.game = game
        self.index = index
        self.hand = hand

    @cached_property
    def tenpai(self) -> TenpaiAtEnd | None:
        return tenpai_at_end(self.hand, self.game.players)

    @cached_property
    def first_tenpai(self) -> tuple[int | None, ...]:
        return first_tenpai_turn(self.hand, self.game.players)

    @cached_property
    def declared(self) -> set[int]:
        """The seats that declared riichi."""
        return {int(x.seat) for x in self.hand.riichi}

    @cached_property
    def ledger(self) -> list[Transfer]:
        """The hand's transfers."""
        return self.game.by_hand.get(self.index, [])


class GameFacts:
    """One replayed game as the base tables read it."""

    def __init__(self, result: ReplayResult) -> None:
        self.result = result
        self.key = f"{result.source}#{result.index}"
        """The ``game`` column: ``file#index``."""
        self.players = result.players
        self.ledger = payments(result)
        self.hands = [HandFacts(self, i, h) for i, h in enumerate(result.hands)]

    @cached_property
    def by_hand(self) -> dict[int | None, list[Transfer]]:
        out: dict[int | None, list[Transfer]] = {}
        for t in self.ledger:
            out.setdefault(t.hand, []).append(t)
        return out


@dataclass(frozen=True, slots=True)
class BaseTable:
    name: str
    schema: Mapping[str, str]
    """Column names and pandas dtypes, in column order."""
    rows: Callable[[GameFacts], Iterable[Row]]
    """The rows of one game."""
    player_rows: PlayerRows | None
    """The rows about one player; ``None``: every row of the player's games."""


@dataclass(frozen=True, slots=True)
class DerivedTable:
    name: str
    make: Callable[[Tables, Tables, str | None], pd.DataFrame]
    """``(all tables, the tables narrowed to the player, the player or None) -> frame``."""


BASE: dict[str, BaseTable] = {}
"""The base tables, in the order they are written."""
DERIVED: dict[str, DerivedTable] = {}
"""The derived tables, in the order they are written (after the base ones)."""


class _Schemas(Mapping[str, Mapping[str, str]]):
    def __getitem__(self, name: str) -> Mapping[str, str]:
        return BASE[name].schema

    def __iter__(self) -> Iterator[str]:
        return iter(BASE)

    def __len__(self) -> int:
        return len(BASE)


SCHEMAS: Mapping[str, Mapping[str, str]] = _Schemas()
"""Every base table's schema by name, in the order the tables are written (a view of
:data:`BASE`)."""


def base_table(name: str, schema: Mapping[str, str], *, player_rows: PlayerRows | None = None,
               ) -> Callable[[Callable[[GameFacts], Iterable[Row]]],
                             Callable[[GameFacts], Iterable[Row]]]:
    """Register the function that gives a game's rows of table ``name``."""

    def register(rows: Callable[[GameFacts], Iterable[Row]]
                 ) -> Callable[[GameFacts], Iterable[Row]]:
        if name in BASE or name in DERIVED:
            raise ValueError(f"report table {name!r} registered twice")
        BASE[name] = BaseTable(name, dict(schema), rows, player_rows)
        return rows

    return register


def derived_table(name: str) -> Callable[[Callable[[Tables, Tables, str | None], pd.DataFrame]],
                                         Callable[[Tables, Tables, str | None], pd.DataFrame]]:
    """Register the function that makes table ``name`` from the base tables."""

    def register(make: Callable[[Tables, Tables, str | None], pd.DataFrame]
                 ) -> Callable[[Tables, Tables, str | None], pd.DataFrame]:
        if name in BASE or name in DERIVED:
            raise ValueError(f"report table {name!r} registered twice")
        DERIVED[name] = DerivedTable(name, make)
        return make

    return register


def frame(rows: list[Row], schema: Mapping[str, str]) -> pd.DataFrame:
    """Rows as a frame with exactly the schema's columns and dtypes."""
    df = pd.DataFrame(rows, columns=list(schema))
    return df.astype(dict(schema))


class Tables:
    """The report tables by name: every base table, then the derived ones (``extra``)
    once :func:`kansa.reports.stats.complete` has made them.  ``tables["hands"]`` or
    ``tables.hands``; the README's Reports section describes every column."""

    __slots__ = ("base", "extra")

    def __init__(self, base: Mapping[str, pd.DataFrame],
                 extra: Mapping[str, pd.DataFrame] | None = None) -> None:
        missing = [name for name in BASE if name not in base]
        if missing:
            raise ValueError(f"report tables missing: {', '.join(missing)}")
        self.base = {name: base[name] for name in BASE}
        self.extra: dict[str, pd.DataFrame] = dict(extra or {})
        """Derived tables (players, tenpai by turn) added by :func:`kansa.reports.build`."""

    def __getitem__(self, name: str) -> pd.DataFrame:
        return self.base[name] if name in self.base else self.extra[name]

    def items(self) -> Iterator[tuple[str, pd.DataFrame]]:
        yield from self.base.items()
        yield from self.extra.items()

    @property
    def games(self) -> pd.DataFrame:
        return self.base["games"]

    @property
    def seats(self) -> pd.DataFrame:
        return self.base["seats"]

    @property
    def hands(self) -> pd.DataFrame:
        return self.base["hands"]

    @property
    def player_hands(self) -> pd.DataFrame:
        return self.base["player_hands"]

    @property
    def wins(self) -> pd.DataFrame:
        return self.base["wins"]

    @property
    def riichi(self) -> pd.DataFrame:
        return self.base["riichi"]

    @property
    def payments(self) -> pd.DataFrame:
        return self.base["payments"]

    @property
    def findings(self) -> pd.DataFrame:
        return self.base["findings"]
