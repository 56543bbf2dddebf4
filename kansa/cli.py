"""The ``kansa`` command."""

from __future__ import annotations

import argparse
import json
import sys
import time
import tomllib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from kansa import __version__, docs
from kansa.batch import Engine, EngineError, Interrupt, Progress, default_jobs, run
from kansa.discovery import discover, iter_files, missing_paths
from kansa.runner import Accumulator, AuditOptions, FileOutcome
from parsers.source import DEFAULT_LIMITS, Limits
from replay.rules import PRESETS, RuleSet

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


class UsageError(Exception):
    pass


def resolve_rules(choice: str) -> str | RuleSet:
    """``auto``, a preset name, or the rule set in a TOML file.

    The file holds top-level keys: ``base`` (the preset to start from, default
    ``tenhou``), ``name`` (default: the file name) and any rule-set field.

    :raises UsageError: for an unknown name, an unreadable file, bad TOML, an
        unknown key or a bad value; the message says which.
    """
    if choice == "auto" or choice in PRESETS:
        return choice
    path = Path(choice)
    if path.suffix != ".toml" and not path.is_file():
        raise UsageError(f"unknown rule set {choice!r}: use auto, a preset "
                         f"({', '.join(PRESETS)}) or a .toml file")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise UsageError(f"cannot read rules file {choice}: {exc.strerror or exc}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise UsageError(f"rules file {choice} is not valid TOML: {exc}") from None
    data.setdefault("name", path.stem)
    try:
        return RuleSet.from_mapping(data)
    except ValueError as exc:
        raise UsageError(f"rules file {choice}: {exc}") from None


def _limits(args: argparse.Namespace) -> Limits:
    return Limits(max_file_bytes=args.max_file_bytes,
                  max_decompressed_bytes=args.max_decompressed_bytes,
                  max_json_depth=args.max_json_depth, max_items=args.max_items,
                  max_seconds=args.max_seconds)


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, not {text}")
    return value


def _add_input_options(p: argparse.ArgumentParser, *, required: bool = True) -> None:
    p.add_argument("paths", nargs="+" if required else "*", metavar="PATH",
                   help="log files, folders (searched recursively) or globs")
    p.add_argument("--format", dest="fmt", default=None,
                   help="read every file as this format instead of recognising it")
    p.add_argument("--max-file-bytes", type=_positive_int,
                   default=DEFAULT_LIMITS.max_file_bytes,
                   help="refuse files larger than this (default %(default)s)")
    p.add_argument("--max-decompressed-bytes", type=_positive_int,
                   default=DEFAULT_LIMITS.max_decompressed_bytes,
                   help="refuse a gzip stream, or a zip archive as a whole, that expands "
                        "past this (default %(default)s)")
    p.add_argument("--max-json-depth", type=_positive_int,
                   default=DEFAULT_LIMITS.max_json_depth,
                   help="refuse JSON nested deeper than this (default %(default)s)")
    p.add_argument("--max-items", type=_positive_int, default=DEFAULT_LIMITS.max_items,
                   help="refuse a log with more XML tags or JSON list items and values, "
                        "or a zip with more files, than this (default %(default)s)")
    p.add_argument("--max-seconds", type=_seconds, default=DEFAULT_LIMITS.max_seconds,
                   help="give up on a log that takes longer than this to read and replay "
                        "(default %(default)s)")


def _add_rules_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rules", default="auto",
                   help="rule set: auto (from each log), a preset (ema, tenhou, majsoul, "
                        "wrc, mleague) or a TOML file (default: auto)")


def _add_report_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--player", metavar="NAME", default=None,
                   help="only the games NAME played, and only NAME's rows and statistics")
    p.add_argument("--game", metavar="GAME", default=None,
                   help="the game for the score progression plot: its log id, file name or "
                        "file#index (default: the first game)")
    p.add_argument("--store", metavar="DIR", default=None,
                   help="read the tables from a results store written by 'kansa audit --out' "
                        "instead of replaying logs")


def _add_engine_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--jobs", "-j", type=int, default=default_jobs(),
                   help="worker processes (default: the number of cores, %(default)s)")
    p.add_argument("--engine", choices=("local", "dask"), default="local",
                   help="run on this machine or on a dask.distributed cluster")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="dask scheduler address (default: start a local cluster)")
    p.add_argument("--progress", choices=("auto", "always", "never"), default="auto",
                   help="progress bar on standard error (auto: only on a terminal)")


