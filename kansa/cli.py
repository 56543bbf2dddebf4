"""The ``kansa`` command."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import traceback
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from kansa import __version__, docs, wall_cmd
from kansa.batch import Engine, EngineError, Interrupt, run
from kansa.buildinfo import version_line
from kansa.discovery import iter_files
from kansa.options import (
    EXIT_FINDINGS,
    EXIT_INPUT,
    EXIT_INTERRUPTED,
    EXIT_NO_INPUT,
    EXIT_OK,
    EXIT_PIPE,
    EXIT_USAGE,
    Deprecated,
    NoInputError,
    Subcommands,
    UsageError,
    add_engine_options,
    add_input_options,
    add_limit_options,
    add_report_options,
    add_rules_option,
    check_paths,
    count,
    engine_from,
    exit_status,
    limits_from,
    no_input,
    progress_for,
    resolve_rules,
    seconds,
)
from kansa.parsers import FORMATS
from kansa.parsers.registry import WRITABLE
from kansa.replay.rules import RuleSet
from kansa.runner import STDIN, Accumulator, AuditOptions, FileOutcome
from kansa.summary import Painter, colour_wanted, print_summary

__all__ = [
    "COMMANDS", "EXIT_FINDINGS", "EXIT_INPUT", "EXIT_INTERRUPTED", "EXIT_NO_INPUT", "EXIT_OK",
    "EXIT_PIPE", "EXIT_USAGE", "NoInputError", "UsageError", "build_parser", "main",
    "resolve_rules",
]

"""What ``add_subparsers()`` gives: each command adds its parser to it."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kansa",
        description="Replay Riichi Mahjong logs, check every action and payment, report.",
        epilog=f"formats: {', '.join(FORMATS)} (gzip and zip read transparently). "
               "Exit status: 0 clean, 1 findings at or above --fail-on, 2 usage error, "
               "3 some input could not be audited, 4 no files found, 130 interrupted, "
               "141 output closed. 'kansa COMMAND --help' for each command.")
    parser.add_argument("--version", action="version", version=version_line(__version__))
    sub = parser.add_subparsers(dest="command", required=True)
    for add_command in COMMANDS:
        add_command(sub)
    return parser


def _audit_command(sub: Subcommands) -> None:
    audit = sub.add_parser("audit", help="replay logs and report every rule violation",
                           description="Replay logs and report every rule violation: a "
                                       "summary for a person, or --json for a program.")
    add_input_options(audit)
    add_rules_option(audit)
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
    audit.add_argument("--max-listed", type=count, default=50, metavar="N",
                       help="list at most N findings and count the rest; 0 lists them all "
                            "(default: %(default)s)")
    audit.add_argument("--color", "--colour", choices=("auto", "always", "never"),
                       default="auto", metavar="WHEN",
                       help="colour the summary: auto (on a terminal, unless NO_COLOR is "
                            "set; FORCE_COLOR forces it), always or never")
    add_engine_options(audit)
    audit.add_argument("--store", metavar="DIR", default=None,
                       help="append findings and report tables to a Parquet results store; "
                            "a file already audited there (same content, rules, limits and "
                            "kansa version) is not audited again: its stored findings are "
                            "reported as on the first run")
    audit.add_argument("--out", dest="store", action=Deprecated, new="--store")
    audit.add_argument("--no-timing", action="store_true",
                       help="report 0 seconds, so that repeated runs give identical JSON")
    audit.set_defaults(func=cmd_audit)


def _rules_command(sub: Subcommands) -> None:
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


def _stats_command(sub: Subcommands) -> None:
    stats = sub.add_parser("stats", help="write the report tables (CSV, Parquet) and plots "
                                         "(PNG, SVG)")
    add_input_options(stats, required=False)
    add_rules_option(stats)
    add_report_options(stats)
    add_engine_options(stats)
    stats.add_argument("-o", "--output", metavar="DIR", default=None,
                       help="folder to write into (created if missing); required")
    stats.add_argument("--out", dest="output", action=Deprecated, new="-o/--output")
    stats.set_defaults(func=cmd_stats)


def _report_command(sub: Subcommands) -> None:
    report = sub.add_parser("report", help="write one self-contained HTML report")
    add_input_options(report, required=False)
    add_rules_option(report)
    add_report_options(report)
    add_engine_options(report)
    report.add_argument("-o", "--output", metavar="FILE", default="report.html",
                        help="the HTML file to write (default: %(default)s)")
    report.add_argument("--title", default=None, help="the report's title")
    report.add_argument("--max-findings", type=count, default=200,
                        help="findings drawn with their table state; the rest are listed "
                             "(default: %(default)s)")
    report.add_argument("--packets", metavar="DIR", default=None,
                        help="write a dispute packet (as kansa explain does) for each hand "
                             "with a finding into DIR, and link each finding to it")
    report.set_defaults(func=cmd_report)


