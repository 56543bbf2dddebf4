"""The README stays true: its Quickstart is what CI runs, its Python blocks run, and
every shell command it shows runs (or is a synopsis whose flags exist, or is listed
in :data:`LONG` with the reason it is not run here).

Commands are found by reading the README: the lines of its ``sh`` blocks, the ``$``
lines of its plain blocks (with the output shown under them) and the inline code
spans that start with a command.  They run in a scratch folder where
``sample_logs/`` and each ``# NAME.toml`` block of the README are at hand, through
``python -m kansa`` with this checkout's source.
"""

from __future__ import annotations

import ast
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import pytest
from conftest import corpus_path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"

LONG: dict[str, str] = {
    r"^python3? -m venv\b": "makes a virtual environment (the Quickstart's installs; "
                            ".ci/run runs the second Quickstart command as it is)",
    r"^(\.venv/bin/)?pip install\b": "installs packages",
    r"-m pytest\b|^(\.venv/bin/)?pytest\b": "the test suite itself (.ci/run runs it)",
    r"^python setup\.py build_ext\b": "compiles the engine with mypyc: minutes",
    r"^python bench/": "a benchmark, or its generator of games: a minute or more",
    r"^python -m fuzz\.long_run\b": "the long fuzz run: 100,000 cases take about 11 minutes "
                                    "(tests/parsers/test_fuzz.py runs a CI-sized one)",
    r"^kansa audit \.\./shared/corpus$": "the whole corpus, about a minute on two cores "
                                         "(tests/corpus/test_corpus_audit.py checks its figures)",
}
"""Commands not run here, by pattern, and why."""
COMMAND_START = re.compile(r"^(\.venv/bin/)?(kansa|python3?|pip) ")
SHELL_LANGS = {"sh", "bash", "shell", "console"}


@dataclass
class Command:
    text: str
    line: int
    output: list[str] = field(default_factory=list)
    """The lines the README shows it printing."""

    def __str__(self) -> str:
        return f"README.md:{self.line}: {self.text}"


def readme() -> str:
    return README.read_text(encoding="utf-8")


def fenced_blocks(text: str) -> list[tuple[str, int, str]]:
    """``(language, line of the first content line, content)`` of every fenced block."""
    return [(m.group(1), text.count("\n", 0, m.start(2)) + 1, m.group(2))
            for m in re.finditer(r"^```(\w*)\n(.*?)^```", text, re.M | re.S)]


def _pieces(text: str, line: int, output: list[str] | None = None) -> list[Command]:
    """A command line split at ``&&``, each piece a command."""
    parts = [" ".join(p.split()) for p in text.split("&&")]
    commands = [Command(re.sub(r"^\.venv/bin/(?=kansa )", "", p), line) for p in parts]
    if output:
        commands[-1].output = output
    return commands


def readme_commands() -> list[Command]:
    text = readme()
    found: list[Command] = []
    for lang, first, body in fenced_blocks(text):
        lines = body.splitlines()
        if lang in SHELL_LANGS:
            joined: list[tuple[int, str]] = []
            for i, line in enumerate(lines):
                if line.strip() and not line.lstrip().startswith("#"):
                    if line[:1].isspace() and joined:  # a continuation line
                        joined[-1] = (joined[-1][0], joined[-1][1] + " " + line)
                    else:
                        joined.append((first + i, line))
            for at, line in joined:
                found += _pieces(line, at)
        elif lang == "":
            for i, line in enumerate(lines):
                if line.startswith("$ "):
                    shown = []
                    for after in lines[i + 1:]:
                        if after.startswith("$ "):
                            break
                        shown.append(after)
                    found += _pieces(line[2:], first + i, shown)
    prose = re.sub(r"^```.*?^```", lambda m: "\n" * m.group(0).count("\n"), text,
                   flags=re.M | re.S)
    for m in re.finditer(r"`([^`]+)`", prose):
        span = " ".join(m.group(1).split())
        if "\n\n" not in m.group(1) and COMMAND_START.match(span):
            found += _pieces(span, prose.count("\n", 0, m.start()) + 1)
    return found


