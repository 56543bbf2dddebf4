"""The tags inside a hand of an mjlog: INIT (the deal), N (calls and kans, decoded by
:mod:`~kansa.parsers.tenhou_xml.meld`), REACH and DORA.  Draws and discards are read
by the main loop (:meth:`~kansa.parsers.tenhou_xml.reader.TagReader.run`)."""

from __future__ import annotations

from kansa.parsers.tenhou_xml.header import HeaderTags
from kansa.parsers.tenhou_xml.meld import Meld, MeldKind
from kansa.parsers.tenhou_xml.tables import (
    _HAI,
    _ORDER_OF_ID_AKA,
    _ORDER_OF_ID_PLAIN,
    _ORDER_TEXT_AKA,
    _ORDER_TEXT_PLAIN,
    _PLAY_CODES_AKA,
    _PLAY_CODES_PLAIN,
    _PLAYS_AKA,
    _PLAYS_PLAIN,
    _SEAT_TEXT,
    _TILE_TEXT_AKA,
    _TILE_TEXT_PLAIN,
    _UNUSUAL,
    _decode_meld,
    _ints,
)
from kansa.parsers.tenhou_xml.tag import Tag
from kansa.replay.events import (
    Ankan,
    Chi,
    Daiminkan,
    Dora,
    Event,
    Kakan,
    Nukidora,
    Pon,
    Reach,
    ReachAccepted,
    SourceRef,
    StartKyoku,
)
from kansa.replay.tiles import WINDS, Seat


