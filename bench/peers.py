"""Peers in kansa's benchmark: the same games through other replayers, timed alike.

``python bench/bench.py --peers [--peer-python /tmp/peers/bin/python]`` hands the
games it times to the peers installed in a separate virtual environment (they are
not kansa's dependencies):

* **jansou** (pure Python) parses the very bytes kansa parses: the Tenhou XML
  (gunzipped as kansa reads it), or mjai for generated games;
* **riichienv** (a Rust engine) and the **mjai** package's state tracker (Mortal's
  libriichi ``PlayerState``, Rust) read mjai only, so each game is first written
  as mjai by kansa's own writer (``kansa.parsers.mjai.read.write``), untimed, with each win's
  ``fan`` also given as ``han``, the key riichienv reads.

This file runs twice.  ``bench/bench.py`` imports it in kansa's environment (the
parent side: it writes the games to a scratch folder and prints the comparison),
and the peer environment's python runs it as a script with ``--worker`` (the
worker side: it imports the standard library and the peers, never kansa).  The
worker pins itself to the CPU kansa was timed on, reads every game into memory
(riichienv's reader takes a path, so its files sit in ``/dev/shm``), runs each
mode once on the first game untimed (lazy tables and caches warm up), then times
the mode over all games in CPU time (``time.process_time``) and prints JSON.
The parent runs kansa's passes and the worker in turn, ``--repeat`` times, and
keeps the best pass of each, so that load on a shared machine hits both sides alike.

A peer that raises on a game does not stop the run: the game is counted as an
error (its parser raised) or a failure (its replay raised, or a win's score
differed from the log), and only the games it got through count in its games/s.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import importlib.machinery
import importlib.metadata
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kansa.replay.game import Game

DEFAULT_PYTHON = "/tmp/peers/bin/python"
PEERS = ("jansou", "riichienv", "mjai")
SAMPLES = 3
"""How many failure messages a mode keeps."""

KANSA_MODES = {
    "parse": "parse",
    "engine": "replay (engine only: rule checks off)",
    "audit": "full audit (every check and score verification)",
}


@dataclass(frozen=True)
class PeerMode:
    name: str
    versus: str
    """The kansa mode (a key of :data:`KANSA_MODES`) it is compared with."""
    checks: str


PEER_INFO: dict[str, tuple[str, tuple[PeerMode, ...]]] = {
    "jansou": ("pure Python; parses the same bytes kansa parses", (
        PeerMode("parse", "parse", "jansou.io.mjlog.parse_mjlog (mjai: jansou.io.mjai.parse_mjai)"),
        PeerMode("scores", "audit",
                 "parse + jansou.validation.check.check_paifu, jansou-validate's work per file:"
                 " rebuild each win from the record, score it, compare its value (han, fu,"
                 " limit, dealer/tsumo multipliers) and fu with the log; no legality checks"),
        PeerMode("replay+scores", "audit",
                 "parse + jansou.io.replay.replay_paifu (each round driven through jansou's"
                 " live game flow from a rebuilt wall: every decision's legal menu, every"
                 " engine event checked against the record, a divergence raises) + check_paifu"),
    )),
    "riichienv": ("Rust engine; reads the games as mjai written by kansa", (
        PeerMode("parse", "parse", "MjaiReplay.from_jsonl(path, rule='tenhou') + take_kyokus()"),
        PeerMode("replay", "engine",
                 "parse + Kyoku.steps() for every hand: the Rust GameState driven through each"
                 " logged action with the legal actions at each decision; a desync raises"),
        PeerMode("replay+scores", "audit",
                 "replay + Kyoku.take_win_result_contexts(): each win valued by the Rust"
                 " evaluator, han and fu compared with the log's (yakuman: only that it wins);"
                 " its haitei/houtei flag is set on wins after about the 35th draw of a hand"
                 " also in other tools' mjai, so those one-han differences are riichienv's"),
    )),
    "mjai": ("Mortal's libriichi PlayerState (Rust), bundled in the mjai package", (
        PeerMode("state", "engine",
                 "four PlayerStates (one per seat) fed every mjai event; state only,"
                 " no score checks"),
    )),
}


# --- the worker side: standard library and the peers only ----------------------------

@dataclass
class Outcome:
    seconds: float = float("inf")
    games: int = 0
    completed: int = 0
    """Games the peer went through without raising (score mismatches included)."""
    errors: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    n_errors: int = 0
    n_failures: int = 0
    wins: int = 0
    bad_wins: int = 0
    kinds: dict[str, int] = field(default_factory=dict)
    """The differing wins by kind of difference."""

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


class _Error(Exception):
    """The peer's parser raised on a game."""


