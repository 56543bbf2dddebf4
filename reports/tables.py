"""Replay results as pandas tables: games, seats, hands, wins, riichi, payments.

>>> from kansa.reports.tables import build_tables                 # doctest: +SKIP
>>> t = build_tables(results)                              # doctest: +SKIP
>>> t.hands[["label", "result", "winners", "value"]]       # doctest: +SKIP

Every table is long (one row per thing) with a ``game`` key (``file#index``)
so tables join on ``game`` and ``hand`` (the hand's position in its game).
Seats are absolute (0 = the game's first dealer); player names come from the
log and are the player's identity across games, except a name that stands for
nobody in particular (see :func:`seat_name`).  Missing values are ``<NA>``
(pandas nullable types), never a made-up zero.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, fields
from pathlib import PurePath
from typing import Any

import pandas as pd

from kansa.replay.events import DrawReason
from kansa.replay.result import HandRecord, ReplayResult
from kansa.reports.facts import first_tenpai_turn, riichi_facts, tenpai_at_end
from kansa.reports.ledger import POOL_NAME, Payment, payments, win_value

OUTCOMES: tuple[str, ...] = ("tsumo", "ron", "dealt_in", "other_won", "exhaustive_draw",
                             "abortive_draw", "unfinished")
"""How a riichi declaration ended, from the declarer's side."""

EXHAUSTIVE = (DrawReason.EXHAUSTIVE, DrawReason.NAGASHI_MANGAN)


def game_key(result: ReplayResult) -> str:
    return f"{result.source}#{result.index}"


def game_title(result: ReplayResult) -> str:
    """A short label: the log id, or the file name (with ``#index`` for multi-game files)."""
    if result.log_id:
        return result.log_id
    name = PurePath(result.source).name
    return f"{name}#{result.index}" if result.index else name


PLACEHOLDER_NAMES: frozenset[str] = frozenset({"NoName", "Aさん", "Bさん", "Cさん", "Dさん"})
"""Names that stand for nobody in particular: Tenhou's name for a guest, and the names
its anonymised display (and logs made from it) gives the four seats."""


def seat_name(result: ReplayResult, seat: int) -> str:
    """The name the tables give ``seat``'s player.

    A placeholder name (:data:`PLACEHOLDER_NAMES`, none at all, or the seat's own
    number, as some mjai writers put) is qualified with the game and the seat, so that
    the players table and the plots do not count strangers who share it as one player:
    ``NoName (a.json, seat 1)``, ``(no name) (a.json, seat 2)``.
    """
    name = result.names[seat] if 0 <= seat < len(result.names) else ""
    bare = name.strip()
    if bare and bare not in PLACEHOLDER_NAMES and bare != str(seat):
        return name
    return f"{bare or '(no name)'} ({game_title(result)}, seat {seat})"


def placements(scores: tuple[int, ...]) -> list[int]:
    """1-based placement per seat; ties go to the lower seat (the earlier first dealer).

    >>> placements((25000, 31000, 25000, 19000))
    [2, 1, 3, 4]
    """
    order = sorted(range(len(scores)), key=lambda s: (-scores[s], s))
    out = [0] * len(scores)
    for rank, s in enumerate(order, 1):
        out[s] = rank
    return out


@dataclass(slots=True)
class Tables:
    """The report tables; see the README's Reports section for every column."""

    games: pd.DataFrame
    seats: pd.DataFrame
    hands: pd.DataFrame
    player_hands: pd.DataFrame
    wins: pd.DataFrame
    riichi: pd.DataFrame
    payments: pd.DataFrame
    findings: pd.DataFrame
    extra: dict[str, pd.DataFrame] = field(default_factory=dict)
    """Derived tables (players, tenpai by turn) added by :func:`kansa.reports.build`."""

    def items(self) -> Iterator[tuple[str, pd.DataFrame]]:
        for f in fields(self):
            if f.name != "extra":
                yield f.name, getattr(self, f.name)
        yield from self.extra.items()


