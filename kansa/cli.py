"""The ``kansa`` command."""

from __future__ import annotations

import argparse
import glob
import json
import os
import sys
import time
import tomllib
import traceback
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from kansa import __version__, docs, wall_cmd
from kansa.batch import Engine, EngineError, Interrupt, Progress, default_jobs, run
from kansa.discovery import iter_files, missing_paths
from kansa.parsers import FORMATS
from kansa.parsers.source import DEFAULT_LIMITS, Limits
from kansa.replay.rules import PRESETS, RuleSet
from kansa.runner import STDIN, Accumulator, AuditOptions, FileOutcome
from kansa.summary import Painter, colour_wanted, print_summary

EXIT_OK = 0
"""Every input audited; nothing at or above ``--fail-on``."""
EXIT_FINDINGS = 1
"""A finding at or above ``--fail-on``."""
EXIT_USAGE = 2
"""A bad command line, rule file or engine setting: nothing was audited."""
EXIT_INPUT = 3
"""Some input could not be audited: unreadable, unsupported in the ``--format`` asked
for, or an internal error.  Wins over ``EXIT_FINDINGS``."""
EXIT_NO_INPUT = 4
"""The paths given hold no file (an empty folder, a glob matching nothing)."""
EXIT_INTERRUPTED = 130
"""Ctrl-C: the files not reached are counted as not audited."""
EXIT_PIPE = 141
"""Standard output was closed early (``kansa audit LOGS | head``)."""


class UsageError(Exception):
    pass


class NoInputError(Exception):
    """The paths given are there but hold no file."""


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


def _whole(text: str, least: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < least:
        raise argparse.ArgumentTypeError(f"must be at least {least}, not {value}")
    return value


def _positive_int(text: str) -> int:
    return _whole(text, 1)


def _count(text: str) -> int:
    return _whole(text, 0)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, not {text}")
    return value


class _Deprecated(argparse.Action):
    """A hidden old spelling of a flag: stores into the new flag's ``dest`` and says
    once on standard error which flag to use."""

    def __init__(self, option_strings: Sequence[str], dest: str, *, new: str,
                 **kwargs: Any) -> None:
        super().__init__(option_strings, dest, help=argparse.SUPPRESS, **kwargs)
        self.new = new

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        print(f"kansa: {option_string} is deprecated; use {self.new}", file=sys.stderr)
        setattr(namespace, self.dest, values)


def _add_input_options(p: argparse.ArgumentParser, *, required: bool = True) -> None:
    p.add_argument("paths", nargs="+" if required else "*", metavar="PATH",
                   help="log files, folders (searched recursively) or globs; - reads "
                        "one log from standard input")
    p.add_argument("--format", dest="fmt", default=None, choices=FORMATS,
                   help="read every file as this format instead of recognising it")
    limits = p.add_argument_group("limits", "refuse hostile input; each log that breaks one "
                                            "is unreadable, the batch goes on")
    limits.add_argument("--max-file-bytes", type=_positive_int, metavar="BYTES",
                        default=DEFAULT_LIMITS.max_file_bytes,
                        help="refuse files larger than this (default %(default)s)")
    limits.add_argument("--max-decompressed-bytes", type=_positive_int, metavar="BYTES",
                        default=DEFAULT_LIMITS.max_decompressed_bytes,
                        help="refuse a gzip stream, or a zip archive as a whole, that expands "
                             "past this (default %(default)s)")
    limits.add_argument("--max-json-depth", type=_positive_int, metavar="N",
                        default=DEFAULT_LIMITS.max_json_depth,
                        help="refuse JSON nested deeper than this (default %(default)s)")
    limits.add_argument("--max-items", type=_positive_int, default=DEFAULT_LIMITS.max_items,
                        metavar="N",
                        help="refuse a log with more XML tags or JSON list items and values, "
                             "or a zip with more files, than this (default %(default)s)")
    limits.add_argument("--max-seconds", type=_seconds, default=DEFAULT_LIMITS.max_seconds,
                        metavar="SECONDS",
                        help="give up on a log that takes longer than this to read and replay "
                             "(default %(default)s)")


def _add_rules_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rules", default="auto", metavar="RULES",
                   help="rule set: auto (from each log), a preset (ema, tenhou, majsoul, "
                        "wrc, mleague) or a TOML file (default: auto)")


def _add_report_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--player", metavar="NAME", default=None,
                   help="only the games NAME played, and only NAME's rows and statistics")
    p.add_argument("--game", metavar="GAME", default=None,
                   help="the game for the score progression plot: its log id, file name or "
                        "file#index (default: the first game)")
    p.add_argument("--store", metavar="DIR", default=None,
                   help="read the tables from a results store written by "
                        "'kansa audit --store' instead of replaying logs")
    p.add_argument("--fail-on", choices=("error", "warning", "never"), default="never",
                   help="exit 1 when a finding at or above this severity is found "
                        "(default: never)")