class _Fail(Exception):
    """The peer's replay raised on a game, or a win's score differed from the log."""


@dataclass
class _Tally:
    wins: int = 0
    bad: list[tuple[str, str]] = field(default_factory=list)
    """(kind, description) of each win whose score differs from the log."""


def _parsed(fn: Callable[[], Any]) -> Any:
    try:
        return fn()
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # a Rust panic arrives as pyo3's PanicException
        raise _Error(f"{type(exc).__name__}: {exc}") from exc


def _replayed(fn: Callable[[], Any]) -> Any:
    try:
        return fn()
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:
        raise _Fail(f"{type(exc).__name__}: {exc}") from exc


ModeFn = Callable[[int, _Tally], None]


def _jansou(items: list[dict[str, str]]) -> dict[str, ModeFn]:
    mjlog = importlib.import_module("jansou.io.mjlog")
    mjai = importlib.import_module("jansou.io.mjai")
    check = importlib.import_module("jansou.validation.check")
    live = importlib.import_module("jansou.io.replay")
    data = [(it["kind"], Path(it["raw"]).read_bytes()) for it in items]

    def parse(i: int) -> Any:
        kind, raw = data[i]
        if kind == "xml":
            return _parsed(lambda: mjlog.parse_mjlog(raw))
        return _parsed(lambda: mjai.parse_mjai(raw.decode()))

    def scores(paifu: Any, t: _Tally) -> None:
        for v in _replayed(lambda: check.check_paifu(paifu)):
            t.wins += 1
            if not v.passed:
                t.bad.append((v.detail.split(" ")[0].rstrip(":"), f"seat {v.winner}: {v.detail}"))

    def replay_all(paifu: Any) -> None:
        for _ in live.replay_paifu(paifu):
            pass

    def mode_parse(i: int, t: _Tally) -> None:
        parse(i)

    def mode_scores(i: int, t: _Tally) -> None:
        scores(parse(i), t)

    def mode_replay_scores(i: int, t: _Tally) -> None:
        paifu = parse(i)
        _replayed(lambda: replay_all(paifu))
        scores(paifu, t)

    return {"parse": mode_parse, "scores": mode_scores, "replay+scores": mode_replay_scores}


def _riichienv(items: list[dict[str, str]]) -> dict[str, ModeFn]:
    riichienv = importlib.import_module("riichienv")
    replay_cls = riichienv.MjaiReplay
    yaku_names = {y.id: y.name_en for y in riichienv.get_all_yaku()}
    last_tile = {i for i, name in yaku_names.items() if name.startswith(("Haitei", "Houtei"))}

    # MjaiReplay (0.4.11) marks haitei/houtei on most wins after the 35th draw of a hand,
    # with half the live wall left: on the corpus's mjai from other tools too (22 of the 33
    # wins of smly/RiichiEnv's own 126_204_0_mjai.jsonl, 5 of 6 in yuufyu/wahaha's), and
    # on no win before the 34th.  Such a win is counted as its own kind of difference.
    def differs(c: Any) -> tuple[str, str]:
        a = c.actual
        names = ", ".join(yaku_names.get(y, str(y)) for y in a.yaku)
        kind = "han/fu"
        if a.fu == c.expected_fu and a.han == c.expected_han + 1 and last_tile & set(a.yaku):
            kind = "one han more: a haitei/houtei the log does not have"
        return kind, (f"seat {c.seat}: {a.han} han {a.fu} fu ({names}),"
                      f" log {c.expected_han} han {c.expected_fu} fu")
    paths = [it["mjai"] for it in items]

    def parse(i: int) -> list[Any]:
        return list(_parsed(lambda: replay_cls.from_jsonl(paths[i], rule="tenhou").take_kyokus()))

    def steps(kyokus: list[Any]) -> None:
        for k in kyokus:
            for _ in k.steps():
                pass

    def contexts(kyoku: Any) -> list[Any]:
        return list(_replayed(lambda: list(kyoku.take_win_result_contexts())))

    def scores(kyokus: list[Any], t: _Tally) -> None:
        for k in kyokus:
            for c in contexts(k):
                t.wins += 1
                a = c.actual
                if not a.is_win:
                    t.bad.append(("no win", f"seat {c.seat}: the evaluator finds no win"))
                elif not a.yakuman and (a.han, a.fu) != (c.expected_han, c.expected_fu):
                    t.bad.append(differs(c))

    def mode_parse(i: int, t: _Tally) -> None:
        parse(i)

    def mode_replay(i: int, t: _Tally) -> None:
        kyokus = parse(i)
        _replayed(lambda: steps(kyokus))

    def mode_replay_scores(i: int, t: _Tally) -> None:
        kyokus = parse(i)
        _replayed(lambda: steps(kyokus))
        scores(kyokus, t)

    return {"parse": mode_parse, "replay": mode_replay, "replay+scores": mode_replay_scores}