def long_reason(command: Command) -> str | None:
    return next((why for pattern, why in LONG.items() if re.search(pattern, command.text)),
                None)


PLACEHOLDER = re.compile(r"\[|\||\.\.\.|^[A-Z][A-Z0-9_]*(\.[a-z]+)?\]?$")


def is_synopsis(command: Command) -> bool:
    """A form with placeholders (``PATH...``, ``[--json]``, ``DIR``, ``a|b``)."""
    return any(PLACEHOLDER.search(tok) for tok in command.text.split()[1:])


def argv(command: Command) -> list[str]:
    """The command as arguments for this checkout's Python."""
    words = shlex.split(command.text.replace("../shared/corpus", str(corpus_path())))
    if ">" in words:  # standard output to a file: see redirect()
        words = words[:words.index(">")]
    if words[0] == "kansa":
        return [sys.executable, "-m", "kansa", *words[1:]]
    if words[0] in ("python", "python3"):
        return [sys.executable, *words[1:]]
    raise AssertionError(f"{command}: no way to run {words[0]!r}")


def redirect(command: Command) -> str | None:
    """The file a command's standard output goes to (``kansa rules ... > club.toml``)."""
    words = shlex.split(command.text)
    return words[words.index(">") + 1] if ">" in words[:-1] else None


def environment() -> dict[str, str]:
    """The commands run the source tree's kansa (its tools, ``kansa.docs``, read and
    write the tree), whichever kansa this suite imports."""
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    return env


def run(args: list[str], cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, env=environment(), capture_output=True, text=True,
                          timeout=timeout, check=False, stdin=subprocess.DEVNULL)


@cache
def help_text(prefix: tuple[str, ...]) -> str:
    done = subprocess.run([*prefix, "--help"], cwd=ROOT, env=environment(),
                          capture_output=True, text=True, timeout=120, check=False)
    return done.stdout + done.stderr


def help_prefix(args: list[str]) -> tuple[str, ...]:
    """The command whose ``--help`` lists the flags of ``args``: the subcommand for
    ``kansa``, the module or script for Python."""
    if args[1:3] == ["-m", "kansa"]:
        sub = next((a for a in args[3:] if not a.startswith("-")), None)
        return tuple(args[:3] + ([sub] if sub else []))
    if args[1] == "-m":
        return tuple(args[:3])
    return tuple(args[:2])


def flags(text: str) -> list[str]:
    return [m.group(1) for m in re.finditer(r"(?<![\w/.:-])(--?[A-Za-z][\w-]*)", text)]


def assert_flags_exist(command: Command, args: list[str]) -> None:
    shown = help_text(help_prefix(args))
    missing = [f for f in flags(command.text)
               if not re.search(rf"(?<![\w-]){re.escape(f)}(?![\w-])", shown)]
    assert not missing, f"{command}: {', '.join(missing)} not in its --help"


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with the README's sample logs and its named TOML files."""
    folder = tmp_path_factory.mktemp("readme")
    (folder / "sample_logs").symlink_to(ROOT / "sample_logs")
    for lang, _, body in fenced_blocks(readme()):
        name = re.match(r"# (\S+\.toml)\n", body)
        if lang == "toml" and name:
            (folder / name.group(1)).write_text(body, encoding="utf-8")
    return folder


# -- the Quickstart and CI ------------------------------------------------------------

