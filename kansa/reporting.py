"""``kansa stats`` and ``kansa report``: replay, build the tables, write them out.

Kept apart from :mod:`kansa.cli` so that ``kansa audit`` does not load pandas and
matplotlib; both take their shared options and helpers from :mod:`kansa.options`.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

from kansa import __version__
from kansa.batch import Engine, EngineError, run
from kansa.discovery import iter_files
from kansa.explain import write_report_packets
from kansa.options import (
    EXIT_INPUT,
    EXIT_OK,
    UsageError,
    check_paths,
    engine_from,
    findings_status,
    limits_from,
    no_input,
    progress_for,
    resolve_rules,
)
from kansa.problems import FileProblem
from kansa.reports.html import render_html
from kansa.reports.plots import PLOTS, render_all
from kansa.reports.stats import complete
from kansa.reports.tables import SCHEMAS, Tables, table_rows, tables_from_rows
from kansa.runner import (
    STDIN,
    AuditOptions,
    FileResults,
    Status,
    lost_results,
    problem_kind,
    replay_file,
)
from kansa.store import ResultStore


def _replayed(args: argparse.Namespace) -> tuple[list[FileResults], int]:
    """Every input file replayed, and the exit status its reading deserves."""
    stdin = check_paths(args.paths)
    files = [STDIN] if stdin else list(iter_files(args.paths))
    if not files:
        raise no_input(args.paths)
    options = AuditOptions(rules=args.rules, limits=limits_from(args), fmt=args.fmt)
    engine = Engine() if stdin else engine_from(args)  # standard input is read in this process
    progress = progress_for(args, len(files))
    done: list[FileResults] = []
    try:
        for f in run(files, options, engine, task=replay_file, lost=lost_results):
            done.append(f)
            progress.advance(len(f.results), sum(len(r.violations) for r in f.results))
    except EngineError as exc:
        raise UsageError(str(exc)) from None
    finally:
        progress.close()
    return done, _said(done, fmt=args.fmt)


def file_problems(f: FileResults) -> list[tuple[str, FileProblem]]:
    """What kept a file, or some of its games, from being audited, each with the status
    it stands for: the file's error (its status), and each game or step kansa failed on
    (a worker that died, an audit that raised: ``internal_error``)."""
    own: list[tuple[str, FileProblem]] = [(f.status, f.error)] if f.error is not None else []
    return own + [("internal_error", p) for p in f.internal if p is not f.error]


def _said(done: list[FileResults], *, fmt: str | None) -> int:
    """Each file that could not be audited, on standard error, and the input's exit
    status (unsupported counts only where a format was asked for)."""
    bad = {"unreadable", "internal_error"} | ({"unsupported"} if fmt else set())
    for f in done:
        for status, problem in file_problems(f):
            print(f"kansa: {status}: {f.file}: {problem.message}", file=sys.stderr)
    leaves = [m for f in done for m in (f.members or [f])]
    return EXIT_INPUT if any(m.status in bad for m in leaves) else EXIT_OK


def _stored(root: Path) -> list[FileResults]:
    """The files of a results store as the replay gave them (status and error; their
    games are in the store's tables)."""
    files = ResultStore(root).files()
    return [FileResults(str(f), cast(Status, status),
                        error=FileProblem.from_dict(problem_kind(cast(Status, status)),
                                                    json.loads(error))
                        if isinstance(error, str) else None)
            for f, status, error in zip(files["file"], files["status"], files["error"],
                                        strict=True)]


def _tables(args: argparse.Namespace, done: list[FileResults]
            ) -> tuple[Tables, list[FileResults], bool]:
    """The tables of the replayed files, ``done`` with the files whose rows could not
    be made turned into internal errors (a bug: the others' tables are still made),
    and whether there was one."""
    rows: dict[str, list[dict[str, Any]]] = {name: [] for name in SCHEMAS}
    kept: list[FileResults] = []
    failed = False
    for f in done:
        try:
            file_rows = table_rows(f.results)
        except Exception as exc:  # a bug in the tables: this file is left out
            entry = FileProblem.internal(f.file, exc, "making the report tables")
            print(f"kansa: internal_error: {f.file}: {entry.message}", file=sys.stderr)
            kept.append(FileResults(f.file, "internal_error", error=entry, internal=[entry]))
            failed = True
            continue
        for name, file_table in file_rows.items():
            rows[name].extend(file_table)
        kept.append(f)
    try:
        return complete(tables_from_rows(rows), player=args.player), kept, failed
    except KeyError:
        raise UsageError(f"no player named {args.player!r} in these games") from None


def _inputs(args: argparse.Namespace) -> tuple[Tables, list[FileResults], int]:
    """The tables from the logs given, or from a results store (``--store``)."""
    if args.store:
        if args.paths:
            raise UsageError("give either log paths or --store, not both")
        root = Path(args.store)
        if not (root / "files").is_dir():
            raise UsageError(f"{root} is not a results store (no files/ folder): write one "
                             "with kansa audit --store")
        done = _stored(root)
        status = _said(done, fmt=args.fmt)
        try:
            tables = complete(ResultStore(root).tables(), player=args.player)
        except KeyError:
            raise UsageError(f"no player named {args.player!r} in the store") from None
        return tables, done, status
    if not args.paths:
        raise UsageError("give log paths, or --store DIR")
    done, status = _replayed(args)
    tables, done, failed = _tables(args, done)
    return tables, done, EXIT_INPUT if failed else status


def _status(args: argparse.Namespace, tables: Tables, read: int) -> int:
    """The input's status (``read``), else the findings' under ``--fail-on``."""
    if read != EXIT_OK:
        return read
    found = tables.findings
    errors = {"error": int((found["severity"] == "error").sum())} if len(found) else {}
    return findings_status({"any": len(found)}, errors, args.fail_on)


def _game_key(tables: Tables, wanted: str | None) -> str | None:
    if wanted is None:
        return None
    g = tables.games
    for col in ("game", "log_id", "title"):
        hit = g[g[col] == wanted]
        if len(hit):
            return str(hit["game"].iloc[0])
    hit = g[g["file"].str.endswith(wanted)]
    if len(hit):
        return str(hit["game"].iloc[0])
    raise UsageError(f"no game {wanted!r} among the inputs (give a log id, a file name or "
                     "file#index)")


def cmd_stats(args: argparse.Namespace) -> int:
    if args.output is None:
        raise UsageError("kansa stats needs -o/--output DIR, the folder to write into")
    tables, _, status = _inputs(args)
    game = _game_key(tables, args.game)
    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    for name, df in tables.items():
        df.to_csv(out / f"{name}.csv", index=False)
        df.to_parquet(out / f"{name}.parquet", index=False)
        print(f"{name:>15}: {len(df):7,} rows  -> {out / name}.csv, .parquet")
    for fmt in ("png", "svg"):
        for name, data in render_all(tables, fmt, game=game, player=args.player).items():
            (out / f"{name}.{fmt}").write_bytes(data)
    print(f"{'plots':>15}: {', '.join(PLOTS)} -> {out}/*.png, *.svg")
    return _status(args, tables, status)


def relative_to(file: str, folder: Path) -> str:
    """``file`` named from ``folder`` (the report's), as a link beside the report
    would be; standard input and names that are not paths stay as they are."""
    if file == STDIN:
        return file
    try:
        return Path(os.path.relpath(file, folder)).as_posix()
    except ValueError:  # another drive on Windows
        return file


def cmd_report(args: argparse.Namespace,
               finding_links: Mapping[str, str] | None = None) -> int:
    """Write the HTML report; ``finding_links`` gives each finding's dispute packet
    (by :func:`kansa.reports.links.finding_key`, addresses relative to the report)."""
    tables, done, status = _inputs(args)
    game = _game_key(tables, args.game)
    out = Path(args.output)
    problems = [{**entry, "file": relative_to(str(entry.get("file") or f.file), out.parent),
                 "status": status}
                for f in done for status, problem in file_problems(f)
                for entry in [problem.to_dict()]]
    title = args.title or ("kansa report" + (f": {args.player}" if args.player else ""))
    links = finding_links
    if args.packets:
        if args.store:
            raise UsageError("--packets needs log paths: a results store keeps no events")
        links = write_report_packets(done, Path(args.packets), Path(args.output),
                                     resolve_rules(args.rules))
    page = render_html(tables, render_all(tables, "svg", game=game,
                                                   player=args.player),
                       files=len(done) or tables.games["file"].nunique(),
                       problems=problems, player=args.player, title=title,
                       generator=f"kansa {__version__}", max_findings=args.max_findings,
                       finding_links=links)
    out.write_text(page, encoding="utf-8")
    print(f"{args.output}: {len(tables.games):,} games, {len(tables.findings):,} findings, "
          f"{len(page) / 1e6:.1f} MB")
    return _status(args, tables, status)