def _engine(args: argparse.Namespace) -> Engine:
    if args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    if args.scheduler and args.engine != "dask":
        raise UsageError("--scheduler needs --engine dask")
    return Engine(kind=args.engine, jobs=args.jobs, scheduler=args.scheduler)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kansa",
        description="Replay Riichi Mahjong logs, check every action and payment, report.")
    parser.add_argument("--version", action="version", version=f"kansa {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    audit = sub.add_parser("audit", help="replay logs and report every rule violation")
    _add_input_options(audit)
    _add_rules_option(audit)
    audit.add_argument("--json", action="store_true",
                       help="print the full result document as JSON on standard output")
    audit.add_argument("--fail-on", choices=("error", "warning", "never"), default="error",
                       help="exit 1 when a finding at or above this severity is found "
                            "(default: error)")
    _add_engine_options(audit)
    audit.add_argument("--out", metavar="DIR", default=None,
                       help="append findings and report tables to a Parquet results store; "
                            "files already audited there (same content, rules and kansa "
                            "version) are skipped")
    audit.add_argument("--no-timing", action="store_true",
                       help="report 0 seconds, so that repeated runs give identical JSON")
    audit.set_defaults(func=cmd_audit)

    rules = sub.add_parser("rules", help="list every check with its severity and citation")
    rules.add_argument("--rules", default=None,
                       help="cite for this rule set: a preset or a TOML file (default: the "
                            "EMA citations, no rule set)")
    fmt = rules.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="print the catalog as JSON")
    fmt.add_argument("--markdown", action="store_true",
                     help="print the catalog as the README's Markdown table")
    rules.set_defaults(func=cmd_rules)

    stats = sub.add_parser("stats", help="write the report tables (CSV, Parquet) and plots "
                                         "(PNG, SVG)")
    _add_input_options(stats, required=False)
    _add_rules_option(stats)
    _add_report_options(stats)
    _add_engine_options(stats)
    stats.add_argument("--out", metavar="DIR", required=True,
                       help="folder to write into (created if missing)")
    stats.set_defaults(func=cmd_stats)

    report = sub.add_parser("report", help="write one self-contained HTML report")
    _add_input_options(report, required=False)
    _add_rules_option(report)
    _add_report_options(report)
    _add_engine_options(report)
    report.add_argument("-o", "--output", metavar="FILE", default="report.html",
                        help="the HTML file to write (default: %(default)s)")
    report.add_argument("--title", default=None, help="the report's title")
    report.add_argument("--max-findings", type=int, default=200,
                        help="findings drawn with their table state; the rest are listed "
                             "(default: %(default)s)")
    report.set_defaults(func=cmd_report)

    conv = sub.add_parser("convert", help="write logs as mjai or tenhou.net/6")
    _add_input_options(conv)
    conv.add_argument("--to", required=True, choices=("mjai", "tenhou6"),
                      help="the format to write")
    conv.add_argument("-o", "--output", default=None, metavar="OUT",
                      help="a folder (one file per game) or a file; default: standard output")
    conv.set_defaults(func=cmd_convert)
    return parser


