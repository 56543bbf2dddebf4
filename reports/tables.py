"""Replay results as pandas tables: games, seats, hands, wins, riichi, payments.

>>> from kansa.reports.tables import build_tables                 # doctest: +SKIP
>>> t = build_tables(results)                              # doctest: +SKIP
>>> t.hands[["label", "result", "winners", "value"]]       # doctest: +SKIP

Each table is one function giving a game's rows, registered with its schema
(:func:`~kansa.reports.registry.base_table`); they are written in the order below.
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
from pathlib import PurePath

import pandas as pd

from kansa.replay.events import DrawReason
from kansa.replay.ledger import Transfer
from kansa.replay.result import HandRecord, ReplayResult
from kansa.reports.facts import riichi_facts
from kansa.reports.ledger import POOL_NAME, win_value
from kansa.reports.registry import (
    BASE,
    SCHEMAS,
    GameFacts,
    PlayerRows,
    Row,
    Tables,
    base_table,
    frame,
)

__all__ = [
    "OUTCOMES", "SCHEMAS", "Tables", "build_tables", "frame", "game_title",
    "placements", "riichi_outcome", "seat_name", "table_rows", "tables_from_rows",
]

OUTCOMES: tuple[str, ...] = ("tsumo", "ron", "dealt_in", "other_won", "exhaustive_draw",
                             "abortive_draw", "unfinished")
"""How a riichi declaration ended, from the declarer's side."""

EXHAUSTIVE = (DrawReason.EXHAUSTIVE, DrawReason.NAGASHI_MANGAN)


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





def _in_rows(*columns: str) -> PlayerRows:
    """Rows where one of ``columns`` names the player."""

    def mine(df: pd.DataFrame, name: str) -> pd.DataFrame:
        hit = df[columns[0]] == name
        for c in columns[1:]:
            hit = hit | (df[c] == name)
        return df[hit]

    return mine


def _named(df: pd.DataFrame, name: str) -> pd.DataFrame:
    return df.query("name == @name")


@base_table("games", {
    "game": "string", "title": "string", "file": "string", "index": "Int64",
    "log_id": "string", "format": "string", "rules": "string", "players": "Int64",
    "hands": "Int64", "complete": "boolean", "placed": "boolean", "errors": "Int64",
    "warnings": "Int64", "unchecked_events": "Int64",
})
def _games(g: GameFacts) -> Iterator[Row]:
    r = g.result
    n = r.players
    yield {
        "game": g.key, "title": game_title(r), "file": r.source, "index": r.index,
        "log_id": r.log_id, "format": r.format, "rules": r.rules, "players": n,
        "hands": len(r.hands), "complete": r.complete, "placed": _placed(r),
        "errors": sum(1 for v in r.violations if v.severity.value == "error"),
        "warnings": sum(1 for v in r.violations if v.severity.value == "warning"),
        "unchecked_events": r.unchecked,
    }


def _placed(r: ReplayResult) -> bool:
    return r.final_scores is not None and len(r.final_scores) == r.players


@base_table("seats", {
    "game": "string", "seat": "Int64", "name": "string", "final_score": "Int64",
    "placement": "Int64", "final_points": "Float64",
})
def _seats_rows(g: GameFacts) -> Iterator[Row]:
    r = g.result
    n = r.players
    places = placements(r.final_scores) if _placed(r) and r.final_scores is not None \
        else None
    for s in range(n):
        yield {
            "game": g.key, "seat": s, "name": seat_name(r, s),
            "final_score": r.final_scores[s] if places and r.final_scores else None,
            "placement": places[s] if places else None,
            "final_points": (r.final_points[s] if r.final_points is not None
                             and len(r.final_points) == n else None),
        }


@base_table("hands", {
    "game": "string", "hand": "Int64", "label": "string", "round": "string",
    "kyoku": "Int64", "honba": "Int64", "kyotaku": "Int64", "dealer": "Int64",
    "dealer_name": "string", "result": "string", "winners": "string", "loser": "Int64",
    "value": "Int64", "turns": "Int64", "riichi": "Int64", "tenpai": "string",
    "tenpai_source": "string", "complete": "boolean", "unchecked_events": "Int64",
    "wall": "string",
})
def _hands(g: GameFacts) -> Iterator[Row]:
    r = g.result
    for h in g.hands:
        hand = h.hand
        winners = [int(w.actor) for w in hand.wins]
        losers = {int(w.target) for w in hand.wins if not w.is_tsumo}
        values = [win_value(w) for w in hand.wins]
        tenpai = h.tenpai
        known_all = tenpai is not None and all(f is not None for f in tenpai.flags)
        yield {
            "game": g.key, "hand": h.index, "label": hand.label, "round": hand.bakaze.mjai,
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
        }


