"""What a Tenhou mjlog's ``GO`` tag says of the game's rules.

:func:`decode_go` reads the ``type`` bits, the ``lobby`` number and, in custom lobbies
since 2023, the ``csrule`` list, into :class:`LobbyRules`.  :meth:`LobbyRules.hints`
gives the :class:`~kansa.replay.game.RuleHints` the game carries (what the header states);
``kansa.runner.rules_for`` decodes the carried type and lobby again
(:func:`lobby_rules`) and :meth:`LobbyRules.adjust` adds what follows from the
lobby's kind, so a converted game is audited the same way.

Each decoded value names its source.  The sources (FORMATS.md §A.4 lists them):

* KOBA: kobalab/tenhou-log ``parse_type`` (room label, the 光 speed bit);
* DNOV: dnovikoff/tenhou ``tbase/lobby.go`` (the low byte; ``0x0841`` named as the
  jansou rules);
* SPINES: Spines ``GameTypeFlag.cs`` (the low byte);
* PYVIEW: a Python tenhou-log viewer's ``game_type_desc`` bit table (``0x0100``
  discard shadow, ``0x0200`` chips, ``0x0400`` five chips instead of two, with the
  chip lobbies' level names 若銀琥孔);
* CORPUS: what the real games in ``../shared/corpus/tenhou_xml`` show (named).

What kansa cannot tell (a bit no source names, a chip or jansou lobby's scoring, the
``csrule`` flag words, a numbered lobby without ``csrule``, the rules of the years
before the ``lobby`` attribute) is listed in :attr:`LobbyRules.unknown`: the audit
then reports findings that depend on those rules as one warning per game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from kansa.replay.game import RuleHints
from kansa.replay.rules import RuleSet, UnknownRule

HUMANS = 0x0001
"""Clear in a practice or demo game (KOBA marks it "－"; DNOV ``FlagOnline``)."""
NO_AKA = 0x0002
"""No red fives (KOBA, DNOV, SPINES; CORPUS: every 0x02-clear game deals ids 16/52/88 red)."""
NO_KUITAN = 0x0004
"""No open tanyao (KOBA, DNOV, SPINES)."""
HANCHAN = 0x0008
"""East-South game; clear: East only (KOBA, DNOV, SPINES)."""
SANMA = 0x0010
"""Three players (KOBA, DNOV, SPINES; CORPUS sanma2.xml)."""
LEVEL_HIGH = 0x0020
"""Level bit worth 2: 特上, or 琥 in a chip lobby (KOBA, PYVIEW)."""
FAST = 0x0040
"""Fast (速) thinking time; no rule changes (KOBA, DNOV)."""
LEVEL_LOW = 0x0080
"""Level bit worth 1: 上級, or 銀 in a chip lobby (KOBA, PYVIEW)."""
SHADOW = 0x0100
"""Discards shown with a shadow (暗); a display setting (PYVIEW)."""
CHIPS = 0x0200
"""Chip (祝儀) lobby (PYVIEW ``with_tips``; CORPUS chip.xml_ type 553 and ratio1.xml_
type 1569, whose AGARI tags carry ``chip`` and a 16-value ``sc``)."""
FIVE_CHIPS = 0x0400
"""Five chips a prize instead of two (PYVIEW ``is_5tips``; CORPUS ratio1.xml_)."""
JANSOU = 0x0800
"""Jansou (雀荘) lobby (DNOV ``RulesDzjanso = 0x0841``; CORPUS ratio.xml and sanma.xml:
scores in hundreds from 1,000, ``ratio`` on INIT, final points without uma)."""
KOU = 0x1000
"""光, a faster speed than 速 (KOBA); no rule changes."""

KNOWN_BITS = (HUMANS | NO_AKA | NO_KUITAN | HANCHAN | SANMA | LEVEL_HIGH | FAST | LEVEL_LOW
              | SHADOW | CHIPS | FIVE_CHIPS | JANSOU | KOU)

_LEVELS: Final = ("般", "上", "特", "鳳")
_CHIP_LEVELS: Final = ("若", "銀", "琥", "孔")  # PYVIEW

CHIP_UMA = (30000, 10000, -10000, -30000)
"""Uma of the chip lobbies: CORPUS chip.xml_ (owari 2nd +10, 3rd -10, 4th -30 after
the return score) and ratio1.xml_ (the same); no published table was found."""
OLD_EAST_UMA = (10000, 5000, -5000, -10000)
"""Uma of East-only games in logs without a ``lobby`` attribute: CORPUS bye.xml and
shuffle.xml (2009, both 2nd +5, 3rd -5, 4th -10); later East-only games (2022) show
Tenhou's +20/+10/-10/-20."""