def quickstart_commands() -> list[str]:
    section = readme().split("## Quickstart", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block, "Quickstart has no sh block"
    return [line for line in block.group(1).splitlines() if line.strip()]


def test_quickstart_is_two_commands() -> None:
    first, second = quickstart_commands()
    assert "kansa audit sample_logs/" in first and "pip install ." in first
    assert "pytest" in second and "[test]" in second


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert quickstart_commands()[1] in ci


# -- every command ---------------------------------------------------------------------

COMMANDS = readme_commands()


def test_the_readme_commands_are_found() -> None:
    texts = [c.text for c in COMMANDS]
    assert any(t.startswith("kansa audit sample_logs/") for t in texts)  # the Quickstart
    assert any(c.output for c in COMMANDS)  # a command shown with its output
    assert any(is_synopsis(c) for c in COMMANDS) and any(long_reason(c) for c in COMMANDS)


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: f"{c.line}: {c.text[:50]}")
def test_readme_command(command: Command, scratch: Path) -> None:
    why = long_reason(command)
    if why is not None:
        pytest.skip(f"{command}: long run, not run here: {why}")
    args = argv(command)
    if is_synopsis(command):
        assert_flags_exist(command, args)
        return
    if "shared/corpus" in command.text and not corpus_path().is_dir():
        pytest.skip(f"{command}: needs the corpus at {corpus_path()}")
    if args[1:3] != ["-m", "kansa"] and "--check" not in args and re.search(
            r"(?<![\w-])--check\b", help_text(help_prefix(args))):
        args.append("--check")  # a generator: it checks, and writes nothing into the checkout
    done = run(args, scratch)
    target = redirect(command)
    if target is not None:
        (scratch / target).write_text(done.stdout, encoding="utf-8")
    said = f"{command}\nexit {done.returncode}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    assert "Traceback" not in done.stderr, said
    if done.returncode == 2 and not any(
            (scratch / w).exists() for w in shlex.split(command.text)[1:]):
        # a command named in the prose without its operands (`kansa audit --json`):
        # kansa says what is missing, and the flags it names exist
        assert done.stderr.strip(), said
        assert_flags_exist(command, args)
        return
    want = 0 if "--fail-on never" in command.text else None
    assert done.returncode in ((want,) if want is not None else (0, 1)), said
    if command.output:
        assert_prints(command, done.stdout)


def _normal(line: str) -> str:
    return re.sub(r"\d+(\.\d+)? s\b", "N s", " ".join(line.split()))


def assert_prints(command: Command, stdout: str) -> None:
    """Every line the README shows is printed, in that order (kansa may print more)."""
    got = iter(_normal(line) for line in stdout.splitlines())
    for line in command.output:
        want = _normal(line)
        if want and not any(want == have for have in got):
            raise AssertionError(f"{command}: the README shows {line.strip()!r}, "
                                 f"which kansa does not print in that order:\n{stdout}")


# -- every Python block ----------------------------------------------------------------

PYTHON_BLOCKS = [(line, body) for lang, line, body in fenced_blocks(readme())
                 if lang == "python"]


def test_the_python_blocks_are_found() -> None:
    assert len(PYTHON_BLOCKS) >= 2


@pytest.mark.parametrize(("line", "code"), PYTHON_BLOCKS, ids=lambda v: f"line{v}"
                         if isinstance(v, int) else "")
def test_readme_python_block(line: int, code: str, scratch: Path,
                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The block runs from the repository's root; its last line, when it is an
    expression, shows something (not None, not empty)."""
    monkeypatch.chdir(scratch)
    tree = ast.parse(code, filename=f"README.md:{line}")
    end = tree.body[-1] if tree.body else None
    last = end.value if isinstance(end, ast.Expr) else None
    if last is not None:
        tree.body.pop()
    namespace: dict[str, object] = {"__name__": "readme"}
    exec(compile(tree, f"README.md:{line}", "exec"), namespace)
    if last is not None:
        value = eval(compile(ast.Expression(last), f"README.md:{line}", "eval"),
                     namespace)
        assert value is not None, f"README.md:{line}: the last line shows None"
        size = getattr(value, "__len__", None)
        assert size is None or size() > 0, f"README.md:{line}: the last line shows nothing"