def _libriichi() -> Any:
    """The mjai package's bundled libriichi extension, loaded without the package's
    ``__init__`` (which needs the simulator's dependencies: loguru, requests)."""
    spec = importlib.util.find_spec("mjai")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("no mjai package")
    for folder in spec.submodule_search_locations:
        for so in sorted(Path(folder).glob("mlibriichi*.so")):
            loader = importlib.machinery.ExtensionFileLoader("mlibriichi", str(so))
            ext = importlib.util.spec_from_file_location("mlibriichi", so, loader=loader)
            if ext is None:
                continue
            module = importlib.util.module_from_spec(ext)
            loader.exec_module(module)
            return module
    raise ImportError("the mjai package has no mlibriichi extension")


def _mjai(items: list[dict[str, str]]) -> dict[str, ModeFn]:
    player_state = _libriichi().state.PlayerState
    lines = [Path(it["mjai"]).read_text(encoding="utf-8").splitlines() for it in items]

    def track(i: int) -> None:
        seats = [player_state(s) for s in range(4)]
        for line in lines[i]:
            for p in seats:
                p.update(line)

    def mode_state(i: int, t: _Tally) -> None:
        _replayed(lambda: track(i))

    return {"state": mode_state}


LOADERS: dict[str, Callable[[list[dict[str, str]]], dict[str, ModeFn]]] = {
    "jansou": _jansou, "riichienv": _riichienv, "mjai": _mjai}


def _version(peer: str) -> str:
    try:
        return importlib.metadata.version(peer)
    except importlib.metadata.PackageNotFoundError:
        return "?"


def probe() -> dict[str, str]:
    """Each peer this python can load: its version, or why not (``"-" + reason``)."""
    found: dict[str, str] = {}
    for peer in PEERS:
        try:
            if peer == "mjai":
                _libriichi()
            else:
                importlib.import_module(peer)
            found[peer] = _version(peer)
        except Exception as exc:
            found[peer] = f"-{type(exc).__name__}: {exc}"
    return found


def pin(cpu: int | None) -> None:
    """Run this process on one CPU only, where the platform allows it."""
    if cpu is not None and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {cpu})


def time_modes(peer: str, items: list[dict[str, str]], repeat: int) -> dict[str, Outcome]:
    """Best of ``repeat`` passes of each of ``peer``'s modes over ``items``."""
    modes = LOADERS[peer](items)
    out: dict[str, Outcome] = {}
    for name, fn in modes.items():
        with contextlib.suppress(_Error, _Fail):
            fn(0, _Tally())  # warm-up, untimed: lazy tables and caches are not the games' cost
        best = Outcome(games=len(items))
        for _ in range(repeat):
            o = Outcome(games=len(items))
            start = time.process_time()
            for i in range(len(items)):
                t = _Tally()
                try:
                    fn(i, t)
                except _Error as exc:
                    o.n_errors += 1
                    if len(o.errors) < SAMPLES:
                        o.errors.append(f"{items[i]['name']}: {exc}"[:300])
                    continue
                except _Fail as exc:
                    o.n_failures += 1
                    if len(o.failures) < SAMPLES:
                        o.failures.append(f"{items[i]['name']}: {exc}"[:300])
                    continue
                o.completed += 1
                o.wins += t.wins
                o.bad_wins += len(t.bad)
                for kind, _ in t.bad:
                    o.kinds[kind] = o.kinds.get(kind, 0) + 1
                if t.bad:
                    o.n_failures += 1
                    if len(o.failures) < SAMPLES:
                        o.failures.append(f"{items[i]['name']}: {len(t.bad)} win(s) differ,"
                                          f" first {t.bad[0][1]}"[:300])
            o.seconds = time.process_time() - start
            if o.seconds < best.seconds:
                best = o
        out[name] = best
    return out