# -- csrule: a comma-separated list; only the plain-number fields are read ------------
# CORPUS newattr2023.xml (lobby 1, 2023) is the one real log with a csrule:
# "0FE0BF0B,0000001F,,,30000,30000,30000,,...,5,-5,-15 (five times),,,,".  Fields 0
# and 1 are hexadecimal flag words nobody documents (left undecoded); 4, 5 and 6 are
# 30000 where that game starts with 30,000 and its owari takes 30,000 off; 21-35 are
# five (2nd, 3rd, 4th) uma triples in thousands, the first place's being minus their
# sum (its owari: +15/+5/-5/-15, tied players sharing).  The five triples are read
# as one table only when they agree (what varies between them is not known).
_CS_START: Final = 4
_CS_RETURN: Final = 5
_CS_UMA: Final = 21
_CS_UMA_TABLES: Final = 5


@dataclass(frozen=True, slots=True)
class LobbyRules:
    """The rules a ``GO`` tag states, and what it leaves unknown."""

    raw_type: int
    players: int
    aka: bool
    kuitan: bool
    hanchan: bool
    level: int
    """0..3: 般上特鳳, or 若銀琥孔 in a chip lobby."""
    chips: int
    """Chips a prize (祝儀): 0 outside chip lobbies, else 2 or 5."""
    jansou: bool
    lobby: str | None
    """The ``lobby`` attribute; ``None`` where the log has none (logs before 2011)."""
    room: str
    start_score: int | None = None
    """The csrule's start points."""
    return_score: int | None = None
    """The csrule's return points."""
    stated_uma: tuple[int, int, int, int] | None = None
    """The csrule's uma."""
    uma: tuple[int, int, int, int] | None = None
    """The uma of the lobby where no csrule states one (chip lobbies, old East-only)."""
    kiriage: bool | None = None
    unknown: tuple[UnknownRule, ...] = ()
    """What kansa cannot tell of this table, and the checks each can change."""

    def hints(self) -> RuleHints:
        """What the header states, as the game carries it (and conversions keep it)."""
        return RuleHints(
            players=self.players, aka=self.aka, kuitan=self.kuitan, hanchan=self.hanchan,
            platform="tenhou", lobby=self.lobby, room=self.room, raw_type=self.raw_type,
            start_score=self.start_score, uma=self.stated_uma,
            return_score=self.return_score)

    def adjust(self, rules: RuleSet) -> RuleSet:
        """``rules`` (the preset with the header's hints) with the lobby's own rules
        that are not stated but known from its kind, and what stays unknown."""
        changes: dict[str, object] = {}
        if self.kiriage is not None:
            changes["kiriage"] = self.kiriage
        if self.uma is not None and self.stated_uma is None:
            changes["uma"] = self.uma
        if self.unknown:
            changes["unknown"] = rules.unknown + self.unknown
        return rules.replace(**changes) if changes else rules


def lobby_rules(hints: RuleHints) -> LobbyRules | None:
    """The lobby rules of a Tenhou game from the hints it carries (its ``GO`` type and
    lobby; the csrule's numbers are in the hints already), or ``None`` for a game whose
    hints hold no Tenhou ``GO`` type."""
    if hints.platform != "tenhou" or hints.raw_type is None:
        return None
    return decode_go(hints.raw_type, lobby=hints.lobby)


def room_label(go_type: int) -> str:
    """Room label built from ``GO type`` bits as the tenhou.net/6 ``rule.disp`` shows it.

    >>> room_label(169), room_label(9), room_label(185), room_label(193)
    ('鳳南喰赤', '般南喰赤', '三鳳南喰赤', '上東喰赤速')
    >>> room_label(553), room_label(1569)
    ('琥南喰赤祝2', '琥東喰赤祝5')
    """
    level = _level(go_type)
    names = _CHIP_LEVELS if go_type & CHIPS else _LEVELS
    return "".join((
        "三" if go_type & SANMA else "",
        names[level],
        "南" if go_type & HANCHAN else "東",
        "" if go_type & NO_KUITAN else "喰",
        "" if go_type & NO_AKA else "赤",
        "光" if go_type & KOU else "速" if go_type & FAST else "",
        f"祝{5 if go_type & FIVE_CHIPS else 2}" if go_type & CHIPS else "",
        "" if go_type & HUMANS else "－",
    ))