def _convert_command(sub: Subcommands) -> None:
    conv = sub.add_parser("convert", help="write logs as "
                          + " or ".join(f.title for f in WRITABLE))
    add_input_options(conv)
    conv.add_argument("--to", required=True, choices=[f.name for f in WRITABLE],
                      help="the format to write")
    conv.add_argument("-o", "--output", default=None, metavar="OUT",
                      help="a folder (one file per game) or a file; default: standard output")
    conv.set_defaults(func=cmd_convert)


WATCH_DESCRIPTION = (
    "Audit an mjai stream as it is written: standard input, or a file that grows (followed "
    "as tail -f does). Each finding is printed as one JSON line, shaped like a "
    "'violations' entry of 'audit --json', as soon as the event that proves it is read; "
    "the last line is the end of the 'audit --json' document (its summary). A line that "
    "cannot be read ends the watch with an 'unreadable' line.")


def _watch_command(sub: Subcommands) -> None:
    live = sub.add_parser("watch", help="audit an mjai stream as it is written: each "
                                        "finding as one JSON line, at once",
                          description=WATCH_DESCRIPTION)
    live.add_argument("file", nargs="?", default=STDIN, metavar="FILE",
                      help="an mjai log that is being written, or - (the default) for "
                           "standard input")
    live.add_argument("--idle-seconds", type=seconds, default=60.0, metavar="SECONDS",
                      help="stop following FILE after this long without growth "
                           "(default %(default)s)")
    live.add_argument("--fail-on", choices=("error", "warning", "never"), default="error",
                      help="exit 1 when a finding at or above this severity is found "
                           "(default: error)")
    add_rules_option(live)
    add_limit_options(live)
    live.set_defaults(func=cmd_watch)


def _explain_command(sub: Subcommands) -> None:
    """The ``kansa explain`` subcommand."""
    p = sub.add_parser(
        "explain", help="write the dispute packet of one hand: step by step, with the "
                        "finding, the rule, what was legal and the penalty",
        description="One self-contained HTML page about one hand of FILE (by default the "
                    "hand of its first error): every step from the deal to the result, "
                    "the finding with its deciding tiles, the rule's text, what was legal "
                    "instead and the rule set's penalty.  --json gives the same content "
                    "as data, --text as lines of tiles.")
    p.add_argument("path", metavar="FILE", help="a log in any format kansa reads")
    p.add_argument("--hand", default=None, metavar="LABEL",
                   help="the hand, as the findings name it (E2-1; E2 is E2-0)")
    p.add_argument("--finding", type=count, default=None, metavar="N",
                   help="the hand of the file's finding N (from 0, in the order "
                        "'kansa audit --json' lists them); it is the one the text view "
                        "stops at")
    p.add_argument("-o", "--output", default=None, metavar="FILE",
                   help="the HTML page to write (default packet.html; with --json the "
                        "evidence is written beside it as FILE.json)")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true",
                     help="the evidence as JSON, with the log's sha256: on standard "
                          "output, or beside the page with -o")
    fmt.add_argument("--text", action="store_true",
                     help="print the hand as lines of tiles, step by step up to the finding")
    add_rules_option(p)
    add_limit_options(p)
    p.set_defaults(func=cmd_explain)


COMMANDS: tuple[Callable[[Subcommands], None], ...] = (
    _audit_command, _rules_command, _stats_command, _report_command, _convert_command,
    _watch_command, wall_cmd.wall_command, _explain_command)
"""The subcommands, in the order ``kansa --help`` lists them: each adds its parser and
sets ``func``, the function that runs it (``args -> exit status``)."""


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
    options = AuditOptions(rules=resolve_rules(args.rules), limits=limits_from(args), fmt=args.fmt)
    engine = Engine() if stdin else engine_from(args)  # standard input is read in this process
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
    failed = convert(files, args.to, args.output, limits_from(args), fmt=args.fmt)
    return EXIT_INPUT if failed else EXIT_OK


def cmd_explain(args: argparse.Namespace) -> int:
    from kansa import explain  # noqa: PLC0415  (the packet's modules only when asked for)

    return explain.cmd_explain(args)


def cmd_watch(args: argparse.Namespace) -> int:
    if args.file != STDIN and not Path(args.file).is_file():
        raise UsageError(f"no such file: {args.file}")
    from kansa.watch import watch  # noqa: PLC0415  (the mjai stream reader only when asked for)

    tail, interrupted = watch(args.file, resolve_rules(args.rules), limits_from(args),
                              idle_seconds=args.idle_seconds)
    return EXIT_INTERRUPTED if interrupted else exit_status(tail, args.fail_on)


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