@dataclass(slots=True)
class _Rows:
    games: list[dict[str, Any]] = field(default_factory=list)
    seats: list[dict[str, Any]] = field(default_factory=list)
    hands: list[dict[str, Any]] = field(default_factory=list)
    player_hands: list[dict[str, Any]] = field(default_factory=list)
    wins: list[dict[str, Any]] = field(default_factory=list)
    riichi: list[dict[str, Any]] = field(default_factory=list)
    payments: list[dict[str, Any]] = field(default_factory=list)
    findings: list[dict[str, Any]] = field(default_factory=list)


SCHEMAS: dict[str, dict[str, str]] = {
    "games": {
        "game": "string", "title": "string", "file": "string", "index": "Int64",
        "log_id": "string", "format": "string", "rules": "string", "players": "Int64",
        "hands": "Int64", "complete": "boolean", "placed": "boolean", "errors": "Int64",
        "warnings": "Int64", "unchecked_events": "Int64",
    },
    "seats": {
        "game": "string", "seat": "Int64", "name": "string", "final_score": "Int64",
        "placement": "Int64", "final_points": "Float64",
    },
    "hands": {
        "game": "string", "hand": "Int64", "label": "string", "round": "string",
        "kyoku": "Int64", "honba": "Int64", "kyotaku": "Int64", "dealer": "Int64",
        "dealer_name": "string", "result": "string", "winners": "string", "loser": "Int64",
        "value": "Int64", "turns": "Int64", "riichi": "Int64", "tenpai": "string",
        "tenpai_source": "string", "complete": "boolean", "unchecked_events": "Int64",
        "wall": "string",
    },
    "player_hands": {
        "game": "string", "hand": "Int64", "label": "string", "seat": "Int64",
        "name": "string", "dealer": "boolean", "complete": "boolean",
        "start_score": "Int64", "end_score": "Int64", "delta": "Int64", "won": "boolean",
        "tsumo": "boolean", "dealt_in": "boolean", "win_value": "Int64", "win_turn": "Int64",
        "deal_in_value": "Int64", "calls": "Int64", "called": "boolean", "riichi": "boolean",
        "exhaustive_draw": "boolean", "tenpai_end": "boolean", "tenpai_replayed": "boolean",
        "first_tenpai_turn": "Int64", "turns": "Int64",
    },
    "wins": {
        "game": "string", "hand": "Int64", "label": "string", "winner": "Int64",
        "winner_name": "string", "loser": "Int64", "loser_name": "string", "tsumo": "boolean",
        "dealer": "boolean", "value": "Int64", "turn": "Int64", "riichi": "boolean",
        "open": "boolean", "pao": "Int64",
    },
    "riichi": {
        "game": "string", "hand": "Int64", "label": "string", "seat": "Int64",
        "name": "string", "turn": "Int64", "accepted": "boolean", "tile": "string",
        "dealer": "boolean", "waits": "string", "live": "Int64", "furiten": "boolean",
        "good_shape": "boolean", "chasing": "boolean", "chased": "boolean",
        "dama_turns": "Int64", "outcome": "string", "points": "Int64",
    },
    "payments": {
        "game": "string", "hand": "Int64", "label": "string", "payer": "Int64",
        "payer_name": "string", "payee": "Int64", "payee_name": "string", "amount": "Int64",
        "reason": "string",
    },
    "findings": {
        "game": "string", "title": "string", "rule": "string", "severity": "string",
        "hand": "string", "turn": "Int64", "seat": "Int64", "name": "string",
        "event": "Int64", "source": "string", "message": "string", "citation": "string",
        "state": "string",
    },
}
"""Column names and pandas dtypes of every table, in column order."""


def build_tables(results: Iterable[ReplayResult]) -> Tables:
    """The base tables of a batch of replayed games (one pass, rows per game)."""
    return tables_from_rows(table_rows(results))


def tables_from_rows(rows: dict[str, list[dict[str, Any]]]) -> Tables:
    """The base tables of rows gathered by :func:`table_rows` (one file's or many)."""

    def make(name: str) -> pd.DataFrame:
        return frame(rows[name], SCHEMAS[name])

    return Tables(games=make("games"), seats=make("seats"), hands=make("hands"),
                  player_hands=make("player_hands"), wins=make("wins"),
                  riichi=make("riichi"), payments=make("payments"),
                  findings=make("findings"))