def _add_engine_options(p: argparse.ArgumentParser) -> None:
    run_ = p.add_argument_group("running")
    run_.add_argument("--jobs", "-j", type=int, default=default_jobs(), metavar="N",
                      help="worker processes (default: the number of cores, %(default)s)")
    run_.add_argument("--engine", choices=("local", "dask"), default="local",
                      help="run on this machine or on a dask.distributed cluster")
    run_.add_argument("--scheduler", default=None, metavar="ADDRESS",
                      help="dask scheduler address (default: start a local cluster)")
    run_.add_argument("--progress", choices=("auto", "always", "never"), default="auto",
                      help="progress bar on standard error (auto: only on a terminal)")


def progress_for(args: argparse.Namespace, total: int) -> Progress:
    return Progress(total, enabled=None if args.progress == "auto"
                    else args.progress == "always")


def check_paths(paths: Sequence[str]) -> bool:
    """Whether the input is standard input (``-``, which must then be alone).

    :raises UsageError: for ``-`` beside other paths, or a path that does not exist
        (a glob matching nothing is only said on standard error).
    """
    if STDIN in paths:
        if len(paths) > 1:
            raise UsageError("standard input (-) must be the only path")
        if sys.stdin is not None and sys.stdin.isatty():
            print("kansa: reading one log from the terminal; end it with Ctrl-D",
                  file=sys.stderr)
        return True
    missing = missing_paths(paths)
    typos = [m for m in missing if not glob.has_magic(m)]
    if typos:
        raise UsageError(f"no such file or folder: {', '.join(typos)}")
    for pattern in missing:  # the other paths may still hold files; else no input
        print(f"kansa: {pattern} matches no file", file=sys.stderr)
    return False


def no_input(paths: Sequence[str]) -> NoInputError:
    return NoInputError(f"no files found in {', '.join(paths)}")


