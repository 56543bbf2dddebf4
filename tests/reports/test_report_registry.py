"""The registry of report tables: a new table is one function and its schema, and every
place that lists tables (the frames, the narrowing to a player, ``kansa stats``) has it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest
from report_games import sample_results

from kansa.cli import main
from kansa.reports import registry, stats
from kansa.reports.tables import SCHEMAS

SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"
SCHEMA = {"game": "string", "hand": "Int64", "name": "string", "discards": "Int64"}


def _discard_counts(g: registry.GameFacts) -> Iterator[registry.Row]:
    for h in g.hands:
        for seat in range(g.players):
            yield {"game": g.key, "hand": h.index, "name": g.result.names[seat],
                   "discards": h.hand.turns}


@pytest.fixture
def extra_table() -> Iterator[str]:
    registry.base_table("discard_counts", SCHEMA,
                        player_rows=lambda df, name: df[df["name"] == name])(_discard_counts)
    try:
        yield "discard_counts"
    finally:
        del registry.BASE["discard_counts"]


def test_a_registered_table_is_built_with_its_schema(extra_table: str) -> None:
    assert list(SCHEMAS)[-1] == extra_table
    tables = stats.build(sample_results())
    df = tables[extra_table]
    assert list(df.columns) == list(SCHEMA)
    assert {c: str(t) for c, t in df.dtypes.items()} == {
        c: str(pd.Series(dtype=t).dtype) for c, t in SCHEMA.items()}
    assert len(df) == 4 * len(tables.hands)
    names = [n for n, _ in tables.items()]
    assert names == [*registry.BASE, *registry.DERIVED]
    mine = stats.build(sample_results(), player="Dai")
    assert set(mine[extra_table]["name"]) == {"Dai"}
    assert len(mine[extra_table]) == len(mine.hands)


def test_kansa_stats_writes_a_registered_table(extra_table: str, tmp_path: Path) -> None:
    out = tmp_path / "s"
    assert main(["stats", str(SAMPLES / "disputes"), "-o", str(out), "-j", "1",
                 "--progress", "never"]) == 0
    written = pd.read_csv(out / f"{extra_table}.csv")
    assert list(written.columns) == list(SCHEMA) and len(written) > 0
    assert (out / f"{extra_table}.parquet").is_file()


def test_a_table_name_is_registered_once() -> None:
    with pytest.raises(ValueError, match="twice"):
        registry.base_table("games", {"game": "string"})(_discard_counts)
    with pytest.raises(ValueError, match="twice"):
        registry.derived_table("players")(lambda tables, mine, player: tables.games)


def test_tables_need_every_base_table() -> None:
    tables = stats.build(sample_results())
    partial = {name: df for name, df in tables.base.items() if name != "wins"}
    with pytest.raises(ValueError, match="wins"):
        registry.Tables(partial)
