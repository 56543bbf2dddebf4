"""A results store: findings and report tables as a Parquet dataset that runs append to.

Layout (one folder per table, one part file per run and batch)::

    DIR/files/part-<run>-<n>.parquet      one row per audited file: key, status, outcome...
    DIR/findings/part-<run>-<n>.parquet   the report tables (kansa.reports.tables.Tables)
    DIR/hands/...  DIR/riichi/...  DIR/payments/...  (and games, seats, player_hands, wins)

A file is identified by the SHA-256 of its bytes, the rule-set choice, the
kansa version and the options that can change its outcome (``--format``, the size
limits); a later run skips files whose key is already in ``files``, so a
nightly run over a growing archive audits only the new games.  Each file's row
keeps its whole outcome (the JSON of :class:`~kansa.runner.FileOutcome`: its
games with their findings and state snapshots), so a file taken from the store
gives the same document, summary and exit status as auditing it again.  Any
Parquet reader (pandas, pyarrow, DuckDB, Spark) can read a table folder as one
dataset.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import time
import uuid
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow.parquet as pq  # type: ignore[import-untyped]

from kansa import __version__
from kansa.problems import FileProblem
from kansa.replay.rules import RuleSet
from kansa.reports.tables import SCHEMAS, Tables, frame, table_rows
from kansa.runner import (
    AuditOptions,
    FileOutcome,
    lost_outcome,
    replay_file,
)

TABLES: tuple[str, ...] = tuple(SCHEMAS)
FILES_SCHEMA = {"key": "string", "file": "string", "sha256": "string", "rules": "string",
                "version": "string", "status": "string", "games": "Int64",
                "error": "string", "run": "string", "outcome": "string"}
ROW_GROUP = 64
"""Rows per Parquet row group of ``files``: one stored outcome is read with its group."""


class StoreError(Exception):
    """The folder is not a results store this kansa can take files from."""


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


def options_key(options: AuditOptions) -> str:
    """The other options that can change an outcome, hashed: the forced format and the
    size limits.  (Not the time limit: an outcome that hit it is not stored.)"""
    limits = dataclasses.asdict(options.limits)
    limits.pop("max_seconds")
    text = json.dumps({"format": options.fmt, **limits}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def file_key(sha: str, rules: str, options: str, version: str = __version__) -> str:
    return f"{sha}|{rules}|{version}|{options}"


def _gave_up(outcome: FileOutcome) -> bool:
    """Whether the audit stopped at the time limit, which a loaded machine can reach
    where another would not: such an outcome is audited again next time."""
    return any(leaf.error is not None and "--max-seconds" in leaf.error.message
               for leaf in outcome.leaves())


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
        outcome.internal.append(FileProblem.internal(path, exc, "building the report tables"))
        return Stored(outcome, {}, final=False)
    outcome = done.outcome()
    return Stored(outcome, {name: rows for name, rows in tables.items() if rows},
                  final=not _gave_up(outcome))


def lost_stored(path: str, why: str) -> Stored:
    """:func:`audit_and_tabulate`'s result for a file whose worker died."""
    return Stored(lost_outcome(path, why), {}, final=False)