def table_rows(results: Iterable[ReplayResult]) -> dict[str, list[dict[str, Any]]]:
    """The rows of every base table, by table name, before they become frames: what a
    worker sends back (many files' rows then make one frame each, see ``kansa.store``)."""
    rows = _Rows()
    for result in results:
        _add_game(rows, result)
    return {name: getattr(rows, name) for name in SCHEMAS}


def frame(rows: list[dict[str, Any]], schema: dict[str, str]) -> pd.DataFrame:
    """Rows as a frame with exactly the schema's columns and dtypes."""
    df = pd.DataFrame(rows, columns=list(schema))
    return df.astype(schema)


def _seats(s: Iterable[int]) -> str:
    return ",".join(str(x) for x in sorted(set(s)))


def _add_game(rows: _Rows, r: ReplayResult) -> None:
    key = game_key(r)
    n = r.players
    ledger = payments(r)
    placed = r.final_scores is not None and len(r.final_scores) == n
    rows.games.append({
        "game": key, "title": game_title(r), "file": r.source, "index": r.index,
        "log_id": r.log_id, "format": r.format, "rules": r.rules, "players": n,
        "hands": len(r.hands), "complete": r.complete, "placed": placed,
        "errors": sum(1 for v in r.violations if v.severity.value == "error"),
        "warnings": sum(1 for v in r.violations if v.severity.value == "warning"),
        "unchecked_events": r.unchecked,
    })
    places = placements(r.final_scores) if placed and r.final_scores is not None else None
    for s in range(n):
        rows.seats.append({
            "game": key, "seat": s, "name": seat_name(r, s),
            "final_score": r.final_scores[s] if places and r.final_scores else None,
            "placement": places[s] if places else None,
            "final_points": (r.final_points[s] if r.final_points is not None
                             and len(r.final_points) == n else None),
        })
    by_hand: dict[int | None, list[Payment]] = {}
    for p in ledger:
        by_hand.setdefault(p.hand, []).append(p)
    for i, hand in enumerate(r.hands):
        _add_hand(rows, r, key, i, hand, ledger=by_hand.get(i, []))
    for p in ledger:
        label = r.hands[p.hand].label if p.hand is not None and p.hand < len(r.hands) \
            else "end"
        rows.payments.append({
            "game": key, "hand": p.hand, "label": label, "payer": p.payer,
            "payer_name": POOL_NAME if p.payer is None else seat_name(r, p.payer),
            "payee": p.payee,
            "payee_name": POOL_NAME if p.payee is None else seat_name(r, p.payee),
            "amount": p.amount, "reason": p.reason,
        })
    for v in r.violations:
        rows.findings.append({
            "game": key, "title": game_title(r), "rule": v.rule,
            "severity": v.severity.value, "hand": v.hand, "turn": v.turn, "seat": v.seat,
            "name": seat_name(r, v.seat) if v.seat is not None else None,
            "event": v.event, "source": str(v.src) if v.src is not None else None,
            "message": v.message, "citation": v.citation,
            "state": json.dumps(v.state.to_dict(), ensure_ascii=False, separators=(",", ":"))
            if v.state is not None else None,
        })


def _net(ledger: list[Payment], seat: int) -> int:
    return sum(p.amount for p in ledger if p.payee == seat) - sum(
        p.amount for p in ledger if p.payer == seat)


