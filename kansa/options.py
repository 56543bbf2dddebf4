"""The command line's shared pieces: exit statuses, usage errors, and the options that
several commands take (input and format, limits, rule set, running, reports), with the
helpers that turn them into the objects kansa runs with.

:mod:`kansa.cli` builds the commands from these; :mod:`kansa.reporting` (``stats``,
``report``) uses the same helpers without importing the command line itself.
"""

from __future__ import annotations

import argparse
import glob
import sys
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypeAlias

from kansa.batch import Engine, Progress, default_jobs
from kansa.discovery import missing_paths
from kansa.parsers import FORMATS
from kansa.parsers.source import DEFAULT_LIMITS, Limits
from kansa.replay.rules import PRESETS, RuleSet
from kansa.runner import STDIN

Subcommands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
"""What a command adds its parser to (``kansa.cli.COMMANDS``)."""

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
    """A bad command line, rule file or engine setting (exit status 2)."""


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


def limits_from(args: argparse.Namespace) -> Limits:
    return Limits(max_file_bytes=args.max_file_bytes,
                  max_decompressed_bytes=args.max_decompressed_bytes,
                  max_json_depth=args.max_json_depth, max_items=args.max_items,
                  max_seconds=args.max_seconds)


def whole(text: str, least: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < least:
        raise argparse.ArgumentTypeError(f"must be at least {least}, not {value}")
    return value


def positive_int(text: str) -> int:
    return whole(text, 1)


def count(text: str) -> int:
    return whole(text, 0)


def seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, not {text}")
    return value


class Deprecated(argparse.Action):
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


def add_input_options(p: argparse.ArgumentParser, *, required: bool = True) -> None:
    p.add_argument("paths", nargs="+" if required else "*", metavar="PATH",
                   help="log files, folders (searched recursively) or globs; - reads "
                        "one log from standard input")
    p.add_argument("--format", dest="fmt", default=None, choices=FORMATS,
                   help="read every file as this format instead of recognising it")
    add_limit_options(p)


def add_limit_options(p: argparse.ArgumentParser) -> None:
    limits = p.add_argument_group("limits", "refuse hostile input; each log that breaks one "
                                            "is unreadable, the batch goes on")
    limits.add_argument("--max-file-bytes", type=positive_int, metavar="BYTES",
                        default=DEFAULT_LIMITS.max_file_bytes,
                        help="refuse files larger than this (default %(default)s)")
    limits.add_argument("--max-decompressed-bytes", type=positive_int, metavar="BYTES",
                        default=DEFAULT_LIMITS.max_decompressed_bytes,
                        help="refuse a gzip stream, or a zip archive as a whole, that expands "
                             "past this (default %(default)s)")
    limits.add_argument("--max-json-depth", type=positive_int, metavar="N",
                        default=DEFAULT_LIMITS.max_json_depth,
                        help="refuse JSON nested deeper than this (default %(default)s)")
    limits.add_argument("--max-items", type=positive_int, default=DEFAULT_LIMITS.max_items,
                        metavar="N",
                        help="refuse a log with more XML tags or JSON list items and values, "
                             "or a zip with more files, than this (default %(default)s)")
    limits.add_argument("--max-seconds", type=seconds, default=DEFAULT_LIMITS.max_seconds,
                        metavar="SECONDS",
                        help="give up on a log that takes longer than this to read and replay "
                             "(default %(default)s)")


def add_rules_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rules", default="auto", metavar="RULES",
                   help="rule set: auto (from each log), a preset (ema, tenhou, majsoul, "
                        "wrc, mleague) or a TOML file (default: auto)")


def add_report_options(p: argparse.ArgumentParser) -> None:
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


def add_engine_options(p: argparse.ArgumentParser) -> None:
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


def engine_from(args: argparse.Namespace) -> Engine:
    if args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    if args.scheduler and args.engine != "dask":
        raise UsageError("--scheduler needs --engine dask")
    return Engine(kind=args.engine, jobs=args.jobs, scheduler=args.scheduler)


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
