"""Decoded Mahjong Soul round records: ``{mode, events: [{name, data}], next_start}``.

This is the form RiichiEnv's corpus tools write after decoding a paifu with
``mjsoul-parser``: one round's ``NewRound``, ``DealTile``, ``DiscardTile``,
``ChiPengGang``, ``AnGangAddGang``, ``BaBei``, then ``Hule``, ``NoTile`` or
``LiuJu``.  Every hand is shown and every draw recorded, so the round replays
faithfully.  What the decoded form drops, kansa cannot claim: player names,
per-winner score changes when several players win at once (``Hule`` keeps only
the scores after the round), the hand value (``dadian``), pao and limits.

Conventions: the dealer's fourteenth tile (the last one dealt) becomes the first
``Tsumo``; a single winner's deltas are the recorded scores after the round less
the scores at its start (after riichi sticks paid this round); the ``doras``
lists (full lists, empty when unchanged) give kan dora, placed where kansa's
order puts them.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

from kansa.parsers._json import decode_text, load_document
from kansa.parsers.canonical import canonical
from kansa.parsers.errors import LogFormatError
from kansa.parsers.fields import Fields, check_int, short, tile_or_fail
from kansa.parsers.source import DEFAULT_LIMITS, Limits
from kansa.replay.events import (
    Ankan,
    Chi,
    Dahai,
    Daiminkan,
    Dora,
    DrawReason,
    EndGame,
    EndKyoku,
    Event,
    Hora,
    Kakan,
    Nukidora,
    Pon,
    Reach,
    ReachAccepted,
    Ryukyoku,
    SourceRef,
    StartKyoku,
    Tsumo,
)
from kansa.replay.game import Diagnostic, Game, RuleHints
from kansa.replay.tiles import WINDS, Seat, Tile
from kansa.replay.yaku import Yaku

__all__ = ["parse", "sniff"]

EVENT_NAMES = ("NewRound", "DealTile", "DiscardTile", "ChiPengGang", "AnGangAddGang",
               "BaBei", "Hule", "NoTile", "LiuJu")
_SNIFF = re.compile(rb'"name"\s*:\s*"(' + b"|".join(n.encode() for n in EVENT_NAMES) + rb')"')

# Mahjong Soul fan ids (10/11 are the seat and round wind, resolved per winner).
FAN_IDS: dict[int, Yaku] = {
    1: Yaku.MENZEN_TSUMO, 2: Yaku.RIICHI, 3: Yaku.CHANKAN, 4: Yaku.RINSHAN, 5: Yaku.HAITEI,
    6: Yaku.HOUTEI, 7: Yaku.HAKU, 8: Yaku.HATSU, 9: Yaku.CHUN, 12: Yaku.TANYAO,
    13: Yaku.IIPEIKOU, 14: Yaku.PINFU, 15: Yaku.CHANTA, 16: Yaku.ITTSU, 17: Yaku.SANSHOKU,
    18: Yaku.DOUBLE_RIICHI, 19: Yaku.SANSHOKU_DOUKOU, 20: Yaku.SANKANTSU, 21: Yaku.TOITOI,
    22: Yaku.SANANKOU, 23: Yaku.SHOUSANGEN, 24: Yaku.HONROUTOU, 25: Yaku.CHIITOITSU,
    26: Yaku.JUNCHAN, 27: Yaku.HONITSU, 28: Yaku.RYANPEIKOU, 29: Yaku.CHINITSU,
    30: Yaku.IPPATSU, 31: Yaku.DORA, 32: Yaku.AKA_DORA, 33: Yaku.URA_DORA,
    34: Yaku.NUKIDORA, 35: Yaku.TENHOU, 36: Yaku.CHIIHOU, 37: Yaku.DAISANGEN,
    38: Yaku.SUUANKOU, 39: Yaku.TSUUIISOU, 40: Yaku.RYUUIISOU, 41: Yaku.CHINROUTOU,
    42: Yaku.KOKUSHI, 43: Yaku.SHOUSUUSHII, 44: Yaku.SUUKANTSU, 45: Yaku.CHUUREN,
    47: Yaku.JUNSEI_CHUUREN, 48: Yaku.SUUANKOU_TANKI, 49: Yaku.KOKUSHI_13,
    50: Yaku.DAISUUSHII,
}
_SEAT_WIND = (Yaku.SEAT_EAST, Yaku.SEAT_SOUTH, Yaku.SEAT_WEST, Yaku.SEAT_NORTH)
_ROUND_WIND = (Yaku.ROUND_EAST, Yaku.ROUND_SOUTH, Yaku.ROUND_WEST, Yaku.ROUND_NORTH)
LIUJU_TYPES = {1: DrawReason.KYUUSHU_KYUUHAI, 2: DrawReason.SUUFON_RENDA,
               3: DrawReason.SUUKAIKAN, 4: DrawReason.SUUCHA_RIICHI}
CALL_TYPES = {0: "chi", 1: "pon", 2: "daiminkan"}
HANCHAN_MODES = {1: False, 2: True, 11: False, 12: True}


def sniff(head: bytes) -> bool:
    return head.startswith(b"{") and b'"events"' in head and _SNIFF.search(head) is not None


def parse(data: bytes, source: str, limits: Limits = DEFAULT_LIMITS) -> list[Game]:
    """The round in a decoded Mahjong Soul record.

    :raises LogFormatError: naming the JSON pointer of what cannot be read.
    """
    text = decode_text(data, source)
    doc = load_document(text, data, SourceRef(source, line=1), limits.max_json_depth,
                        "Mahjong Soul record")
    if not isinstance(doc, dict):
        raise LogFormatError(f"expected a JSON object, got {short(doc)}",
                             SourceRef(source, line=1, column=1))
    f = Fields(doc, SourceRef(source, pointer=""), "a Mahjong Soul record object")
    raw = f.array("events")
    items = [Fields(e, f.at(f"events/{i}"), "an event object") for i, e in enumerate(raw)]
    if not items or items[0].get("name") != "NewRound":
        f.fail("events", "the record should start with a NewRound event")
    rounds = _Round(source)
    events = list(rounds.read(items))
    if "next_start" in f.obj and f.obj["next_start"] is None:
        events.append(EndGame(src=f.at("next_start")))  # the record's last round
    mode = f.opt_int("mode")
    hints = RuleHints(players=rounds.n, aka=True, platform="majsoul",
                      hanchan=HANCHAN_MODES.get(mode) if mode is not None else None)
    paifu = f.text("source").split(".", 1)[0] if f.has("source") else None
    return [Game(format="majsoul", source=source, events=canonical(events, rounds.n),
                 hints=hints,
                 log_id=paifu,
                 diagnostics=tuple(rounds.notes), walls=(rounds.wall,))]


_PAISHAN = re.compile(r"(?:[0-9][mps]|[1-7]z)+")


def _paishan(f: Fields) -> tuple[Tile, ...]:
    """The ``paishan`` string (``7s2p0m...``: a digit and a suit per tile) as tiles."""
    text = f.text("paishan")
    if not _PAISHAN.fullmatch(text):
        f.fail("paishan", f"'paishan' should be tiles written as 7s2p0m..., not {short(text)}")
    return tuple(Tile.parse(text[i:i + 2]) for i in range(0, len(text), 2))


def _tile(value: Any, src: SourceRef, what: str) -> Tile:
    return tile_or_fail(Tile.parse, value, src, what)


class _Round:
    """A round's events, with the hands kept (ankan and kakan name only the kind)."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.notes: list[Diagnostic] = []
        self.n = 4
        self.oya = Seat(0)
        self.bakaze = Tile.EAST
        self.hands: list[Counter[Tile]] = []
        self.pons: list[dict[int, tuple[Tile, ...]]] = []
        self.doras = 0
        self.scores: list[int] = []
        self.last_discarder: Seat | None = None
        self.kakan: Seat | None = None
        self.ankan = False
        self.wall: tuple[Tile, ...] | None = None
        """The round's whole wall in draw order, where the record lists it (``paishan``)."""

    def read(self, items: list[Fields]) -> Iterator[Event]:
        for i, f in enumerate(items):
            name = f.get("name")
            data = Fields(f.req("data"), f.at("data"), "an object")
            if i > 0 and name == "NewRound":
                f.fail("name", "a second NewRound: one record holds one round")
            step = getattr(self, f"on_{name}", None) if name in EVENT_NAMES else None
            if step is None:
                self.notes.append(Diagnostic(f"unknown event {short(name)} ignored", f.src))
                continue
            nxt = items[i + 1].get("name") if i + 1 < len(items) else None
            yield from step(data, nxt)
            if name in ("Hule", "NoTile", "LiuJu"):
                yield EndKyoku(src=f.src)

    def seat(self, f: Fields, key: str = "seat") -> Seat:
        return Seat(f.integer(key, 0, self.n - 1))

    def new_doras(self, f: Fields) -> list[Dora]:
        """Indicators in a full ``doras`` list that were not revealed yet."""
        if not f.has("doras"):
            return []
        tiles = [_tile(t, f.at("doras"), "dora") for t in f.array("doras")]
        fresh = tiles[self.doras:]
        self.doras = max(self.doras, len(tiles))
        return [Dora(dora_marker=t, src=f.src) for t in fresh]

    def take(self, seat: Seat, tile: Tile) -> None:
        hand = self.hands[seat]
        if hand[tile]:
            hand[tile] -= 1

    # -- events ------------------------------------------------------------------

    def on_NewRound(self, f: Fields, nxt: str | None) -> Iterator[Event]:
        scores = f.ints("scores")
        if len(scores) not in (3, 4):
            f.fail("scores", f"'scores' should have 3 or 4 entries, not {len(scores)}")
        n = self.n = len(scores)
        self.scores = list(scores)
        self.oya = Seat(f.integer("ju", 0, n - 1))
        self.bakaze = WINDS[f.integer("chang", 0, 3)]
        tehais = []
        first = None
        for seat in range(n):
            tiles = [_tile(t, f.at(f"tiles{seat}"), "tile") for t in f.array(f"tiles{seat}")]
            if seat == self.oya and len(tiles) == 14:
                first = tiles.pop()  # the dealer's last dealt tile is the first draw
            tehais.append(tuple(tiles))
        self.hands = [Counter(t) for t in tehais]
        self.pons = [{} for _ in range(n)]
        doras = [_tile(t, f.at("doras"), "dora") for t in f.array("doras")]
        if not doras:
            f.fail("doras", "NewRound has no dora indicator")
        self.doras = len(doras)
        if f.has("paishan"):
            self.wall = _paishan(f)
        yield StartKyoku(
            bakaze=self.bakaze, kyoku=self.oya + 1, honba=f.integer("ben", 0),
            kyotaku=f.integer("liqibang", 0), oya=self.oya, scores=scores,
            dora_marker=doras[0], tehais=tuple(tehais), src=f.src)
        yield from (Dora(dora_marker=t, src=f.src) for t in doras[1:])
        if first is not None:
            self.hands[self.oya][first] += 1
            yield Tsumo(actor=self.oya, tile=first, src=f.src)

    def on_DealTile(self, f: Fields, nxt: str | None) -> Iterator[Event]:
        actor, tile = self.seat(f), _tile(f.req("tile"), f.at("tile"), "tile")
        doras = self.new_doras(f)
        if self.ankan:
            yield from doras  # ankan: indicator before the replacement draw
        self.hands[actor][tile] += 1
        yield Tsumo(actor=actor, tile=tile, src=f.src)
        if not self.ankan:
            yield from doras
        self.ankan = False
        self.kakan = None

    def on_DiscardTile(self, f: Fields, nxt: str | None) -> Iterator[Event]:
        actor, tile = self.seat(f), _tile(f.req("tile"), f.at("tile"), "tile")
        riichi = f.flag("is_liqi", False) or f.flag("is_wliqi", False)
        if riichi:
            yield Reach(actor=actor, src=f.src)
        yield from self.new_doras(f)
        self.take(actor, tile)
        self.last_discarder = actor
        yield Dahai(actor=actor, tile=tile, tsumogiri=f.flag("moqie", False), src=f.src)
        if riichi and nxt != "Hule":
            self.scores[actor] -= 1000
            yield ReachAccepted(actor=actor, src=f.src)

    def on_ChiPengGang(self, f: Fields, nxt: str | None) -> Iterator[Event]:
        actor = self.seat(f)
        kind = CALL_TYPES.get(f.integer("type"))
        tiles = [_tile(t, f.at("tiles"), "tile") for t in f.array("tiles")]
        froms = f.ints("froms", len(tiles))
        called = [k for k, s in enumerate(froms) if s != actor]
        if kind is None or len(called) != 1 or not 0 <= froms[called[0]] < self.n:
            f.fail("froms", "a call should take exactly one tile from another seat")
        target, tile = Seat(froms[called[0]]), tiles[called[0]]
        own = tuple(t for k, t in enumerate(tiles) if k != called[0])
        for t in own:
            self.take(actor, t)
        if kind == "chi":
            yield Chi(actor=actor, target=target, tile=tile, consumed=own, src=f.src)
        elif kind == "pon":
            self.pons[actor][tile.index] = (*own, tile)
            yield Pon(actor=actor, target=target, tile=tile, consumed=own, src=f.src)
        else:
            yield Daiminkan(actor=actor, target=target, tile=tile, consumed=own, src=f.src)

    def on_AnGangAddGang(self, f: Fields, nxt: str | None) -> Iterator[Event]:
        actor = self.seat(f)
        kind = _tile(f.req("tiles"), f.at("tiles"), "tiles")
        held = sorted(t for t, c in self.hands[actor].items() for _ in range(c)
                      if t.index == kind.index)
        if f.integer("type") == 3:
            consumed = tuple((held + [kind.normal] * 4)[:4])
            for t in consumed:
                self.take(actor, t)
            self.ankan = True
            yield Ankan(actor=actor, consumed=consumed, src=f.src)
        else:
            added = held[0] if held else kind
            self.take(actor, added)
            pon = self.pons[actor].get(kind.index, (kind.normal,) * 3)
            self.kakan = actor
            yield Kakan(actor=actor, tile=added, consumed=pon, src=f.src)

    def on_BaBei(self, f: Fields, nxt: str | None) -> Iterator[Event]:
        actor = self.seat(f)
        self.take(actor, Tile.NORTH)
        yield Nukidora(actor=actor, tile=Tile.NORTH, src=f.src)

    def on_Hule(self, f: Fields, nxt: str | None) -> Iterator[Event]:
        wins = [Fields(h, f.at("hules"), "a win object") for h in f.array("hules")]
        after = f.ints("scores", self.n) if f.has("scores") else None
        deltas = None
        if after is not None and len(wins) == 1:
            deltas = tuple(a - b for a, b in zip(after, self.scores, strict=True))
        elif after is not None:
            self.notes.append(Diagnostic(
                f"{len(wins)} winners share one 'scores' list: per-winner deltas are unknown",
                f.src))
        for h in wins:
            yield self.hora(h, deltas)

    def hora(self, h: Fields, deltas: tuple[int, ...] | None) -> Hora:
        actor = self.seat(h)
        if h.flag("zimo", False):
            target = actor
        else:
            source = self.kakan if self.kakan is not None else self.last_discarder
            if source is None:
                h.fail("zimo", "a ron before any discard")
            target = source
        tile = _tile(h.req("hu_tile"), h.at("hu_tile"), "hu_tile")
        hand = tuple(_tile(t, h.at("hand"), "hand tile") for t in h.array("hand"))
        yiman = h.flag("yiman", False)
        yaku: list[tuple[Yaku, int]] = []
        for entry in h.array("fans"):
            fan = Fields(entry, h.at("fans"))
            value = fan.integer("val", 0)
            member = self.yaku(fan, actor)
            if member is not None:
                yaku.append((member, value * 13 if yiman else value))
        count = h.opt_int("count", 0)
        return Hora(
            actor=actor, target=target, tile=tile, deltas=deltas, hand=(*hand, tile),
            yaku=tuple(yaku),
            fu=h.opt_int("fu", 0), han=None if count is None else count * (13 if yiman else 1),
            dora_markers=tuple(_tile(t, h.at("doras"), "dora") for t in h.array("doras"))
            if h.has("doras") else None,
            ura_markers=tuple(_tile(t, h.at("li_doras"), "ura dora")
                              for t in h.array("li_doras")) if h.has("li_doras") else None,
            src=h.src)

    def yaku(self, fan: Fields, actor: Seat) -> Yaku | None:
        fid = fan.integer("id")
        if fid == 10:
            return _SEAT_WIND[(actor - self.oya) % self.n]
        if fid == 11:
            return _ROUND_WIND[self.bakaze.index - 27]
        yaku = FAN_IDS.get(fid)
        if yaku is None:
            self.notes.append(Diagnostic(f"unknown Mahjong Soul fan id {fid} left out",
                                         fan.src))
        return yaku

    def on_NoTile(self, f: Fields, nxt: str | None) -> Iterator[Event]:
        rows = [Fields(p, f.at("players"), "a player object") for p in f.array("players")] \
            if f.has("players") else []
        tenpai = tuple(r.flag("tingpai", False) for r in rows) if rows else None
        hands = tuple(tuple(_tile(t, r.at("hand"), "hand tile") for t in r.array("hand"))
                      if r.flag("tingpai", False) and r.has("hand") else None
                      for r in rows) if rows else None
        deltas = None
        if f.has("scores"):
            total = [0] * self.n
            for pay in f.array("scores"):
                p = Fields(pay, f.at("scores"))
                got = p.get("delta_scores") or [0] * self.n
                if not isinstance(got, list) or len(got) != self.n:
                    p.fail("delta_scores", f"'delta_scores' should have {self.n} entries")
                total = [a + check_int(b, p.at("delta_scores"), "delta_scores")
                         for a, b in zip(total, got, strict=True)]
            deltas = tuple(total)
        reason = (DrawReason.NAGASHI_MANGAN if f.flag("liujumanguan", False)
                  else DrawReason.EXHAUSTIVE)
        yield Ryukyoku(reason=reason, deltas=deltas, tenpai=tenpai, hands=hands, src=f.src)

    def on_LiuJu(self, f: Fields, nxt: str | None) -> Iterator[Event]:
        code = f.integer("type")
        reason = LIUJU_TYPES.get(code)
        if reason is None:
            f.fail("type", f"unknown LiuJu type {code} (known: {sorted(LIUJU_TYPES)})")
        actor = self.seat(f) if reason is DrawReason.KYUUSHU_KYUUHAI and f.has("seat") \
            else None
        hands = None
        if actor is not None and f.has("tiles"):
            shown = tuple(_tile(t, f.at("tiles"), "tile") for t in f.array("tiles"))
            hands = tuple(shown if s == actor else None for s in range(self.n))
        yield Ryukyoku(reason=reason, hands=hands, actor=actor, src=f.src)