def worker(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--worker", type=Path, help="the manifest the parent wrote")
    ap.add_argument("--probe", action="store_true")
    ap.add_argument("--peers", default=",".join(PEERS))
    ap.add_argument("--cpu", type=int)
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args(argv)
    if args.probe:
        print(json.dumps(probe()))
        return 0
    pin(args.cpu)
    items = json.loads(args.worker.read_text(encoding="utf-8"))["items"]
    result = {peer: {m: o.to_dict() for m, o in time_modes(peer, items, args.repeat).items()}
              for peer in args.peers.split(",") if peer}
    print(json.dumps(result))
    return 0


# --- the parent side: kansa's environment ------------------------------------------

@dataclass(frozen=True)
class Workload:
    """The games of one benchmark line-up, as kansa times them."""

    label: str
    blobs: list[tuple[bytes, str]]
    """The bytes kansa parses and the name of each file."""
    games: list[Game]
    kind: str
    """``xml`` or ``mjai``: what the bytes are (jansou parses them as such)."""


def _mjai_for_riichienv(game: Game) -> str:
    """kansa's mjai of ``game`` with each win's ``fan`` also as ``han`` (riichienv's key)."""
    from kansa.parsers.mjai import read as mjai  # noqa: PLC0415 (the worker side never imports kansa)

    lines = []
    for line in mjai.write(game).splitlines():
        out = line
        if line.startswith('{"type":"hora"'):
            ev = json.loads(line)
            if "fan" in ev and "han" not in ev:
                ev["han"] = ev["fan"]
            out = json.dumps(ev, ensure_ascii=False, separators=(",", ":"))
        lines.append(out)
    return "\n".join(lines) + "\n"


def write_manifest(work: Workload, folder: Path) -> Path:
    items = []
    for n, ((data, source), game) in enumerate(zip(work.blobs, work.games, strict=True)):
        raw = folder / f"{n:05d}.{work.kind}"
        raw.write_bytes(data)
        mj = folder / f"{n:05d}.jsonl"
        mj.write_text(_mjai_for_riichienv(game), encoding="utf-8")
        items.append({"name": Path(source).name, "kind": work.kind, "raw": str(raw),
                      "mjai": str(mj)})
    manifest = folder / "manifest.json"
    manifest.write_text(json.dumps({"items": items}), encoding="utf-8")
    return manifest


def _run(python: str, args: list[str], timeout: float) -> tuple[Any, str]:
    """Run this file under ``python``; its JSON answer, or ``None`` and why not."""
    try:
        out = subprocess.run([python, "-I", str(Path(__file__).resolve()), *args],
                             capture_output=True, text=True, timeout=timeout, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return None, f"{type(exc).__name__}: {exc}"
    if out.returncode != 0:
        tail = (out.stderr or out.stdout).strip().splitlines()[-3:]
        return None, f"exit {out.returncode}: " + " | ".join(tail)
    try:
        return json.loads(out.stdout.strip().splitlines()[-1]), ""
    except (ValueError, IndexError):
        return None, f"no JSON answer: {out.stdout[-200:]!r}"


def available(python: str) -> tuple[dict[str, str], str]:
    """The peers ``python`` can load (name to version), or an empty dict and why."""
    if not Path(python).exists():
        return {}, f"no peer python at {python}"
    found, why = _run(python, ["--probe"], timeout=120)
    if found is None:
        return {}, f"{python} cannot run the peer probe ({why})"
    ok = {k: v for k, v in found.items() if not v.startswith("-")}
    if not ok:
        missing = "; ".join(f"{k}: {v[1:]}" for k, v in found.items())
        return {}, f"none of {', '.join(PEERS)} loads in {python} ({missing})"
    return ok, ""


def default_cpu() -> int | None:
    if hasattr(os, "sched_getaffinity"):
        return min(os.sched_getaffinity(0))
    return None


@contextlib.contextmanager
def pinned(cpu: int | None) -> Iterator[None]:
    """Run the block on one CPU (kansa's side of the comparison), then restore."""
    if cpu is None or not hasattr(os, "sched_setaffinity"):
        yield
        return
    before = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {cpu})
    try:
        yield
    finally:
        os.sched_setaffinity(0, before)


def _scratch() -> str | None:
    shm = Path("/dev/shm")
    return str(shm) if shm.is_dir() and os.access(shm, os.W_OK) else None


KansaRun = Callable[[str], tuple[float, int]]
"""Time one pass of a kansa mode: (CPU seconds, games)."""


def _rate(games: int, seconds: float) -> float:
    return games / seconds if seconds > 0 else float("inf")


FIGURES: dict[str, Mapping[str, Mapping[str, tuple[float, int]]]] = {}
"""kansa's figures emitted so far, by workload label, build and mode: (seconds, games)."""


def emit_kansa(label: str, kansa: Mapping[str, Mapping[str, tuple[float, int]]],
               emit: Callable[[str], None] = print) -> None:
    """kansa's figures per mode, one line per build, and compiled over pure when both ran
    (kept in :data:`FIGURES`)."""
    FIGURES[label] = kansa
    for mode, title in KANSA_MODES.items():
        for build, figures in kansa.items():
            seconds, games = figures[mode]
            emit(f"{label:11s} {build:8s} {title:49s} {games:5d} games"
                 f"  {_rate(games, seconds):8.1f} games/s  ({seconds * 1e3:.0f} ms per pass)")
        if "pure" in kansa and "compiled" in kansa:
            (ps, pg), (cs, cg) = kansa["pure"][mode], kansa["compiled"][mode]
            emit(f"{label:11s} {'':8s} {'compiled / pure':49s} {'':11s}"
                 f"  {_rate(cg, cs) / _rate(pg, ps):8.2f}x")


def compare(work: Workload, kansa_runs: Mapping[str, KansaRun], *, python: str, repeat: int,
            cpu: int | None, emit: Callable[[str], None] = print,
            timeout: float = 3600.0) -> int:
    """Time kansa's modes in each build of ``kansa_runs`` (``pure``, ``compiled``) and every
    peer ``python`` has on ``work``, in turn, best of ``repeat`` rounds; print them all and
    the ratios.  Return how many peers ran."""
    found, why = available(python)
    versions = dict(found)
    kansa: dict[str, dict[str, tuple[float, int]]] = {build: {} for build in kansa_runs}

    def kansa_round() -> None:
        with pinned(cpu):
            for build, run in kansa_runs.items():
                for mode in KANSA_MODES:
                    seconds, games = run(mode)
                    kept = kansa[build].get(mode)
                    if kept is None or seconds < kept[0]:
                        kansa[build][mode] = (seconds, games)

    results: dict[str, dict[str, Outcome]] = {}
    problems: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="kansa-peers-", dir=_scratch()) as tmp:
        manifest = write_manifest(work, Path(tmp)) if found else None
        for _ in range(repeat):
            kansa_round()
            if manifest is None:
                continue
            for peer in list(found):
                args = ["--worker", str(manifest), "--peers", peer, "--repeat", "1"]
                if cpu is not None:
                    args += ["--cpu", str(cpu)]
                answer, err = _run(python, args, timeout)
                if answer is None:
                    problems[peer] = err
                    del found[peer]
                    continue
                for mode, d in answer[peer].items():
                    o = Outcome(**d)
                    kept_o = results.setdefault(peer, {}).get(mode)
                    if kept_o is None or o.seconds < kept_o.seconds:
                        results[peer][mode] = o
    emit_kansa(work.label, kansa, emit)
    if not results and not problems:
        emit(f"peers: {why}; nothing to compare (install jansou, riichienv or mjai in a"
             " virtual environment and pass its python with --peer-python)")
        return 0
    where = f"CPU {cpu}" if cpu is not None else "no CPU pinning"
    emit(f"peers on the same {len(work.blobs)} games ({work.label}), {python}, {where},"
         f" CPU time, best of {repeat} rounds taken in turn with kansa's:")
    for peer, modes in results.items():
        blurb, specs = PEER_INFO[peer]
        emit(f"  {peer} {versions[peer]} ({blurb})")
        for spec in specs:
            if spec.name not in modes:
                continue
            o = modes[spec.name]
            rate = _rate(o.completed, o.seconds)
            ratios = []
            for build, figures in kansa.items():
                k_seconds, k_games = figures[spec.versus]
                ratio = _rate(k_games, k_seconds) / rate if rate else float("inf")
                ratios.append(f"{build} {ratio:5.2f}")
            emit(f"    {spec.name:14s} {o.completed:5d}/{o.games} games {rate:8.1f} games/s"
                 f"  kansa {spec.versus} / {peer} {spec.name}: {', '.join(ratios)}")
            if o.wins:
                kinds = ", ".join(f"{n} {k}" for k, n in sorted(o.kinds.items(),
                                                                 key=lambda kv: -kv[1]))
                emit(f"{'':20s}wins checked {o.wins}, differing from the log {o.bad_wins}"
                     + (f": {kinds}" if kinds else ""))
            if o.n_errors:
                emit(f"{'':20s}{o.n_errors} error(s) (parser raised): {'; '.join(o.errors)}")
            if o.n_failures:
                emit(f"{'':20s}{o.n_failures} failure(s): {'; '.join(o.failures)}")
    for peer, err in problems.items():
        emit(f"  {peer}: the worker failed ({err})")
    emit("  what each peer mode does (its ratio is kansa's games/s in the named mode over"
         " the peer's):")
    for peer in results:
        for spec in PEER_INFO[peer][1]:
            emit(f"    {peer} {spec.name}: {spec.checks}")
    return len(results)


if __name__ == "__main__":
    sys.exit(worker())
