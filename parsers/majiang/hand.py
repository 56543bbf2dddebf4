"""One hand of a majiang paipu (a ``log`` entry) turned into kansa events, entry by
entry: the reader of :mod:`kansa.parsers.majiang.read` gives each hand its entries
decoded, or (its quick reading) the paipu's bytes, where a hand's draws and discards
are read without a decoder (:mod:`kansa.parsers.majiang.scan`), each one shared event
without a ``src``, placed through the game's ``SourceTracks``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from kansa.parsers.canonical import after_call, is_empty_ura, sorted_hidden, sorted_tiles
from kansa.parsers.errors import LogFormatError
from kansa.parsers.fields import Fields, check_int, short
from kansa.parsers.majiang.names import DRAW_BY_NAME, YAKU_BY_NAME
from kansa.parsers.majiang.paipu import NotQuick
from kansa.parsers.majiang.pointers import (
    ENTRIES_KEPT,
    KEPT_KINDS,
    TRACK_KINDS,
    Log,
    entry_pointers,
    pointer_ref,
    track_order,
)
from kansa.parsers.majiang.scan import (
    COMPACT_MOST,
    NOT_SHARED,
    TILE_INDEXES,
    compact_code,
    entry_code,
    entry_value,
    skip_space,
    text_value,
)
from kansa.parsers.majiang.tiles import (
    TILE_AT,
    all_known,
    field_tile,
    haisi,
    meld,
    shared_code,
    tile_of,
)
from kansa.replay.events import (
    Ankan,
    Chi,
    Dahai,
    Daiminkan,
    Dora,
    DrawReason,
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
from kansa.replay.game import Diagnostic
from kansa.replay.tiles import WINDS, Seat
from kansa.replay.yaku import Yaku

if TYPE_CHECKING:  # native integers where compiled; only annotations name them
    from mypy_extensions import i64

__all__ = ["DAPAI", "TRACK_KINDS", "ZIMO", "Entry", "Hand"]


_OFFSET4 = {"+": 1, "=": 2, "-": 3}
"""Call markers: the discarder's seat relative to the caller (4 players)."""


class Entry:
    """A log entry: its kind, and its fields, or the shared event it always gives."""

    __slots__ = ("body", "event", "fields", "kind", "track")

    def __init__(self, kind: str, fields: Fields | None, event: Event | None = None,
                 track: int = -1, body: dict[str, Any] | None = None) -> None:
        self.kind = kind
        self.fields = fields
        self.event = event
        self.track: i64 = track
        """A shared event's track in the game's ``SourceTracks``: :data:`ZIMO` or
        :data:`DAPAI`."""
        self.body = body
        """A shared event's decoded fields, which every occurrence has."""


ZIMO: Final = 0
DAPAI: Final = 1
"""The tracks of the game's ``SourceTracks`` a hand's shared draws and discards are in."""

_SHARED: Final[dict[tuple[int, int], list[Entry | None]]] = {}
"""Per number of players and ``jushu`` (which turn ``l`` into a seat), the shared draw
and discard entries met before, by their :func:`entry_code`: each is one event without
a ``src`` (its place is in the game's :class:`SourceTracks`)."""
_CODES: Final = 2 * 4 * TILE_INDEXES * 2
_SHARED_TEXTS: Final[dict[tuple[int, int], dict[bytes, Entry]]] = {}
"""For :meth:`Hand.read_texts`, the shared entries by their JSON text."""
_SHARED_TEXTS_MOST: Final = 4096
"""Texts kept per table: every tile (37 with the red fives) drawn, discarded and discarded
from the draw by every seat, in both orders of the entries' two keys, are 888."""