@base_table("player_hands", {
    "game": "string", "hand": "Int64", "label": "string", "seat": "Int64",
    "name": "string", "dealer": "boolean", "complete": "boolean",
    "start_score": "Int64", "end_score": "Int64", "delta": "Int64", "won": "boolean",
    "tsumo": "boolean", "dealt_in": "boolean", "win_value": "Int64", "win_turn": "Int64",
    "deal_in_value": "Int64", "calls": "Int64", "called": "boolean", "riichi": "boolean",
    "exhaustive_draw": "boolean", "tenpai_end": "boolean", "tenpai_replayed": "boolean",
    "first_tenpai_turn": "Int64", "turns": "Int64",
})
def _player_hands(g: GameFacts) -> Iterator[Row]:
    r = g.result
    for h in g.hands:
        hand = h.hand
        rons = [w for w in hand.wins if not w.is_tsumo]
        tenpai = h.tenpai
        exhaustive = hand.draw in EXHAUSTIVE
        for s in range(g.players):
            mine = [w for w in hand.wins if w.actor == s]
            against = [w for w in rons if w.target == s]
            yield {
                "game": g.key, "hand": h.index, "label": hand.label, "seat": s,
                "name": seat_name(r, s), "dealer": hand.oya == s, "complete": hand.complete,
                "start_score": hand.start_scores[s] if s < len(hand.start_scores) else None,
                "end_score": hand.end_scores[s] if hand.end_scores is not None
                and s < len(hand.end_scores) else None,
                "delta": _net(h.ledger, s) if hand.complete else None,
                "won": bool(mine), "tsumo": any(w.is_tsumo for w in mine),
                "dealt_in": bool(against),
                "win_value": _total(win_value(w) for w in mine) if mine else None,
                "win_turn": mine[0].turn if mine else None,
                "deal_in_value": _total(win_value(w) for w in against) if against else None,
                "calls": hand.calls[s] if s < len(hand.calls) else 0,
                "called": s < len(hand.calls) and hand.calls[s] > 0,
                "riichi": s in h.declared, "exhaustive_draw": exhaustive,
                "tenpai_end": tenpai.flags[s] if tenpai is not None else None,
                "tenpai_replayed": bool(tenpai is not None and s < len(tenpai.replayed)
                                        and tenpai.replayed[s]),
                "first_tenpai_turn": h.first_tenpai[s], "turns": hand.turns,
            }


@base_table("wins", {
    "game": "string", "hand": "Int64", "label": "string", "winner": "Int64",
    "winner_name": "string", "loser": "Int64", "loser_name": "string", "tsumo": "boolean",
    "dealer": "boolean", "value": "Int64", "turn": "Int64", "riichi": "boolean",
    "open": "boolean", "pao": "Int64",
}, player_rows=_in_rows("winner_name", "loser_name"))
def _wins(g: GameFacts) -> Iterator[Row]:
    r = g.result
    for h in g.hands:
        hand = h.hand
        for w in hand.wins:
            yield {
                "game": g.key, "hand": h.index, "label": hand.label, "winner": int(w.actor),
                "winner_name": seat_name(r, w.actor),
                "loser": None if w.is_tsumo else int(w.target),
                "loser_name": None if w.is_tsumo else seat_name(r, w.target),
                "tsumo": w.is_tsumo, "dealer": w.actor == hand.oya, "value": win_value(w),
                "turn": w.turn, "riichi": int(w.actor) in h.declared,
                "open": int(w.actor) < len(hand.calls) and hand.calls[w.actor] > 0,
                "pao": None if w.pao is None else int(w.pao),
            }


