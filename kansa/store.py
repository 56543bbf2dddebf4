"""A results store: findings and report tables as a Parquet dataset that runs append to.

Layout (one folder per table, one part file per run and batch)::

    DIR/files/part-<run>-<n>.parquet      one row per audited file: key, status, ...
    DIR/findings/part-<run>-<n>.parquet   the report tables (reports.tables.Tables)
    DIR/hands/...  DIR/riichi/...  DIR/payments/...  (and games, seats, player_hands, wins)

A file is identified by the SHA-256 of its bytes, the rule-set choice and the
kansa version; a later run skips files whose key is already in ``files``, so a
nightly run over a growing archive audits only the new games.  Any Parquet
reader (pandas, pyarrow, DuckDB, Spark) can read a table folder as one dataset.
"""

from __future__ import annotations

import hashlib
import json
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from kansa import __version__
from kansa.runner import AuditOptions, FileOutcome, internal_entry, lost_outcome, replay_file
from replay.rules import RuleSet
from reports.tables import SCHEMAS, Tables, frame, table_rows

TABLES: tuple[str, ...] = tuple(SCHEMAS)
FILES_SCHEMA = {"key": "string", "file": "string", "sha256": "string", "rules": "string",
                "version": "string", "status": "string", "games": "Int64",
                "error": "string", "run": "string"}


def file_digest(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def rules_key(choice: str | RuleSet) -> str:
    """The rule-set part of a file's key: the choice, with a hash of a custom rule set."""
    if isinstance(choice, str):
        return choice
    text = json.dumps(choice.to_mapping(), sort_keys=True)
    return f"{choice.name}:{hashlib.sha256(text.encode()).hexdigest()[:16]}"


def file_key(sha: str, rules: str, version: str = __version__) -> str:
    return f"{sha}|{rules}|{version}"


@dataclass(slots=True)
class Stored:
    """What a worker sends back for one file: its outcome and its table rows."""

    outcome: FileOutcome
    tables: dict[str, list[dict[str, Any]]]
    """Rows of each report table that has any (frames are made once per part file:
    eight small frames per file cost more than the audit)."""
    final: bool = True
    """False when the audit never finished (its worker died) or its tables could not
    be built (a bug): such a file is not stored, so that the next run tries it again."""


def audit_and_tabulate(path: str, options: AuditOptions) -> Stored:
    """The audit of ``path`` plus its report tables (run in the workers)."""
    done = replay_file(path, options)
    try:
        tables = table_rows(done.results)
    except Exception as exc:  # a bug in the tables: reported, and tried again next run
        outcome = done.outcome()
        outcome.status = "internal_error"
        outcome.internal.append(internal_entry(path, exc, "building the report tables"))
        return Stored(outcome, {}, final=False)
    return Stored(done.outcome(), {name: rows for name, rows in tables.items() if rows})


def lost_stored(path: str, why: str) -> Stored:
    """:func:`audit_and_tabulate`'s result for a file whose worker died."""
    return Stored(lost_outcome(path, why), {}, final=False)


@dataclass
class ResultStore:
    root: Path
    batch_files: int = 2000
    """Files per part file: memory stays bounded by one batch of rows."""
    run: str = field(default_factory=lambda: time.strftime("%Y%m%dT%H%M%S")
                     + f"-{uuid.uuid4().hex[:12]}")
    """This run's id, in every part file's name: runs never overwrite each other."""
    _rows: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    _pending: int = 0
    _parts: int = 0

    def __post_init__(self) -> None:
        self.root = Path(self.root)
        self.root.mkdir(parents=True, exist_ok=True)

    # -- reading -------------------------------------------------------------------

    def _table(self, name: str) -> pd.DataFrame:
        folder = self.root / name
        parts = sorted(folder.glob("*.parquet")) if folder.is_dir() else []
        schema = FILES_SCHEMA if name == "files" else SCHEMAS[name]
        if not parts:
            return pd.DataFrame({c: pd.Series(dtype=t) for c, t in schema.items()})
        frames = [pd.read_parquet(p) for p in parts]
        df = pd.concat(frames, ignore_index=True)
        return df.astype({c: t for c, t in schema.items() if c in df.columns})

    def audited(self) -> dict[str, str]:
        """Key -> status of every file audited so far."""
        files = self._table("files")
        return dict(zip(files["key"].astype(str), files["status"].astype(str), strict=True))

    def tables(self) -> Tables:
        """Every stored report table, as one :class:`~reports.tables.Tables`."""
        t = self._table
        return Tables(games=t("games"), seats=t("seats"), hands=t("hands"),
                      player_hands=t("player_hands"), wins=t("wins"), riichi=t("riichi"),
                      payments=t("payments"), findings=t("findings"))

    # -- writing -------------------------------------------------------------------

    def add(self, key: str, sha: str, rules: str, stored: Stored) -> None:
        if not stored.final:
            return
        o = stored.outcome
        row = {"key": key, "file": o.file, "sha256": sha, "rules": rules,
               "version": __version__, "status": o.status, "games": len(o.games),
               "error": json.dumps(o.error, ensure_ascii=False) if o.error else None,
               "run": self.run}
        self._rows.setdefault("files", []).append(row)
        for name, rows in stored.tables.items():
            self._rows.setdefault(name, []).extend(rows)
        self._pending += 1
        if self._pending >= self.batch_files:
            self.flush()

    def flush(self) -> None:
        if not self._pending:
            return
        for name, rows in self._rows.items():
            df = frame(rows, FILES_SCHEMA if name == "files" else SCHEMAS[name])
            folder = self.root / name
            folder.mkdir(exist_ok=True)
            tmp = folder / f".part-{self.run}-{self._parts:05d}.parquet.tmp"
            df.to_parquet(tmp, index=False)
            tmp.rename(folder / f"part-{self.run}-{self._parts:05d}.parquet")
        self._rows.clear()
        self._pending = 0
        self._parts += 1


def new_files(files: Iterable[str], store: ResultStore, rules: str,
              on_stored: Callable[[str, str], None]) -> Iterator[tuple[str, str]]:
    """``(file, digest)`` for each file the store does not hold yet, in order, digested
    as it is reached (so a run over millions of files holds no list of them);
    ``on_stored(file, status)`` for each one it holds."""
    audited = store.audited()
    for f in files:
        try:
            sha = file_digest(f)
        except OSError:
            yield f, ""  # the audit reports it unreadable
            continue
        status = audited.get(file_key(sha, rules))
        if status is None:
            yield f, sha
        else:
            on_stored(f, status)