@dataclass(frozen=True, slots=True)
class Held:
    """Where a stored file's outcome is: a part file of ``files``, its row group there
    and its row in the group."""

    part: Path
    group: int
    row: int


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
    _group: tuple[Path, int, list[Any], list[Any]] | None = None
    """The row group of ``files`` last read: its part, number, outcomes and files."""

    def __post_init__(self) -> None:
        self.root = Path(self.root)
        self.root.mkdir(parents=True, exist_ok=True)

    # -- reading -------------------------------------------------------------------

    def _parts_of(self, name: str) -> list[Path]:
        folder = self.root / name
        return sorted(folder.glob("*.parquet")) if folder.is_dir() else []

    def _table(self, name: str, columns: list[str] | None = None) -> pd.DataFrame:
        parts = self._parts_of(name)
        schema = FILES_SCHEMA if name == "files" else SCHEMAS[name]
        if columns is not None:
            schema = {c: schema[c] for c in columns}
        if not parts:
            return pd.DataFrame({c: pd.Series(dtype=t) for c, t in schema.items()})
        frames = [pd.read_parquet(p, columns=[c for c in schema if c in _columns(p)])
                  for p in parts]
        df = pd.concat(frames, ignore_index=True)
        return df.astype({c: t for c, t in schema.items() if c in df.columns})

    def files(self) -> pd.DataFrame:
        """One row per stored file (without its outcome): file, status, error, ..."""
        return self._table("files", [c for c in FILES_SCHEMA if c != "outcome"])

    def index(self) -> dict[str, Held]:
        """Key -> where the outcome is, for every file stored so far.

        :raises StoreError: for a store written by a kansa that kept no outcomes.
        """
        held: dict[str, Held] = {}
        for part in self._parts_of("files"):
            if "outcome" not in _columns(part):
                raise StoreError(
                    f"{self.root} was written by an earlier kansa, which did not keep "
                    f"each file's findings ({part.name} has no outcome column), so its "
                    "files cannot be replayed from it: audit into a new folder "
                    "(kansa stats and report still read this one with --store)")
            keys = pq.read_table(part, columns=["key"]).column("key").to_pylist()
            meta = pq.read_metadata(part)
            at = iter(keys)
            for group in range(meta.num_row_groups):
                for row in range(meta.row_group(group).num_rows):
                    held[str(next(at))] = Held(part, group, row)
        return held

    def outcome(self, held: Held, file: str) -> FileOutcome:
        """The stored outcome at ``held``, its paths made ``file`` (where the same bytes
        are now)."""
        if self._group is None or self._group[:2] != (held.part, held.group):
            rows = pq.ParquetFile(held.part).read_row_group(held.group,
                                                            columns=["outcome", "file"])
            self._group = (held.part, held.group, rows.column("outcome").to_pylist(),
                           rows.column("file").to_pylist())
        text, was = str(self._group[2][held.row]), str(self._group[3][held.row])
        if was != file:  # the strings that start with the old path: file, source, member
            text = text.replace(json.dumps(was, ensure_ascii=False)[:-1],
                                json.dumps(file, ensure_ascii=False)[:-1])
        return outcome_from_dict(json.loads(text))

    def tables(self) -> Tables:
        """Every stored report table, as one :class:`~kansa.reports.tables.Tables`."""
        return Tables({name: self._table(name) for name in TABLES})

    # -- writing -------------------------------------------------------------------

    def add(self, key: str, sha: str, rules: str, stored: Stored) -> None:
        if not stored.final:
            return
        o = stored.outcome
        row = {"key": key, "file": o.file, "sha256": sha, "rules": rules,
               "version": __version__, "status": o.status, "games": len(o.games),
               "error": json.dumps(o.error.to_dict(), ensure_ascii=False) if o.error else None,
               "run": self.run,
               "outcome": json.dumps(o.to_dict(), ensure_ascii=False)}
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
            df.to_parquet(tmp, index=False, row_group_size=ROW_GROUP)
            tmp.rename(folder / f"part-{self.run}-{self._parts:05d}.parquet")
        self._rows.clear()
        self._pending = 0
        self._parts += 1


def audit_with_store(files: Iterable[str], store: ResultStore, options: AuditOptions,
                     audit: Callable[[Iterable[str]], Iterator[Stored]]
                     ) -> Iterator[tuple[FileOutcome, bool]]:
    """``(outcome, from_store)`` for every file, in input order: the stored outcome of
    each file whose key the store holds, else ``audit``'s (run on those files only,
    which are then added to the store).  Files are digested as they are reached, so a
    run over millions of files holds no list of them.  ``audit`` is called at once
    (an engine that cannot start raises before any file is read).

    :raises StoreError: for a store this kansa cannot take outcomes from.
    """
    rules, others = rules_key(options.rules), options_key(options)
    held = store.index()
    waiting: deque[tuple[str, str, Held | None]] = deque()  # every file taken, in order

    def feed() -> Iterator[str]:
        for f in files:
            try:
                sha = file_digest(f)
            except OSError:
                sha = ""  # the audit reports it unreadable; not stored
            where = held.get(file_key(sha, rules, others)) if sha else None
            waiting.append((f, sha, where))
            if where is None:
                yield f

    def from_store() -> Iterator[tuple[FileOutcome, bool]]:
        while waiting and waiting[0][2] is not None:
            f, _, where = waiting.popleft()
            assert where is not None
            yield store.outcome(where, f), True

    audited = audit(feed())

    def merged() -> Iterator[tuple[FileOutcome, bool]]:
        try:
            for done in audited:
                yield from from_store()
                _, sha, _ = waiting.popleft()
                if sha:
                    store.add(file_key(sha, rules, others), sha, rules, done)
                yield done.outcome, False
            yield from from_store()
        finally:
            close = getattr(audited, "close", None)
            if close is not None:
                close()  # stops the workers now, not when the generator is collected

    return merged()


def _columns(part: Path) -> list[str]:
    return list(pq.read_schema(part).names)


def outcome_from_dict(d: dict[str, Any]) -> FileOutcome:
    """The :class:`FileOutcome` whose :meth:`~FileOutcome.to_dict` is ``d``."""
    return FileOutcome.from_dict(d)