def _add_hand(rows: _Rows, r: ReplayResult, key: str, i: int, hand: HandRecord, *,
              ledger: list[Payment]) -> None:
    n = r.players
    winners = [int(w.actor) for w in hand.wins]
    rons = [w for w in hand.wins if not w.is_tsumo]
    losers = {int(w.target) for w in rons}
    values = [win_value(w) for w in hand.wins]
    tenpai = tenpai_at_end(hand, n)
    known_all = tenpai is not None and all(f is not None for f in tenpai.flags)
    first_tenpai = first_tenpai_turn(hand, n)
    declared = {int(x.seat) for x in hand.riichi}
    exhaustive = hand.draw in EXHAUSTIVE
    rows.hands.append({
        "game": key, "hand": i, "label": hand.label, "round": hand.bakaze.mjai,
        "kyoku": hand.kyoku, "honba": hand.honba, "kyotaku": hand.kyotaku,
        "dealer": int(hand.oya), "dealer_name": seat_name(r, hand.oya),
        "result": hand.result, "winners": _seats(winners),
        "loser": next(iter(losers)) if len(losers) == 1 else None,
        "value": sum(v for v in values if v is not None) if values and None not in values
        else None,
        "turns": hand.turns, "riichi": len(hand.riichi),
        "tenpai": _seats(s for s, f in enumerate(tenpai.flags) if f) if known_all
        and tenpai is not None else None,
        "tenpai_source": tenpai.source if tenpai is not None else None,
        "complete": hand.complete, "unchecked_events": hand.unchecked,
        "wall": hand.wall,
    })
    for s in range(n):
        mine = [w for w in hand.wins if w.actor == s]
        against = [w for w in rons if w.target == s]
        rows.player_hands.append({
            "game": key, "hand": i, "label": hand.label, "seat": s, "name": seat_name(r, s),
            "dealer": hand.oya == s, "complete": hand.complete,
            "start_score": hand.start_scores[s] if s < len(hand.start_scores) else None,
            "end_score": hand.end_scores[s] if hand.end_scores is not None
            and s < len(hand.end_scores) else None,
            "delta": _net(ledger, s) if hand.complete else None,
            "won": bool(mine), "tsumo": any(w.is_tsumo for w in mine),
            "dealt_in": bool(against),
            "win_value": _total(win_value(w) for w in mine) if mine else None,
            "win_turn": mine[0].turn if mine else None,
            "deal_in_value": _total(win_value(w) for w in against) if against else None,
            "calls": hand.calls[s] if s < len(hand.calls) else 0,
            "called": s < len(hand.calls) and hand.calls[s] > 0,
            "riichi": s in declared, "exhaustive_draw": exhaustive,
            "tenpai_end": tenpai.flags[s] if tenpai is not None else None,
            "tenpai_replayed": bool(tenpai is not None and s < len(tenpai.replayed)
                                    and tenpai.replayed[s]),
            "first_tenpai_turn": first_tenpai[s], "turns": hand.turns,
        })
    for w in hand.wins:
        rows.wins.append({
            "game": key, "hand": i, "label": hand.label, "winner": int(w.actor),
            "winner_name": seat_name(r, w.actor),
            "loser": None if w.is_tsumo else int(w.target),
            "loser_name": None if w.is_tsumo else seat_name(r, w.target),
            "tsumo": w.is_tsumo, "dealer": w.actor == hand.oya, "value": win_value(w),
            "turn": w.turn, "riichi": int(w.actor) in declared,
            "open": int(w.actor) < len(hand.calls) and hand.calls[w.actor] > 0,
            "pao": None if w.pao is None else int(w.pao),
        })
    for k, rec in enumerate(hand.riichi):
        s = int(rec.seat)
        facts = riichi_facts(rec)
        tenpai_turn = first_tenpai[s]
        rows.riichi.append({
            "game": key, "hand": i, "label": hand.label, "seat": s, "name": seat_name(r, s),
            "turn": rec.turn, "accepted": rec.accepted,
            "tile": rec.tile.mpsz if rec.tile is not None else None,
            "dealer": hand.oya == s, "waits": facts.waits, "live": facts.live,
            "furiten": facts.furiten, "good_shape": facts.good_shape,
            "chasing": any(x.seat != s for x in hand.riichi[:k]),
            "chased": any(x.seat != s for x in hand.riichi[k + 1:]),
            "dama_turns": rec.turn - tenpai_turn if tenpai_turn is not None else None,
            "outcome": riichi_outcome(hand, s),
            "points": _net(ledger, s) if hand.complete else None,
        })


def _total(values: Iterable[int | None]) -> int | None:
    vs = list(values)
    return None if None in vs else sum(v for v in vs if v is not None)


def riichi_outcome(hand: HandRecord, seat: int) -> str:
    """One of :data:`OUTCOMES` for the player in ``seat`` (a declarer) in ``hand``."""
    for w in hand.wins:
        if w.actor == seat:
            return "tsumo" if w.is_tsumo else "ron"
    if any(not w.is_tsumo and w.target == seat for w in hand.wins):
        return "dealt_in"
    if hand.wins:
        return "other_won"
    if hand.draw is not None:
        return "abortive_draw" if hand.draw.is_abortive else "exhaustive_draw"
    return "unfinished"