def cmd_rules(args: argparse.Namespace) -> int:
    ruleset: RuleSet | None = None
    if args.rules is not None:
        chosen = resolve_rules(args.rules)
        if chosen == "auto":
            raise UsageError("kansa rules needs a preset or a TOML file, not auto")
        ruleset = chosen if isinstance(chosen, RuleSet) else RuleSet.preset(chosen)
    if args.json:
        json.dump(docs.as_json(ruleset), sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
    elif args.markdown:
        sys.stdout.write(docs.as_markdown(ruleset))
    else:
        sys.stdout.write(docs.as_text(ruleset))
    return EXIT_OK


def cmd_audit(args: argparse.Namespace) -> int:
    missing = missing_paths(args.paths)
    if missing:
        raise UsageError(f"no such file or folder: {', '.join(missing)}")
    total = sum(1 for _ in iter_files(args.paths))  # counted, not kept: listed again below
    files = iter_files(args.paths)
    options = AuditOptions(rules=resolve_rules(args.rules), limits=_limits(args), fmt=args.fmt)
    engine = _engine(args)
    acc = Accumulator()
    progress = Progress(total, enabled=None if args.progress == "auto"
                        else args.progress == "always")
    out = sys.stdout
    start = time.perf_counter()
    first = True
    store: Any = None
    items: Iterator[tuple[FileOutcome, bool]]  # each outcome, and whether from the store
    try:
        if args.out:
            from kansa import store as results  # noqa: PLC0415 (pandas only when asked for)

            store = results.ResultStore(Path(args.out))
            try:
                items = results.audit_with_store(
                    files, store, options,
                    lambda todo: run(todo, options, engine, task=results.audit_and_tabulate,
                                     lost=results.lost_stored))
            except results.StoreError as exc:
                raise UsageError(str(exc)) from None
        else:
            items = ((o, False) for o in run(files, options, engine))
    except EngineError as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        out.write('{"games": [')
    try:
        with Interrupt() as interrupt:
            for outcome, from_store in items:
                acc.add(outcome)
                if from_store:
                    acc.summary.from_store += len(outcome.leaves())
                progress.update(outcome)
                if args.json:
                    for game in outcome.games:  # each game written whole, in one call
                        out.write(("\n " if first else ",\n ")
                                  + json.dumps(game, ensure_ascii=False))
                        first = False
                if interrupt.requested:
                    raise KeyboardInterrupt
    except KeyboardInterrupt:
        acc.summary.not_audited = max(total - acc.summary.files, 0)
        print(f"\nkansa: interrupted; {acc.summary.not_audited} of {total} files "
              "not audited", file=sys.stderr)
    finally:
        close = getattr(items, "close", None)
        if close is not None:
            close()  # stops the workers now, not when the generator is collected
        progress.close()
        if store is not None:
            store.flush()
    seconds = None if args.no_timing else time.perf_counter() - start
    tail = acc.tail(seconds)
    if args.json:
        out.write("],\n")
        body = json.dumps(tail, ensure_ascii=False, indent=1)
        out.write(body[1:])
        out.write("\n")
    else:
        print_summary(tail, acc.first_errors)
    if acc.summary.not_audited:
        return EXIT_INTERRUPTED
    return exit_status(tail, args.fail_on)


def cmd_stats(args: argparse.Namespace) -> int:
    from kansa import reporting  # noqa: PLC0415  (pandas and matplotlib only when needed)

    return reporting.cmd_stats(args)


def cmd_report(args: argparse.Namespace) -> int:
    from kansa import reporting  # noqa: PLC0415  (pandas and matplotlib only when needed)

    return reporting.cmd_report(args)

def cmd_convert(args: argparse.Namespace) -> int:
    from kansa.convert import convert  # noqa: PLC0415 (keeps audit start-up light)

    files, missing = discover(args.paths)
    if missing:
        raise UsageError(f"no such file or folder: {', '.join(missing)}")
    failed = convert(files, args.to, args.output, _limits(args))
    return EXIT_FINDINGS if failed else EXIT_OK


def exit_status(doc: dict[str, Any], fail_on: str) -> int:
    s = doc["summary"]
    if s["unreadable"] or s["internal_errors"]:
        return EXIT_FINDINGS
    if fail_on == "never":
        return EXIT_OK
    if fail_on == "error" and s["errors_by_rule"]:
        return EXIT_FINDINGS
    if fail_on == "warning" and s["violations"]:
        return EXIT_FINDINGS
    return EXIT_OK


def print_summary(doc: dict[str, Any], first_errors: list[tuple[str, dict[str, Any]]],
                  out: Any = None) -> None:
    out = out or sys.stdout
    s = doc["summary"]
    errors = sum(s["errors_by_rule"].values())
    warnings = sum(s["violations"].values()) - errors
    print(f"{s['files']} files, {s['games']} games, {s['hands']} hands, {s['wins']} wins "
          f"in {s['seconds']:.1f} s", file=out)
    print(f"  {s['wins_valued']} wins valued, {s['hands_compared']} hands' payments compared, "
          f"{s['transfers']} transfers in the ledger", file=out)
    print(f"  clean {s['clean']}, with findings {s['with_findings']}, unsupported "
          f"{s['unsupported']}, unreadable {s['unreadable']}, internal errors "
          f"{s['internal_errors']}" + (f", not audited {s['not_audited']}"
                                       if s["not_audited"] else ""), file=out)
    print(f"  {errors} errors, {warnings} warnings", file=out)
    for rule, n in sorted(s["violations"].items(), key=lambda kv: (-kv[1], kv[0])):
        sev = "error" if rule in s["errors_by_rule"] else "warning"
        print(f"    {n:6d}  {rule} ({sev})", file=out)
    for file, v in first_errors:
        print(f"  {v['source'] or file}: {v['hand']} seat {v['seat']}: "
              f"[{v['rule']}] {v['message']} ({v['citation']})", file=out)
    for u in doc["unreadable"]:
        print(f"  unreadable: {u['file']}: {u['error']} ({u['position']})", file=out)
    for u in doc["unsupported"]:
        print(f"  unsupported: {u['file']}: {u['reason']}", file=out)
    for u in doc["internal_errors"]:
        print(f"  INTERNAL ERROR (please report): {u['file']}: {u['error']}", file=out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits 2 on usage errors
        return int(exc.code) if isinstance(exc.code, int) else EXIT_USAGE
    try:
        return int(args.func(args))
    except UsageError as exc:
        print(f"kansa: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("kansa: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