def _level(go_type: int) -> int:
    return (go_type & LEVEL_HIGH) >> 4 | (go_type & LEVEL_LOW) >> 7


def decode_go(go_type: int, *, lobby: str | None = None, csrule: str | None = None
              ) -> LobbyRules:
    """The rules of a game whose ``GO`` tag has these attributes.

    >>> r = decode_go(169, lobby="0")
    >>> r.room, r.hanchan, r.aka, r.unknown
    ('鳳南喰赤', True, True, ())
    >>> decode_go(553, lobby="0").kiriage
    True
    >>> decode_go(161).uma
    (10000, 5000, -5000, -10000)
    """
    unknown: list[UnknownRule] = []
    hanchan = bool(go_type & HANCHAN)
    chips = (5 if go_type & FIVE_CHIPS else 2) if go_type & CHIPS else 0
    jansou = bool(go_type & JANSOU)
    uma: tuple[int, int, int, int] | None = None
    kiriage: bool | None = None
    start: int | None = None
    returned: int | None = None
    stray = go_type & ~KNOWN_BITS
    if stray:
        unknown.append(UnknownRule(f"GO type bits 0x{stray:04X} (no source names them)"))
    if chips:
        uma, kiriage = CHIP_UMA, True  # CORPUS chip.xml_, ratio1.xml_: 4 han 30 fu = mangan
        unknown.append(UnknownRule(
            f"the chip (祝儀, {chips} a prize) lobby's scoring beyond kiriage mangan and "
            "uma +30/+10/-10/-30 (honba, chips)",
            frozenset({"score.payment", "score.final"})))
    if jansou:
        unknown.append(UnknownRule(
            "the jansou (雀荘) lobby's points (start, return, uma)",
            frozenset({"score.final", "flow.end", "flow.scores"})))
    if lobby is None:
        # CORPUS: every log without the attribute is from 2009-2010; bug1.xml plays on
        # after an all-last dealer tenpai as top, which later logs never do
        unknown.append(UnknownRule(
            "the rules of the years before the GO lobby attribute (game end after an "
            "all-last dealer tenpai)", frozenset({"flow.end"})))
        if not hanchan:
            uma = OLD_EAST_UMA
    stated: tuple[int, int, int, int] | None = None
    if csrule:
        cs = _decode_csrule(csrule)
        start, returned, stated = cs.start, cs.returned, cs.uma
    if lobby not in (None, "", "0"):
        unknown.append(UnknownRule(
            f"the rules of lobby {lobby} beyond the start, return and uma a csrule states "
            "(its flag words, with the dealer rotation, red fives and length, are not "
            "decoded)"))
    return LobbyRules(
        raw_type=go_type, players=3 if go_type & SANMA else 4, aka=not go_type & NO_AKA,
        kuitan=not go_type & NO_KUITAN, hanchan=hanchan, level=_level(go_type),
        chips=chips, jansou=jansou, lobby=lobby, room=room_label(go_type),
        start_score=start, return_score=returned, stated_uma=stated, uma=uma,
        kiriage=kiriage, unknown=tuple(unknown))


@dataclass(frozen=True, slots=True)
class _Csrule:
    start: int | None
    returned: int | None
    uma: tuple[int, int, int, int] | None
    """``None`` also where the five tables differ (which one applies is not known)."""


def _decode_csrule(csrule: str) -> _Csrule:
    """The plain-number fields of a ``csrule`` (see the field notes above).

    >>> cs = _decode_csrule("0FE0BF0B,0000001F,,,30000,30000,30000" + ",," * 7
    ...                     + ",5,-5,-15" * 5 + ",,,,")
    >>> cs.start, cs.returned, cs.uma
    (30000, 30000, (15000, 5000, -5000, -15000))
    """
    fields = csrule.split(",")

    def number(i: int) -> int | None:
        text = fields[i].strip() if i < len(fields) else ""
        body = text[1:] if text[:1] == "-" else text
        return int(text) if body.isascii() and body.isdigit() else None

    tables = []
    for t in range(_CS_UMA_TABLES):
        triple = [number(_CS_UMA + 3 * t + j) for j in range(3)]
        if all(v is not None for v in triple):
            tables.append(tuple(v for v in triple if v is not None))
    uma: tuple[int, int, int, int] | None = None
    if tables and all(t == tables[0] for t in tables):
        second, third, fourth = (v * 1000 for v in tables[0])
        uma = (-(second + third + fourth), second, third, fourth)
    return _Csrule(start=number(_CS_START), returned=number(_CS_RETURN),
                   uma=uma)