class HandTags(HeaderTags):
    """The handlers of the tags inside a hand: INIT, N (calls), REACH, DORA."""

    def on_init(self, el: Tag, k: int) -> None:
        if self.hints is None:
            self.fail("<INIT> before <GO>: the red-five rule is unknown", el, k)
        src = self.src(el, k)
        if self.in_hand and self.result_src is None:
            self.note("a hand ended without AGARI or RYUUKYOKU", src)
        self.flush_end()
        if self.game_over:
            self.note("a hand starts after the game's final result", src)
        self.plays = _PLAYS_AKA if self.aka else _PLAYS_PLAIN
        self.play_codes = _PLAY_CODES_AKA if self.aka else _PLAY_CODES_PLAIN
        self.tile_text = _TILE_TEXT_AKA if self.aka else _TILE_TEXT_PLAIN
        self.order_text = _ORDER_TEXT_AKA if self.aka else _ORDER_TEXT_PLAIN
        self.order_of_id = _ORDER_OF_ID_AKA if self.aka else _ORDER_OF_ID_PLAIN
        try:
            start = self.quick_start(el, src)
        except _UNUSUAL:
            start = self.start(el, k, src)
        self.events.append(start)
        self.dice.append(_dice(el.get("seed", "")))
        self.last_draw[:] = (-1, -1, -1, -1)
        self.in_hand = True

    def quick_start(self, el: Tag, src: SourceRef) -> StartKyoku:
        """:meth:`start` for the common shape of INIT; raises one of ``_UNUSUAL`` otherwise."""
        get = el.get
        n = self.n
        tile_text = self.tile_text
        rnd_text, honba_text, kyotaku_text, _, _, dora = get("seed", "").split(",")
        rnd, honba, kyotaku = int(rnd_text), int(honba_text), int(kyotaku_text)
        ten = _ints(get("ten", ""))
        if not 0 <= rnd < 16 or honba < 0 or kyotaku < 0 or len(ten) < n:
            raise ValueError("left to the careful reading")
        return StartKyoku(
            bakaze=WINDS[rnd // 4], kyoku=rnd % 4 + 1, honba=honba, kyotaku=kyotaku,
            oya=_SEAT_TEXT[get("oya")], scores=tuple([t * 100 for t in ten[:n]]),
            dora_marker=tile_text[dora],
            tehais=tuple([self.hand_tiles(get(name, "")) for name in _HAI[:n]]), src=src)

    def start(self, el: Tag, k: int, src: SourceRef) -> StartKyoku:
        seed = self.req(el, k, "seed").split(",")
        if len(seed) != 6:
            self.fail(f"<INIT seed> has {len(seed)} fields, expected 6", el, k, "seed")
        # round, honba, sticks, dice-1, dice-1, dora (the dice, empty in bot logs: see _dice)
        try:
            rnd, honba, kyotaku = int(seed[0]), int(seed[1]), int(seed[2])
        except ValueError:
            self.fail(f"<INIT seed={','.join(seed)!r}> is not numeric", el, k, "seed")
        if not 0 <= rnd < 16 or honba < 0 or kyotaku < 0:
            self.fail(f"<INIT seed={','.join(seed)!r}> is out of range", el, k, "seed")
        dora = self.tiles(el, k, "seed", raw=seed[5])
        if len(dora) != 1:
            self.fail("<INIT seed> lacks the dora indicator", el, k, "seed")
        ten = self.ints(el, k, "ten", self.n)
        return StartKyoku(
            bakaze=WINDS[rnd // 4], kyoku=rnd % 4 + 1, honba=honba, kyotaku=kyotaku,
            oya=self.seat(el, k, "oya"),
            scores=tuple([t * 100 for t in ten[:self.n]]), dora_marker=dora[0],
            tehais=tuple([self.tiles(el, k, name, sort=True) for name in _HAI[:self.n]]),
            src=src)

    def on_n(self, el: Tag, k: int) -> None:
        self.in_play(el, k)
        try:
            who = _SEAT_TEXT[el.get("who")]
            meld = _decode_meld(int(el.get("m", "")), who, self.aka)
        except _UNUSUAL:
            who, meld = self.meld(el, k)
        src = self.src(el, k)
        self.last_draw[who] = -1  # a discard after a call is never tsumogiri
        event: Event
        kind = meld.kind
        called = meld.called
        if kind is MeldKind.CHI and called is not None:
            event = Chi(actor=who, target=meld.target, tile=called, consumed=meld.consumed,
                        src=src)
        elif kind is MeldKind.PON and called is not None:
            event = Pon(actor=who, target=meld.target, tile=called, consumed=meld.consumed,
                        src=src)
        elif kind is MeldKind.DAIMINKAN and called is not None:
            event = Daiminkan(actor=who, target=meld.target, tile=called,
                              consumed=meld.consumed, src=src)
        elif kind is MeldKind.KAKAN and meld.added is not None:
            event = Kakan(actor=who, tile=meld.added, consumed=meld.consumed, src=src)
        elif kind is MeldKind.ANKAN:
            event = Ankan(actor=who, consumed=meld.consumed, src=src)
        elif kind is MeldKind.NUKIDORA:
            event = Nukidora(actor=who, tile=meld.tiles[0], src=src)
        else:  # decode_meld always fills called/added for these kinds
            raise AssertionError(f"decoded meld lacks its called tile: {meld}")
        self.events.append(event)

    def meld(self, el: Tag, k: int) -> tuple[Seat, Meld]:
        who = self.seat(el, k, "who")
        code = self.int1(el, k, "m")
        try:
            return who, _decode_meld(code, who, self.aka)
        except ValueError as exc:
            self.fail(f"<N m={code}>: {exc}", el, k, "m")

    def on_reach(self, el: Tag, k: int) -> None:
        self.in_play(el, k)
        try:
            event = self.quick_reach(el, k)
        except _UNUSUAL:
            event = self.reach(el, k)
        self.events.append(event)

    def quick_reach(self, el: Tag, k: int) -> Reach | ReachAccepted:
        """:meth:`reach` for the common shape of REACH; raises one of ``_UNUSUAL`` otherwise."""
        who = _SEAT_TEXT[el.get("who")]
        step = el.get("step")
        if step == "1":
            return Reach(actor=who, src=self.src(el, k))
        if step != "2":
            raise ValueError("left to the careful reading")
        ten = el.get("ten")
        scores = None
        if ten:
            values = _ints(ten)
            if len(values) < self.n:
                raise ValueError("left to the careful reading")
            scores = tuple([t * 100 for t in values[:self.n]])
        return ReachAccepted(actor=who, scores=scores, src=self.src(el, k))

    def reach(self, el: Tag, k: int) -> Reach | ReachAccepted:
        who = self.seat(el, k, "who")
        step = self.int1(el, k, "step")
        if step == 1:
            return Reach(actor=who, src=self.src(el, k))
        if step != 2:
            self.fail(f"<REACH step={step}> is neither 1 nor 2", el, k, "step")
        ten = self.ints(el, k, "ten", self.n) if el.get("ten") else None
        scores = tuple(t * 100 for t in ten[:self.n]) if ten else None
        return ReachAccepted(actor=who, scores=scores, src=self.src(el, k))

    def on_dora(self, el: Tag, k: int) -> None:
        self.in_play(el, k)
        try:
            tile = self.tile_text[el.get("hai", "")]
        except KeyError:
            tile = self.tile(el, k, "hai")
        self.events.append(Dora(dora_marker=tile, src=self.src(el, k)))


def _dice(seed: str) -> tuple[int, int] | None:
    """The dice of an ``INIT seed`` (fields 4 and 5, 0-5 each); ``None`` if not given."""
    fields = seed.split(",")
    if len(fields) != 6 or not fields[3].isdigit() or not fields[4].isdigit():
        return None
    dice = (int(fields[3]), int(fields[4]))
    return dice if max(dice) <= 5 else None