def _engine(args: argparse.Namespace) -> Engine:
    if args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    if args.scheduler and args.engine != "dask":
        raise UsageError("--scheduler needs --engine dask")
    return Engine(kind=args.engine, jobs=args.jobs, scheduler=args.scheduler)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kansa",
        description="Replay Riichi Mahjong logs, check every action and payment, report.",
        epilog=f"formats: {', '.join(FORMATS)} (gzip and zip read transparently). "
               "Exit status: 0 clean, 1 findings at or above --fail-on, 2 usage error, "
               "3 some input could not be audited, 4 no files found, 130 interrupted, "
               "141 output closed. 'kansa COMMAND --help' for each command.")
    parser.add_argument("--version", action="version", version=f"kansa {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    audit = sub.add_parser("audit", help="replay logs and report every rule violation",
                           description="Replay logs and report every rule violation: a "
                                       "summary for a person, or --json for a program.")
    _add_input_options(audit)
    _add_rules_option(audit)
    audit.add_argument("--json", action="store_true",
                       help="print the full result document as JSON on standard output")
    audit.add_argument("--fail-on", choices=("error", "warning", "never"), default="error",
                       help="exit 1 when a finding at or above this severity is found "
                            "(default: error)")
    audit.add_argument("--show", choices=("errors", "warnings", "none"), default="errors",
                       help="the findings the summary lists one by one: errors, warnings "
                            "(errors and warnings) or none (default: errors)")
    audit.add_argument("-v", "--verbose", dest="show", action="store_const",
                       const="warnings", help="the same as --show warnings")
    audit.add_argument("--max-listed", type=_count, default=50, metavar="N",
                       help="list at most N findings and count the rest; 0 lists them all "
                            "(default: %(default)s)")
    audit.add_argument("--color", "--colour", choices=("auto", "always", "never"),
                       default="auto", metavar="WHEN",
                       help="colour the summary: auto (on a terminal, unless NO_COLOR is "
                            "set; FORCE_COLOR forces it), always or never")
    _add_engine_options(audit)
    audit.add_argument("--store", metavar="DIR", default=None,
                       help="append findings and report tables to a Parquet results store; "
                            "a file already audited there (same content, rules, limits and "
                            "kansa version) is not audited again: its stored findings are "
                            "reported as on the first run")
    audit.add_argument("--out", dest="store", action=_Deprecated, new="--store")
    audit.add_argument("--no-timing", action="store_true",
                       help="report 0 seconds, so that repeated runs give identical JSON")
    audit.set_defaults(func=cmd_audit)

    rules = sub.add_parser(
        "rules", help="print a rule set as a TOML rule file, or the catalog of checks",
        description="With --rules NAME: print that rule set as a TOML rule file (which "
                    "--rules FILE.toml reads back). Without it, or with --catalog, "
                    "--json or --markdown: list every check with its severity and "
                    "citation (under --rules NAME's citations when given).")
    rules.add_argument("--rules", default=None,
                       help="a preset or a TOML file (default: no rule set, the EMA "
                            "citations)")
    fmt = rules.add_mutually_exclusive_group()
    fmt.add_argument("--catalog", action="store_true",
                     help="print the catalog of checks as text")
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
    stats.add_argument("-o", "--output", metavar="DIR", default=None,
                       help="folder to write into (created if missing); required")
    stats.add_argument("--out", dest="output", action=_Deprecated, new="-o/--output")
    stats.set_defaults(func=cmd_stats)

    report = sub.add_parser("report", help="write one self-contained HTML report")
    _add_input_options(report, required=False)
    _add_rules_option(report)
    _add_report_options(report)
    _add_engine_options(report)
    report.add_argument("-o", "--output", metavar="FILE", default="report.html",
                        help="the HTML file to write (default: %(default)s)")
    report.add_argument("--title", default=None, help="the report's title")
    report.add_argument("--max-findings", type=_count, default=200,
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

    wall_cmd.add_parser(sub).set_defaults(func=wall_cmd.cmd_wall)
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
    elif ruleset is not None and not args.catalog:
        sys.stdout.write(docs.as_toml(ruleset))
    else:
        sys.stdout.write(docs.as_text(ruleset))
    return EXIT_OK


def cmd_audit(args: argparse.Namespace) -> int:
    stdin = check_paths(args.paths)
    if stdin and args.store:
        raise UsageError("--store needs files: standard input (-) cannot be stored")
    total = 1 if stdin else sum(1 for _ in iter_files(args.paths))  # counted, not kept
    if not total:
        raise no_input(args.paths)
    files: Iterable[str] = [STDIN] if stdin else iter_files(args.paths)
    options = AuditOptions(rules=resolve_rules(args.rules), limits=_limits(args), fmt=args.fmt)
    engine = Engine() if stdin else _engine(args)  # standard input is read in this process
    show = {"errors": {"error"}, "warnings": {"error", "warning"}, "none": set()}[args.show]
    acc = Accumulator(show=frozenset(show), cap=args.max_listed or None)
    progress = progress_for(args, total)
    out = sys.stdout
    start = time.perf_counter()
    first = True
    store: Any = None
    items: Iterator[tuple[FileOutcome, bool]]  # each outcome, and whether from the store
    try:
        if args.store:
            from kansa import store as results  # noqa: PLC0415 (pandas only when asked for)

            store = results.ResultStore(Path(args.store))
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
        print_summary(tail, acc.listed, out, unlisted=acc.unlisted,
                      paint=Painter(colour_wanted(args.color, out)),
                      more_hint="--max-listed 0 lists them all; --json gives every finding")
    if acc.summary.not_audited:
        return EXIT_INTERRUPTED
    return exit_status(tail, args.fail_on, forced_format=args.fmt is not None)


def cmd_stats(args: argparse.Namespace) -> int:
    from kansa import reporting  # noqa: PLC0415  (pandas and matplotlib only when needed)

    return reporting.cmd_stats(args)


def cmd_report(args: argparse.Namespace) -> int:
    from kansa import reporting  # noqa: PLC0415  (pandas and matplotlib only when needed)

    return reporting.cmd_report(args)

def cmd_convert(args: argparse.Namespace) -> int:
    from kansa.convert import convert  # noqa: PLC0415 (keeps audit start-up light)

    files = [STDIN] if check_paths(args.paths) else list(iter_files(args.paths))
    if not files:
        raise no_input(args.paths)
    failed = convert(files, args.to, args.output, _limits(args), fmt=args.fmt)
    return EXIT_INPUT if failed else EXIT_OK


def exit_status(doc: dict[str, Any], fail_on: str, *, forced_format: bool = False) -> int:
    """The status a batch's summary deserves: input problems first, then findings."""
    s = doc["summary"]
    if s["unreadable"] or s["internal_errors"] or (forced_format and s["unsupported"]):
        return EXIT_INPUT
    return findings_status(s["violations"], s["errors_by_rule"], fail_on)


def findings_status(violations: dict[str, int], errors: dict[str, int], fail_on: str) -> int:
    """``EXIT_FINDINGS`` when a finding at or above ``fail_on`` is counted."""
    if fail_on == "error" and any(errors.values()):
        return EXIT_FINDINGS
    if fail_on == "warning" and any(violations.values()):
        return EXIT_FINDINGS
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits 2 on usage errors
        return int(exc.code) if isinstance(exc.code, int) else EXIT_USAGE
    try:
        status = int(args.func(args))
        sys.stdout.flush()  # a closed pipe shows here, not at exit
        return status
    except UsageError as exc:
        print(f"kansa: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except NoInputError as exc:
        print(f"kansa: {exc}", file=sys.stderr)
        return EXIT_NO_INPUT
    except KeyboardInterrupt:
        print("kansa: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _stdout_to_devnull()
        return EXIT_PIPE
    except Exception as exc:  # a bug in kansa itself, outside the per-file guards
        print(f"kansa: INTERNAL ERROR (please report): {type(exc).__name__}: {exc}\n"
              + "".join(traceback.format_exception(exc)), file=sys.stderr)
        return EXIT_INPUT


def _stdout_to_devnull() -> None:
    """After a closed pipe: point standard output at /dev/null so that the flush at
    exit does not fail again (the recipe of Python's signal documentation)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no real file descriptor (a test)
        pass


if __name__ == "__main__":
    sys.exit(main())