def _shared_entry(code: int, players: int, jushu: int) -> Entry:
    """The shared entry of :func:`entry_code` ``code`` in a hand of dealer ``jushu``."""
    tsumogiri, rest = code % 2, code // 2
    tile = TILE_AT[rest % TILE_INDEXES]
    assert tile is not None
    kind, actor = divmod(rest // TILE_INDEXES, 4)
    seat = Seat((actor + jushu) % players)
    body: dict[str, Any] = {"l": actor, "p": tile.majiang + ("_" if tsumogiri else "")}
    if kind == 0:
        return Entry("zimo", None, Tsumo(actor=seat, tile=tile), ZIMO, body)
    return Entry("dapai", None, Dahai(actor=seat, tile=tile, tsumogiri=tsumogiri == 1),
                 DAPAI, body)


class Hand:
    """One hand (an element of ``log``: a list of entries) turned into kansa events."""

    def __init__(self, players: int, src: SourceRef, notes: list[Diagnostic],
                 log: Log | None = None) -> None:
        self.n = players
        """The number of players; for the quick reading, 0 until the first deal says."""
        self.src = src
        self.entry_pointers = entry_pointers(src.pointer or "")
        """The pointers of the hand's entries met before, by index and kind."""
        self.notes = notes
        self.jushu = 0
        self.items: list[Entry] = []
        self.kan_open = False
        """The last kan was open (daiminkan/kakan): its indicator follows the discard."""
        self.dora_due = False
        """A kan's indicator has not been revealed yet."""
        self.log = Log() if log is None else log
        """Where the hand's events go (after those of the hands before)."""
        self.first = len(self.log.events)  # the index of its first event in the game's
        self.draws_from, self.discards_from = len(self.log.draws), len(self.log.discards)
        self.runs: list[int] = []  # where the shared events' tracks do not alternate
        self.last_track: i64 = -1
        self.ended = False
        self.elements: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
        """Once read, the entries its shared draws and discards were read from, and
        (``order``) each one's ``SourceTracks`` code."""
        self.order = b""
        self.called = 0
        """Bit mask of the seats whose last take was a chi or pon (see :meth:`canonical`)."""

    def canonical(self, event: Event) -> Event:
        """A draw or discard in canonical form (:mod:`kansa.parsers.canonical`) while a
        seat's last take was a chi or pon: that seat's next discard is never tsumogiri.
        Every other event is built canonical, so a game's events need no second pass."""
        self.called, event = after_call(self.called, event)
        return event

    def seat(self, f: Fields, key: str = "l") -> Seat:
        return Seat((f.integer(key, 0, self.n - 1) + self.jushu) % self.n)

    def read(self, raw: list[Any]) -> None:
        """Reads the hand whose decoded entries are ``raw``."""
        self.items = [self.item(i, entry) for i, entry in enumerate(raw)]
        if self.items[0].kind != "qipai":
            raise LogFormatError("a hand should start with qipai", self.src)
        self.play(self.qipai(self.fields(0)))

    def scan(self, data: bytes, pos: i64, depth: int) -> i64:
        """Reads the hand whose list opens at ``pos`` in the paipu's bytes ``data``, and
        gives the offset after it; each entry nests at most ``depth`` deep.  A shared
        draw or discard met where every entry before it is played is played at once.
        :raises NotQuick: for a text the full reading reads (or words the error of)."""
        pos = skip_space(data, pos + 1)
        value, end = entry_value(data, pos, depth)
        head = self.item(0, value)
        if head.kind != "qipai" or head.fields is None:
            raise NotQuick
        if self.n == 0:
            hands = head.fields.get("shoupai")
            if not isinstance(hands, list) or len(hands) not in (3, 4):
                raise NotQuick
            self.n = len(hands)
        self.items = [head]
        self.log.events.append(self.qipai(head.fields))
        self.shared_entry(0)  # the hand's table
        shared = _SHARED[(self.n, self.jushu)]
        items = self.items
        n: i64 = self.n
        log = self.log
        out = log.events
        done: i64 = 1  # the entries before it are played
        i: i64 = 1
        pos = skip_space(data, end)
        code: i64
        size: i64 = len(data)
        while data[pos] == 0x2C:  # ,  (whitespace skipped where there is any)
            pos += 1
            if data[pos] <= 0x20:
                pos = skip_space(data, pos)
            code = NOT_SHARED
            if pos + COMPACT_MOST < size:
                code, end = compact_code(data, pos, n)
            if code == NOT_SHARED:
                code, end = entry_code(data, pos, n)
            if code == NOT_SHARED:
                value, end = entry_value(data, pos, depth)
                items.append(self.item(i, value))
            else:
                item = shared[code]
                if item is None:
                    item = shared[code] = _shared_entry(code, n, self.jushu)
                items.append(item)
                track: i64 = item.track
                if done == i and (track == ZIMO or not self.kan_open):
                    if track == ZIMO:
                        log.draws.append(i)
                    else:
                        log.discards.append(i)
                    ev = item.event
                    assert ev is not None
                    out.append(self.canonical(ev) if self.called else ev)
                    if track == self.last_track:
                        self.run_from()
                    self.last_track = track
                    done = i + 1
            if done < i:  # an entry looks at most two entries ahead
                done = self.play_to(done, i - 1)
            i += 1
            pos = end if data[end] > 0x20 else skip_space(data, end)
        if data[pos] != 0x5D:  # ]
            raise NotQuick
        self.play_to(done, i)
        self.finish()
        return pos + 1

    def read_texts(self, raw: list[Any], depth: int) -> None:
        """Reads the hand whose entries' JSON texts are ``raw`` (msgspec's
        ``Raw``), each nesting at most ``depth`` deep: the quick reading where the code
        runs interpreted (see :data:`~kansa.parsers.majiang.scan.COMPILED`).

        :raises NotQuick: as :meth:`scan`.
        """
        # each entry's text as bytes, in two calls for the hand (a NUL, which JSON
        # text cannot hold, between them)
        texts = b"\0".join(raw).split(b"\0")
        if len(texts) != len(raw):
            raise NotQuick
        head = self.item(0, text_value(texts[0], depth))
        if head.kind != "qipai" or head.fields is None:
            raise NotQuick
        self.items = [head]
        start = self.qipai(head.fields)
        shared = _SHARED_TEXTS.setdefault((self.n, self.jushu), {})
        items = self.items
        for i in range(1, len(texts)):
            text = texts[i]
            item = shared.get(text)
            if item is None:
                item = self.item(i, text_value(text, depth))
                code = shared_code(item.kind, item.fields, self.n)
                if code != NOT_SHARED and len(shared) < _SHARED_TEXTS_MOST:
                    item = shared[text] = self.shared_entry(code)
            items.append(item)
        self.play(start)

    def shared_entry(self, code: int) -> Entry:
        """The shared entry of :func:`entry_code` ``code`` in this hand."""
        table = _SHARED.get((self.n, self.jushu))
        if table is None:
            table = _SHARED[(self.n, self.jushu)] = [None] * _CODES
        item = table[code]
        if item is None:
            item = table[code] = _shared_entry(code, self.n, self.jushu)
        return item

    def item(self, i: int, entry: Any) -> Entry:
        if not isinstance(entry, dict) or len(entry) != 1:
            raise LogFormatError(f"a log entry should be a one-key object, not "
                                 f"{short(entry)}", pointer_ref(self.src, i))
        kind: str = ""
        body: Any = None
        for key, value in entry.items():  # the one key
            kind, body = key, value
        return Entry(kind, Fields(body, self.at(i, kind)))

    def at(self, i: int, kind: str) -> SourceRef:
        """The position of entry ``i`` of kind ``kind`` (the body of its one key)."""
        rows = self.entry_pointers
        while len(rows) <= i < ENTRIES_KEPT:
            rows.append({})
        row = rows[i] if i < len(rows) else {}
        pointer = row.get(kind)
        if pointer is None:
            pointer = f"{self.src.pointer}/{i}/{kind}"
            if kind in KEPT_KINDS:
                row[kind] = pointer
        return SourceRef(self.src.file, pointer=pointer)

    def fields(self, i: int) -> Fields:
        """Entry ``i``'s fields (at its own position for a shared entry)."""
        item = self.items[i]
        f = item.fields
        if f is None:
            f = Fields(item.body, self.at(i, item.kind))
        return f

    def play(self, start: StartKyoku) -> None:
        """Plays the entries after the deal ``start``."""
        self.log.events.append(start)
        self.play_to(1, len(self.items))
        self.finish()

    def play_to(self, i: i64, stop: i64) -> i64:
        """Plays the entries from ``i`` on: every shared draw and discard, and those
        other before ``stop``; gives the first entry not played."""
        items = self.items
        log = self.log
        out = log.events
        size: i64 = len(items)
        last_track = self.last_track
        while i < size:
            item = items[i]
            ev = item.event
            if ev is not None:
                if item.track == ZIMO:
                    log.draws.append(i)
                elif self.kan_open:  # the kan's indicator goes before the discard
                    ev = None
                else:
                    log.discards.append(i)
                if ev is not None:
                    out.append(self.canonical(ev) if self.called else ev)
                    track: i64 = item.track
                    if track == last_track:
                        self.run_from()
                    last_track = track
                    i += 1
                    continue
            if i >= stop:
                break
            kind, f = item.kind, item.fields
            if f is None:
                f = self.fields(i)
            if kind == "zimo":
                skip = self.on_zimo(f, out)
            elif kind == "dapai":
                skip = self.on_dapai(f, i, out)
            elif kind == "fulou":
                skip = self.on_fulou(f, i, out)
            elif kind == "gang":
                skip = self.on_gang(f, i, out)
            elif kind == "gangzimo":
                skip = self.on_gangzimo(f, i, out)
            elif kind == "kaigang":
                skip = self.on_kaigang(f, out)
            elif kind == "penuki":
                skip = self.on_penuki(f, out)
            elif kind == "hule":
                skip = self.on_hule(f, out)
            elif kind == "pingju":
                skip = self.on_pingju(f, out)
            else:
                self.notes.append(Diagnostic(f"unknown log entry {kind!r} ignored", f.src))
                i += 1
                continue
            self.ended = self.ended or kind in ("hule", "pingju")
            i += 1 + skip
        self.last_track = last_track
        return i

    def finish(self) -> None:
        """After the last entry: the hand's end, and where its shared events were read."""
        log, last = self.log, len(self.items) - 1
        if self.ended:
            log.events.append(EndKyoku(src=self.at(last, self.items[last].kind)))
        self.elements = (tuple(log.draws[self.draws_from:]),
                         tuple(log.discards[self.discards_from:]))
        self.order = track_order(self.elements, self.runs)

    def run_from(self) -> None:
        """The shared event just played, from the track of the one before, starts a run."""
        log = self.log
        taken = len(log.draws) - self.draws_from + len(log.discards) - self.discards_from
        self.runs.append(taken - 1)

    def next_kind(self, i: int) -> str | None:
        return self.items[i + 1].kind if i + 1 < len(self.items) else None

    def dora(self, i: int) -> Dora:
        f = self.fields(i + 1)
        self.dora_due = False
        tile, _ = field_tile(f, "baopai", "kaigang baopai")
        return Dora(dora_marker=tile, src=f.src)

    # -- entries; each appends its events to ``out``, gives how many next entries it used

    def qipai(self, f: Fields) -> StartKyoku:
        n = self.n
        self.jushu = f.integer("jushu", 0, n - 1)
        wind = f.integer("zhuangfeng", 0, 3)
        hands = f.array("shoupai")
        if len(hands) != n:
            f.fail("shoupai", f"'shoupai' should have {n} hands, not {len(hands)}")
        defen = f.ints("defen", n)
        by_seat = [(s - self.jushu) % n for s in range(n)]  # the l of each seat
        tehais = tuple(sorted_hidden(haisi(f, "shoupai", hands[k]) or (None,) * 13)
                       for k in by_seat)
        baopai, _ = field_tile(f, "baopai", "baopai")
        return StartKyoku(
            bakaze=WINDS[wind], kyoku=self.jushu + 1, honba=f.integer("changbang", 0),
            kyotaku=f.integer("lizhibang", 0), oya=Seat(self.jushu),
            scores=tuple(defen[k] for k in by_seat), dora_marker=baopai, tehais=tehais,
            src=f.src)

    def on_zimo(self, f: Fields, out: list[Event]) -> int:
        tile, _ = field_tile(f, "p", "zimo") if f.get("p") != "_" else (None, "")
        draw = Tsumo(actor=self.seat(f), tile=tile, src=f.src)
        out.append(self.canonical(draw) if self.called else draw)
        return 0

    def on_gangzimo(self, f: Fields, i: int, out: list[Event]) -> int:
        skip = 0
        if not self.kan_open and self.next_kind(i) == "kaigang":
            out.append(self.dora(i))  # ankan: indicator before the replacement draw
            skip = 1
        self.on_zimo(f, out)
        return skip

    def on_dapai(self, f: Fields, i: int, out: list[Event]) -> int:
        actor = self.seat(f)
        tile, marks = field_tile(f, "p", "dapai")
        riichi = "*" in marks
        if riichi:
            out.append(Reach(actor=actor, src=f.src))
        skip = 0
        if self.kan_open and self.next_kind(i) == "kaigang":
            out.append(self.dora(i))  # open kan: indicator before the discard
            skip = 1
        self.kan_open = False
        discard = Dahai(actor=actor, tile=tile, tsumogiri="_" in marks, src=f.src)
        out.append(self.canonical(discard) if self.called else discard)
        j = i + 1 + skip
        after = self.items[j].kind if j < len(self.items) else None
        ronned = after == "hule" or (
            after == "pingju" and self.fields(j).get("name") == "三家和了")
        if riichi and not ronned:
            out.append(ReachAccepted(actor=actor, src=f.src))
        return skip

    def on_fulou(self, f: Fields, i: int, out: list[Event]) -> int:
        actor = self.seat(f)
        tiles, called, mark = meld(f)
        if called is None or mark is None:
            f.fail("m", f"call {short(f.get('m'))} has no direction mark")
        own = sorted_tiles(tuple(t for k, t in enumerate(tiles) if k != called))
        target = self.target(f, actor, mark)
        tile = tiles[called]
        if len(tiles) == 4:
            self.kan_started(f, i)
            self.kan_open = True
            out.append(Daiminkan(actor=actor, target=target, tile=tile, consumed=own,
                                 src=f.src))
        elif len(tiles) == 3 and all(t.index == tile.index for t in own):
            self.called |= 1 << actor
            out.append(Pon(actor=actor, target=target, tile=tile, consumed=own, src=f.src))
        elif len(tiles) == 3:
            self.called |= 1 << actor
            out.append(Chi(actor=actor, target=target, tile=tile, consumed=own, src=f.src))
        else:
            f.fail("m", f"call {short(f.get('m'))} is neither chi, pon nor kan")
        return 0

    def on_gang(self, f: Fields, i: int, out: list[Event]) -> int:
        actor = self.seat(f)
        tiles, _, mark = meld(f)
        if len(tiles) != 4:
            f.fail("m", f"kan {short(f.get('m'))} does not have four tiles")
        self.kan_started(f, i)
        if mark is None:
            self.kan_open = False
            out.append(Ankan(actor=actor, consumed=sorted_tiles(tiles), src=f.src))
        else:
            self.kan_open = True
            out.append(Kakan(actor=actor, tile=tiles[3], consumed=sorted_tiles(tiles[:3]),
                             src=f.src))
        return 0

    def kan_started(self, f: Fields, i: int) -> None:
        """kobalab reveals a pending indicator before the next kan; note when it is missing."""
        if self.dora_due and self.next_kind(i) != "kaigang":
            self.notes.append(Diagnostic(
                "the earlier kan's dora indicator is missing from the log before this kan",
                f.src))
        self.dora_due = True

    def on_kaigang(self, f: Fields, out: list[Event]) -> int:
        self.dora_due = False
        tile, _ = field_tile(f, "baopai", "kaigang baopai")
        out.append(Dora(dora_marker=tile, src=f.src))
        return 0

    def on_penuki(self, f: Fields, out: list[Event]) -> int:
        tile, _ = field_tile(f, "p", "penuki")
        out.append(Nukidora(actor=self.seat(f), tile=tile, src=f.src))
        return 0

    def target(self, f: Fields, actor: Seat, mark: str) -> Seat:
        if self.n == 4:
            return Seat((actor + _OFFSET4[mark]) % 4)
        # Tenhou-converted 3-player paipu mark shimocha with '+' or '='
        return Seat((actor + (-1 if mark == "-" else 1)) % 3)

    def on_hule(self, f: Fields, out: list[Event]) -> int:
        actor = self.seat(f)
        target = actor if f.get("baojia") is None else self.seat(f, "baojia")
        known = all_known(haisi(f, "shoupai", f.req("shoupai")))
        tile = known[-1] if known and len(known) % 3 == 2 else None  # written last
        if known is not None:
            known = sorted_tiles(known)
        yaku, pao = self.hupai(f, actor) if f.has("hupai") else (None, None)
        han = f.opt_int("fanshu", 0)
        if f.has("damanguan"):
            han = 13 * f.integer("damanguan", 1)
        ura = f.get("fubaopai")
        if ura is not None and not isinstance(ura, list):
            f.fail("fubaopai", "'fubaopai' should be a list of tiles")
        out.append(Hora(
            actor=actor, target=target, tile=tile, deltas=self.deltas(f), hand=known,
            yaku=yaku, fu=f.opt_int("fu", 0), han=han, points=f.opt_int("defen", 0),
            ura_markers=None if ura is None else tuple(
                tile_of(t, f.at("fubaopai"), "fubaopai")[0] for t in ura),
            pao=pao, src=f.src))
        return 0

    def hupai(self, f: Fields, actor: Seat) -> tuple[tuple[tuple[Yaku, int], ...],
                                                     Seat | None]:
        out: list[tuple[Yaku, int]] = []
        pao = None
        at = f.at("hupai")
        for entry in f.array("hupai"):
            h = Fields(entry, at)
            name = h.text("name")
            fanshu = h.req("fanshu")
            if isinstance(fanshu, str) and fanshu and set(fanshu) == {"*"}:
                han = 13 * len(fanshu)
            else:
                han = fanshu if type(fanshu) is int else \
                    check_int(fanshu, h.at("fanshu"), f"fanshu of {name}")
            yaku = YAKU_BY_NAME.get(name.replace("　", " "))
            if yaku is None:
                self.notes.append(Diagnostic(f"unknown yaku {name!r} ({han} han) left out",
                                             h.src))
                continue
            if not is_empty_ura((yaku, han)):  # as the canonical form has it
                out.append((yaku, han))
            mark = h.get("baojia")
            if isinstance(mark, str) and mark in _OFFSET4:
                pao = self.target(h, actor, mark)
            elif mark is not None:
                pao = self.seat(h, "baojia")
        return tuple(out), pao

    def deltas(self, f: Fields) -> tuple[int, ...] | None:
        if not f.has("fenpei"):
            return None
        fenpei = f.ints("fenpei", self.n)
        return tuple(fenpei[(s - self.jushu) % self.n] for s in range(self.n))

    def on_pingju(self, f: Fields, out: list[Event]) -> int:
        name = f.text("name")
        reason = DRAW_BY_NAME.get(name)
        if reason is None:
            f.fail("name", f"unknown draw {name!r} (known: {', '.join(DRAW_BY_NAME)})")
        hands = None
        if f.has("shoupai"):
            rows = f.array("shoupai")
            if len(rows) != self.n:
                f.fail("shoupai", f"'shoupai' should have {self.n} hands, not {len(rows)}")
            shown = [all_known(haisi(f, "shoupai", rows[(s - self.jushu) % self.n]))
                     for s in range(self.n)]
            hands = tuple(sorted_tiles(h) if h else None for h in shown)
        tenpai = None
        actor = None
        if hands is not None and not reason.is_abortive:
            tenpai = tuple(h is not None for h in hands)
        elif hands is not None and reason is DrawReason.KYUUSHU_KYUUHAI:
            declared = [Seat(s) for s, h in enumerate(hands) if h is not None]
            actor = declared[0] if len(declared) == 1 else None
        deltas = self.deltas(f)
        if deltas is None and reason.is_abortive:  # no points move (canonical zeros)
            deltas = (0,) * self.n
        out.append(Ryukyoku(reason=reason, deltas=deltas, tenpai=tenpai,
                            hands=hands, actor=actor, src=f.src))
        return 0