@base_table("riichi", {
    "game": "string", "hand": "Int64", "label": "string", "seat": "Int64",
    "name": "string", "turn": "Int64", "accepted": "boolean", "tile": "string",
    "dealer": "boolean", "waits": "string", "live": "Int64", "furiten": "boolean",
    "good_shape": "boolean", "chasing": "boolean", "chased": "boolean",
    "dama_turns": "Int64", "outcome": "string", "points": "Int64",
}, player_rows=_named)
def _riichi(g: GameFacts) -> Iterator[Row]:
    r = g.result
    for h in g.hands:
        hand = h.hand
        for k, rec in enumerate(hand.riichi):
            s = int(rec.seat)
            facts = riichi_facts(rec)
            tenpai_turn = h.first_tenpai[s]
            yield {
                "game": g.key, "hand": h.index, "label": hand.label, "seat": s,
                "name": seat_name(r, s), "turn": rec.turn, "accepted": rec.accepted,
                "tile": rec.tile.mpsz if rec.tile is not None else None,
                "dealer": hand.oya == s, "waits": facts.waits, "live": facts.live,
                "furiten": facts.furiten, "good_shape": facts.good_shape,
                "chasing": any(x.seat != s for x in hand.riichi[:k]),
                "chased": any(x.seat != s for x in hand.riichi[k + 1:]),
                "dama_turns": rec.turn - tenpai_turn if tenpai_turn is not None else None,
                "outcome": riichi_outcome(hand, s),
                "points": _net(h.ledger, s) if hand.complete else None,
            }


@base_table("payments", {
    "game": "string", "hand": "Int64", "label": "string", "payer": "Int64",
    "payer_name": "string", "payee": "Int64", "payee_name": "string", "amount": "Int64",
    "reason": "string",
}, player_rows=_in_rows("payer_name", "payee_name"))
def _payments(g: GameFacts) -> Iterator[Row]:
    r = g.result
    for p in g.ledger:
        label = r.hands[p.hand].label if p.hand is not None and p.hand < len(r.hands) \
            else "end"
        yield {
            "game": g.key, "hand": p.hand, "label": label, "payer": p.payer,
            "payer_name": POOL_NAME if p.payer is None else seat_name(r, p.payer),
            "payee": p.payee,
            "payee_name": POOL_NAME if p.payee is None else seat_name(r, p.payee),
            "amount": p.amount, "reason": p.reason.value,
        }


@base_table("findings", {
    "game": "string", "title": "string", "rule": "string", "severity": "string",
    "hand": "string", "turn": "Int64", "seat": "Int64", "name": "string",
    "event": "Int64", "source": "string", "message": "string", "citation": "string",
    "state": "string",
})
def _findings(g: GameFacts) -> Iterator[Row]:
    r = g.result
    for v in r.violations:
        yield {
            "game": g.key, "title": game_title(r), "rule": v.rule,
            "severity": v.severity.value, "hand": v.hand, "turn": v.turn, "seat": v.seat,
            "name": seat_name(r, v.seat) if v.seat is not None else None,
            "event": v.event, "source": str(v.src) if v.src is not None else None,
            "message": v.message, "citation": v.citation,
            "state": json.dumps(v.state.to_dict(), ensure_ascii=False, separators=(",", ":"))
            if v.state is not None else None,
        }


def table_rows(results: Iterable[ReplayResult]) -> dict[str, list[Row]]:
    """The rows of every base table, by table name, before they become frames: what a
    worker sends back (many files' rows then make one frame each, see ``kansa.store``)."""
    out: dict[str, list[Row]] = {name: [] for name in BASE}
    for result in results:
        game = GameFacts(result)
        for name, table in BASE.items():
            out[name].extend(table.rows(game))
    return out


def tables_from_rows(rows: dict[str, list[Row]]) -> Tables:
    """The base tables of rows gathered by :func:`table_rows` (one file's or many)."""
    return Tables({name: frame(rows[name], table.schema) for name, table in BASE.items()})


def build_tables(results: Iterable[ReplayResult]) -> Tables:
    """The base tables of a batch of replayed games (one pass, rows per game)."""
    return tables_from_rows(table_rows(results))


def _seats(s: Iterable[int]) -> str:
    return ",".join(str(x) for x in sorted(set(s)))


def _net(ledger: list[Transfer], seat: int) -> int:
    return sum(p.amount for p in ledger if p.payee == seat) - sum(
        p.amount for p in ledger if p.payer == seat)


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
