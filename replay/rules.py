"""Rule sets: one frozen value per set of table rules.

The presets follow ``docs/RULESETS.md`` section 6.  Where that table is unsure,
the choice is written next to the field and can be changed in a user rule set
(``RuleSet.from_mapping`` takes the parsed TOML table).

>>> RuleSet.preset("tenhou").riichi_min_points
1000
>>> RuleSet.preset("ema").replace(aka=True).aka
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Final

from kansa.replay.events import DrawReason
from kansa.replay.frozen import frozen_state, set_frozen_state
from kansa.replay.game import RuleHints
from kansa.replay.rule_values import coerce
from kansa.replay.yaku import Yaku


class MultiRon(Enum):
    ALL = "all"
    """Every player who can win on the discard wins (double and triple ron)."""
    DOUBLE = "double"
    """Double ron allowed; three winners make an abortive draw."""
    HEAD_BUMP = "head_bump"
    """Only the closest winner to the discarder's right wins (atamahane)."""


class HonbaMultiRon(Enum):
    EACH_WINNER = "each_winner"
    CLOSEST = "closest"


class SticksMultiRon(Enum):
    CLOSEST_ALL = "closest_all"
    """The closest winner takes every stick on the table."""
    OWN_BACK_REST_CLOSEST = "own_back_rest_closest"
    """Each winning declarer takes back their own stick; the rest go to the closest winner."""


class RiichiAnkan(Enum):
    WAITS_UNCHANGED = "waits_unchanged"
    """Tenhou: allowed when the set of waits does not change."""
    STRICT = "strict"
    """EMA: waits unchanged and the three tiles read only as a pung."""
    FORBIDDEN = "forbidden"


class KanDoraTiming(Enum):
    IMMEDIATE = "immediate"
    AFTER_DISCARD = "after_discard"
    """Open and added kans reveal their indicator at the kanner's next discard."""


class TempFuritenClear(Enum):
    OWN_DISCARD = "own_discard"
    """Tenhou, Mahjong Soul: at the player's own next discard."""
    OWN_DRAW_OR_CLAIM = "own_draw_or_claim"
    """EMA 2016: when the player draws or claims a tile."""
    DRAW_OR_ANY_CALL = "draw_or_any_call"
    """The older EMA text (the seed's 3.4.5): when the player draws, or when any
    player's kong, pung or chow interrupts the go-around."""


class LateClaim(Enum):
    """What happens to a claim made after the next player has drawn."""

    FORBIDDEN = "forbidden"
    """Online platforms: the server settles every claim before the next draw."""
    WITHIN_SECONDS = "within_seconds"
    """EMA 3.3.1: allowed within ``claim_seconds`` of the discard; the drawn tile
    goes back to the wall."""


class Kuikae(Enum):
    ALLOWED = "allowed"
    SAME = "same"
    """The called tile may not be discarded in the same turn."""
    SAME_AND_SUJI = "same_and_suji"
    """Nor the tile at the other end of a called chow."""


class PaoScope(Enum):
    WHOLE = "whole"
    YAKUMAN_PART = "yakuman_part"


class PaoHonbaPayer(Enum):
    DISCARDER = "discarder"
    LIABLE = "liable"


class KazoeCap(Enum):
    SANBAIMAN = "sanbaiman"
    YAKUMAN = "yakuman"


_ALL_ABORTIVE: Final = frozenset(r for r in DrawReason if r.is_abortive)


TABLE_RULES: Final[frozenset[str]] = frozenset({
    "flow.dealer", "flow.honba", "flow.sticks", "flow.end", "score.value",
    "score.payment", "score.sticks", "score.noten", "score.pao", "score.final"})
"""Checks whose verdict follows from the table's rules rather than from a player's action."""


@dataclass(frozen=True, slots=True)
class UnknownRule:
    """A rule of the log's table that kansa cannot tell, and the checks it can change."""

    what: str
    """What is unknown, as a phrase for the warning."""
    affects: frozenset[str] = TABLE_RULES
    """The check ids whose errors it can explain (all of :data:`TABLE_RULES` when its
    effect cannot be bounded)."""

    def __getstate__(self) -> tuple[Any, ...]:
        return frozen_state(self)

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        set_frozen_state(self, state)


_ADJUSTED: Final[dict[tuple[Any, ...], tuple[RuleSet, RuleSet]]] = {}
""":meth:`RuleSet.with_hints` by rule set ``id`` and hints; each entry holds its rule set."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RuleSet:
    name: str
    base: str = ""
    """The preset this rule set starts from (its citations are used); a preset's own name,
    and for a three-player preset its platform's (``tenhou`` for ``tenhou-sanma``: a rule
    file with ``base = "tenhou"`` and ``players = 3`` starts from ``tenhou-sanma``)."""
    players: int = 4
    """The seats at the table: 4, or 3 (sanma: 108 tiles, 2m to 8m left out, no chi).  A
    preset at a table of the other size is its counterpart for that size
    (:meth:`seated`)."""
    hanchan: bool = True
    aka: bool = True
    """One red five per suit."""
    kuitan: bool = True
    multi_ron: MultiRon = MultiRon.DOUBLE
    honba_multi_ron: HonbaMultiRon = HonbaMultiRon.CLOSEST
    sticks_multi_ron: SticksMultiRon = SticksMultiRon.CLOSEST_ALL
    abortive: frozenset[DrawReason] = _ALL_ABORTIVE
    nagashi: bool = True
    kiriage: bool = False
    kazoe_cap: KazoeCap = KazoeCap.YAKUMAN
    double_yakuman_patterns: bool = False
    """13-wait kokushi, suuankou tanki, junsei chuuren, daisuushii count double."""
    stack_yakuman: bool = True
    """Different yakuman in one hand add up."""
    pao_yakuman: frozenset[Yaku] = frozenset({Yaku.DAISANGEN, Yaku.DAISUUSHII})
    pao_ron_honba_payer: PaoHonbaPayer = PaoHonbaPayer.LIABLE
    pao_scope: PaoScope = PaoScope.WHOLE
    riichi_min_points: int = 1000
    """Points a player must hold (before paying the stick) to declare riichi; 0 sets no
    condition at all, so a player below zero may still declare (EMA, M-League)."""
    riichi_min_live_wall: int = 4
    riichi_ankan: RiichiAnkan = RiichiAnkan.WAITS_UNCHANGED
    open_kan_dora: KanDoraTiming = KanDoraTiming.AFTER_DISCARD
    chankan_ankan_kokushi: bool = False
    temp_furiten_clear: TempFuritenClear = TempFuritenClear.OWN_DISCARD
    kuikae: Kuikae = Kuikae.SAME_AND_SUJI
    tobi: bool = True
    """The game ends when a score goes below zero."""
    west_extension: bool = True
    agari_yame: bool = True
    # -- final points and the end of the game --------------------------------------
    start_score: int = 25000
    return_score: int = 30000
    """The score final points are counted from: ``(score - return_score) / 1000 + uma``;
    the difference to ``start_score``, times the players, is the oka paid to first."""
    target_score: int = 30000
    """The score someone must hold for the game to end after its last hand (else the
    West extension), and the all-last dealer's score for agari-yame."""
    uma: tuple[int, ...] | None = (20000, 10000, -10000, -20000)
    """Points added by rank, first to last, one per player; ``None`` when unknown (a custom
    lobby whose log does not say), and then final points are not checked."""
    uma_ties_split: bool = False
    """Tied players share their uma (and oka); ``False``: the earlier seat ranks higher."""
    leftover_sticks_to_top: bool = True
    honba_value: int = 300
    """Points per honba counter in all: a ron's discarder pays them, a tsumo's payers share
    them (100 each at four and at three players: 300 and 200)."""
    noten_total: int = 3000
    """The noten payments of an exhaustive draw in all, split between the noten players and
    shared by the tenpai players."""
    tsumo_loss: bool = True
    """At a three-player table a tsumo is paid as at four with the absent seat's share lost
    (ツモ損: a non-dealer mangan tsumo pays 2,000 + 4,000); ``False``: the absent seat's
    share is split between the two payers, each paying half of it (rounded up to 100)."""
    kita_dora: bool = True
    """A North set aside at a three-player table (kita, 抜きドラ) is a dora for its owner,
    scored as its own item (``nukidora``) with the dora an indicator gives it."""
    double_wind_pair_fu: int = 4
    renhou: bool = False
    claim_seconds: float = 3.0
    """How long after a discard a call may still be made (EMA 3.3.1)."""
    late_claim: LateClaim = LateClaim.FORBIDDEN
    """Whether a pon, kan or chi may come after the next player's draw."""
    ron_until_next_discard: bool = False
    """A win on a discard may be claimed until the next player discards (EMA 2016
    3.3.1), not only until the next draw."""
    rounding: str = "tenhou"
    """How final points are rounded.  ``tenhou``: every player but the first rounds the
    score to whole thousands, half away from zero (25,500 -> 26, -4,500 -> -5: what the
    corpus's owari values show), then takes off the return score and adds uma; the first
    takes minus the sum of the others.  Logs that give points in tenths (Tenhou's newer logs,
    custom lobbies) are compared in tenths instead (``tenhou_tenths``).  ``none``: exact, in
    thousands."""
    # -- what a log leaves unknown of its own table (``kansa.runner.rules_for``) --
    unknown: tuple[UnknownRule, ...] = ()
    """Rules of the log's table kansa cannot tell (a Tenhou lobby's: see
    ``parsers/tenhou_xml/rules.py``).  The errors of the checks each one affects are
    reported as one ``log.assumption`` warning for the game, not as errors."""
    contradicted: tuple[str, ...] = ()
    """Header values the play contradicts (red fives the header says are not in play but
    the log's wins count), which the audit follows instead; each is reported once as a
    ``ruleset.mismatch`` warning."""
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False)

    # -- construction ----------------------------------------------------------

    @staticmethod
    def preset(name: str) -> RuleSet:
        """:raises KeyError: for an unknown preset name."""
        try:
            return PRESETS[name]
        except KeyError:
            raise KeyError(f"unknown rule set {name!r}; presets: {', '.join(PRESETS)}") from None

    def replace(self, **changes: Any) -> RuleSet:
        return dataclasses.replace(self, **changes)

    def seated(self, hints: RuleHints) -> RuleSet:
        """This rule set at the table the log shows: the number of players is the log's
        (the one place a replay takes it from); see :meth:`for_players`."""
        return self if hints.players == self.players else self.for_players(hints.players)

    def for_players(self, players: int) -> RuleSet:
        """This rule set at a table of ``players``: a preset becomes its counterpart for
        that size (``tenhou`` at three players is ``tenhou-sanma``); another rule set keeps
        its rules, and since it does not say what changes with the table's size (payments,
        final points, game length), the errors of those checks become one
        ``log.assumption`` warning.

        >>> RuleSet.preset("tenhou").for_players(3).name
        'tenhou-sanma'
        >>> RuleSet.preset("ema").for_players(3).unknown[0].what
        'the 3-player rules of ema (it has no 3-player counterpart)'
        """
        if players == self.players:
            return self
        counterpart = COUNTERPARTS.get((self.name, players))
        if counterpart is not None:
            return PRESETS[counterpart]
        what = UnknownRule(f"the {players}-player rules of {self.name} (it has no "
                           f"{players}-player counterpart)")
        uma = self.uma if self.uma is None or len(self.uma) == players else None
        return self.replace(players=players, uma=uma, unknown=(*self.unknown, what))

    def with_hints(self, hints: RuleHints) -> RuleSet:
        """This rule set adjusted by what a log says about its own table (one rule set
        for the same hints: a batch does not build one per game)."""
        key = (id(self), hints.players, hints.aka, hints.kuitan, hints.hanchan, hints.uma,
               hints.lobby, hints.start_score, hints.return_score)
        hit = _ADJUSTED.get(key)
        if hit is not None:
            return hit[1]
        out = self._with_hints(hints)
        if len(_ADJUSTED) >= 256:  # (a batch meets a few tables, not hundreds)
            _ADJUSTED.clear()
        _ADJUSTED[key] = (self, out)
        return out

    def _with_hints(self, hints: RuleHints) -> RuleSet:
        if hints.players != self.players:
            return self.seated(hints).with_hints(hints)
        changes: dict[str, Any] = {}
        if hints.aka is not None:
            changes["aka"] = hints.aka
        if hints.kuitan is not None:
            changes["kuitan"] = hints.kuitan
        if hints.hanchan is not None:
            changes["hanchan"] = hints.hanchan
        if hints.uma is not None and len(hints.uma) == self.players:
            changes["uma"] = tuple(hints.uma)
        elif hints.lobby not in (None, "", "0") and self.name in PLATFORM_PRESETS:
            changes["uma"] = None  # a custom lobby with its own uma, not in the log
        if hints.start_score is not None:
            changes["start_score"] = hints.start_score
        if hints.return_score is not None:
            changes["return_score"] = hints.return_score
        return self.replace(**changes) if changes else self

    @staticmethod
    def from_mapping(data: Mapping[str, Any], *, name: str | None = None) -> RuleSet:
        """Build a rule set from a parsed TOML table.

        ``base`` names the preset to start from (default ``tenhou``); every other
        key is a field name with its value as text, number, bool or list.

        :raises ValueError: for an unknown key or a value of the wrong kind.
        """
        data = dict(data)
        base_name = data.pop("base", "tenhou")
        if not isinstance(base_name, str) or base_name not in PRESETS:
            raise ValueError(f"bad value for 'base': {base_name!r} (expected one of "
                             f"{', '.join(PRESETS)})")
        base = PRESETS[base_name]
        players = data.get("players")
        if isinstance(players, int) and not isinstance(players, bool) \
                and (base_name, players) in COUNTERPARTS:
            base = PRESETS[COUNTERPARTS[base_name, players]]
        fields = {f.name for f in dataclasses.fields(RuleSet)} - {
            "extra", "base", "unknown", "contradicted"}
        label = data.pop("name", None) if name is None else name
        if label is not None and not isinstance(label, str):
            raise ValueError(f"bad value for 'name': {label!r} (expected text)")
        changes: dict[str, Any] = {"name": label or "custom", "base": base.base}
        for key, value in data.items():
            if key not in fields:
                raise ValueError(f"unknown rule-set field {key!r} (known: "
                                 f"base, {', '.join(sorted(fields))})")
            changes[key] = coerce(key, getattr(base, key), value)
        out = base.replace(**changes)
        if out.players not in (3, 4):
            raise ValueError(f"bad value for 'players': {out.players!r} (expected 3 or 4)")
        if out.uma is not None and len(out.uma) != out.players:
            raise ValueError(f"bad value for 'uma': {list(out.uma)!r} (expected a list of "
                             f"{out.players} whole numbers, one per player)")
        return out

    @staticmethod
    def auto(hints: RuleHints) -> RuleSet:
        """The rule set a log's own metadata points to.

        The platform's preset (``tenhou`` when the log does not say) for the log's
        number of players, adjusted by the log's rule bits: a Tenhou game without red
        fives is audited without them.

        >>> RuleSet.auto(RuleHints(platform="tenhou", aka=False)).aka
        False
        >>> RuleSet.auto(RuleHints(platform="majsoul")).name
        'majsoul'
        >>> RuleSet.auto(RuleHints(platform="majsoul", players=3)).name
        'majsoul-sanma'
        """
        platform = hints.platform
        name = platform if platform is not None and platform in PRESETS else "tenhou"
        return PRESETS[name].with_hints(hints)

    def to_mapping(self) -> dict[str, Any]:
        """The rule set as plain values (for JSON output and ``kansa rules``)."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            if f.name == "extra" or (f.name in ("unknown", "contradicted")
                                      and not getattr(self, f.name)):
                continue
            out[f.name] = _plain(getattr(self, f.name))
        return out

    def __getstate__(self) -> tuple[Any, ...]:
        return frozen_state(self)

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        set_frozen_state(self, state)


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value if not isinstance(value, Yaku) else value.name.lower()
    if isinstance(value, UnknownRule):
        return {"what": value.what, "affects": sorted(value.affects)}
    if isinstance(value, frozenset):
        return sorted(_plain(v) for v in value)
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


# The presets, flag by flag against RULESETS.md section 6 (and the section 1 rows
# it summarises).  Where section 6 says "?" (not verified) the value below is a
# choice, marked CHOICE with its reason; every one is a field a user rule set can
# change.
#
# * kuikae: section 6 writes "same" in the Tenhou, Mahjong Soul, WRC and M-League
#   columns.  Row 29 of section 1 (marked verified for Tenhou and Mahjong Soul) says
#   Tenhou forbids the same tile *and* the suji swap, so "same" is read as "same as
#   EMA" and every preset forbids both.  The Tenhou corpus agrees: no real game
#   shows either swap.
# * late_claim / ron_until_next_discard: row 28.  EMA 3.3.1 (the seed text) lets a
#   claim stand within three seconds of the discard even after the next player drew
#   (the drawn tile goes back to the wall), and EMA 2016 lets a win be claimed until
#   the next player discards.  Online platforms settle every claim before the next
#   draw, so a call after it cannot be legal there.
# * temp_furiten_clear: the seed's older EMA text (any call clears it) is the value
#   DRAW_OR_ANY_CALL; the ema preset follows EMA 2016 (own draw or own claim).

# * row 21 (the riichi stick when the declaration tile is won on) is no field: the
#   replay takes the stick at the log's own accept step.  The corpus's Tenhou XML has
#   42 rons on a declaration tile, none with the accept step (REACH step 2) before it
#   (e.g. mjx-project__mjx/2022060100gm-00a9-0000-97f72260.mjlog), and so do its
#   tenhou6, majiang and mjai logs; no Mahjong Soul log in the corpus shows the case.
#
# Final points and the end of the game, preset by preset (rows 33-36):
#
# * tenhou: start 25,000, return 30,000 (oka 20,000 to first), uma 20/10, rounding
#   "tenhou", honba 300, noten 3,000 (rows 34-36).  The corpus's Tenhou games that give
#   final points agree: 176 of its 182 Tenhou XML owari (120 of them in tenths; the
#   other six are dnovikoff__tenhou's chip, rate and 2009 type-161 lobby games, whose
#   lobbies have other rules), the 28 majiang games converted from Tenhou, and tenhou6
#   ranked_game.json and suukantsu_1.json (Equim-chan__mjai-reviewer).  The target,
#   30,000: row 33 (West extension until someone has it, all-last agari-yame); the
#   corpus's full Tenhou games end as it gives, apart from a 2009 game
#   (dnovikoff__tenhou/bug1.xml) whose all-last dealer, tenpai and top, played on: a
#   tenpai-yame question, not one of the target.
# * majsoul: final points are (score - 25,000) / 1000 + uma 15/5/-5/-15, no oka, first
#   the earlier seat on a tie, leftover sticks to first: the tensoul-style "sc" of
#   tenhou6/kbkn3__MahjongSoul-review-supporter/2025_1_1_Jade_Room_South.json (scores
#   7200, 52400, 15500, 24900 give -32.8, 42.4, -14.5, 4.9), which answers row 35's "?".
#   The room (Bronze to Throne) changes the rank points (段位pt), not these game points:
#   the corpus's three-player Silver, Gold and Jade room logs (hidacow__mjai-reviewer3p)
#   show the same formula (return = start = 35,000, uma 15/0/-15).  The target stays
#   30,000 (row 34: first place needs it to end the game; ~, the corpus's one hanchan
#   ends after South 4 with a top of 52,400, which does not pin it down).
# * ema: 30,000 start and return, uma 15/5/-5/-15 shared on ties, exact points (rows
#   34-35, EMA-PL and EMA-CHG); no West extension, so the target is never used.
# * wrc: as ema (rows 34-35, WRC-WIKI).
# * mleague: 25,000 start, 30,000 return, uma 30/10 (first +50 with the oka), ties
#   split, exact points (rows 34-35, MLEAGUE); no West extension.
# No EMA, WRC or M-League game is in the corpus: those numbers rest on the rule texts.

TENHOU: Final = RuleSet(name="tenhou", base="tenhou")

MAJSOUL: Final = TENHOU.replace(
    name="majsoul",
    base="majsoul",
    multi_ron=MultiRon.ALL,
    abortive=_ALL_ABORTIVE - {DrawReason.SANCHAHOU},
    double_yakuman_patterns=True,
    pao_scope=PaoScope.YAKUMAN_PART,
    chankan_ankan_kokushi=True,
    return_score=25000,
    target_score=30000,
    uma=(15000, 5000, -5000, -15000),
    uma_ties_split=False,
    rounding="none",
)

EMA: Final = RuleSet(
    name="ema",
    base="ema",
    aka=False,
    kuitan=True,
    multi_ron=MultiRon.ALL,
    honba_multi_ron=HonbaMultiRon.EACH_WINNER,
    sticks_multi_ron=SticksMultiRon.OWN_BACK_REST_CLOSEST,
    abortive=frozenset(),
    nagashi=False,
    kiriage=False,
    kazoe_cap=KazoeCap.SANBAIMAN,
    double_yakuman_patterns=False,
    stack_yakuman=False,
    pao_ron_honba_payer=PaoHonbaPayer.DISCARDER,
    riichi_min_points=0,
    riichi_ankan=RiichiAnkan.STRICT,
    open_kan_dora=KanDoraTiming.IMMEDIATE,
    chankan_ankan_kokushi=True,
    temp_furiten_clear=TempFuritenClear.OWN_DRAW_OR_CLAIM,
    late_claim=LateClaim.WITHIN_SECONDS,
    ron_until_next_discard=True,
    tobi=False,
    west_extension=False,
    agari_yame=False,
    start_score=30000,
    return_score=30000,
    uma=(15000, 5000, -5000, -15000),
    uma_ties_split=True,
    leftover_sticks_to_top=True,
    # CHOICE: the double-wind pair's fu is "?" for EMA (row 45); 4 as on Tenhou.
    double_wind_pair_fu=4,
    renhou=True,
    rounding="none",
)

WRC: Final = EMA.replace(
    name="wrc",
    base="wrc",
    multi_ron=MultiRon.HEAD_BUMP,
    kiriage=True,
    stack_yakuman=True,
    leftover_sticks_to_top=False,
    double_wind_pair_fu=2,
    # CHOICE for the "?" cells, all kept from EMA because the 2015 text mirrors it:
    # riichi_min_points 0 (scores may go below zero), pao_ron_honba_payer discarder,
    # pao_scope whole, riichi_ankan strict, open_kan_dora immediate,
    # chankan_ankan_kokushi true, temp_furiten_clear own_draw_or_claim, and the EMA
    # claim window (late_claim within_seconds, ron_until_next_discard).
)

MLEAGUE: Final = TENHOU.replace(
    name="mleague",
    base="mleague",
    multi_ron=MultiRon.HEAD_BUMP,
    abortive=frozenset(),
    pao_yakuman=frozenset({Yaku.DAISANGEN, Yaku.DAISUUSHII, Yaku.SUUKANTSU}),
    riichi_min_points=0,
    riichi_min_live_wall=0,
    open_kan_dora=KanDoraTiming.IMMEDIATE,
    tobi=False,
    west_extension=False,
    agari_yame=False,
    uma=(30000, 10000, -10000, -30000),
    uma_ties_split=True,
    double_wind_pair_fu=2,
    rounding="none",
    # CHOICE for the "?" cells, kept from Tenhou: nagashi true, kiriage false,
    # kazoe_cap yakuman, double_yakuman_patterns false / stack_yakuman true,
    # pao_ron_honba_payer liable, pao_scope whole, riichi_ankan waits_unchanged,
    # temp_furiten_clear own_discard, late_claim forbidden (an automatic table).
)

# Three-player presets (issue 19), each value with the log that shows it:
#
# * honba_value 200 (100 from each of the two tsumo payers, 200 from a ron's discarder):
#   tenhou_xml/dnovikoff__tenhou/sanma2.xml E2-2 (tsumo of 12,000 with 2 honba moves
#   [-6200, +13400, -6200] with one stick), mjai/yuufyu__wahaha E1-2 (ron 12,000, 2 honba,
#   4 sticks: +16,400), tenhou6/hidacow__mjai-reviewer3p/kan3_nuki_rinshan.json E3-2 (Mahjong
#   Soul: ron 11,600, 2 honba: -12,000) and majsoul/smly__RiichiEnv/mjsoul_heavenly_hand.json
#   E2-1 (dealer tsumo 32,000, 1 honba: +32,200).
# * noten_total 2000 (1,000 per noten and tenpai pair): sanma2.xml E2-1 ([-1000, +2000,
#   -1000]), double_nukidora.json E1-1 ([+1000, +1000, -2000]) and the majiang and mjai games.
# * tsumo_loss on, both platforms: sanma2.xml E2-2 (dealer mangan tsumo: 4,000 from each,
#   12,000 + honba + stick = 13,400), the Mahjong Soul conversions chankan.json E1-0 (baiman
#   4000-8000 moves 12,000 + 2 sticks) and kokushi13_withnuki.json E2-1 (yakuman 8000-16000
#   moves 24,000 + 1 honba).  No corpus log shows a room without it (tsumo_loss false).
# * final points: Tenhou start 35,000, return 40,000 (oka 15,000 to first), uma +20/0/-20,
#   whole thousands: sanma2.xml's owari ([27400, 83100, -5500] -> [-13, 79, -66]) and
#   majiang/MitsuhiroTaniguchi__MahjongLM 2014091101gm ([59200, 22800, 23000] -> [54, -37,
#   -17]).  Mahjong Soul start and return 35,000, no oka, uma +15/0/-15, exact: chankan.json
#   ([20200, 25800, 59000] -> [-29.8, -9.2, 39]) and kokushi_ankan.json ([83000, -13000,
#   35000] -> [63, -63, 0]).
# * target 40,000, the return score (CHOICE for the West extension and all-last
#   agari-yame, which no corpus game pins down: its 3p games end once someone has 40,000,
#   as MahjongLM 2023010100gm after E3 with 51,000).
# * three hands per wind, E1-E3 then S1-S3 (the dealer passes among three seats): every 3p
#   game of the corpus (flow.dealer follows ``players``).
# * abortive draws: four winds and four riichi need four players; three ron cannot happen
#   with two opponents; nine terminals and four kans remain (double_nukidora.json S3-3 is a
#   九種九牌; no corpus 3p game shows four kans).

_SANMA_ABORTIVE: Final = frozenset({DrawReason.KYUUSHU_KYUUHAI, DrawReason.SUUKAIKAN})

TENHOU_SANMA: Final = TENHOU.replace(
    name="tenhou-sanma",
    players=3,
    abortive=_SANMA_ABORTIVE,
    honba_value=200,
    noten_total=2000,
    start_score=35000,
    return_score=40000,
    target_score=40000,
    uma=(20000, 0, -20000),
)

MAJSOUL_SANMA: Final = MAJSOUL.replace(
    name="majsoul-sanma",
    players=3,
    abortive=_SANMA_ABORTIVE,
    honba_value=200,
    noten_total=2000,
    start_score=35000,
    return_score=35000,
    target_score=40000,
    uma=(15000, 0, -15000),
)

PRESETS: Final[Mapping[str, RuleSet]] = {
    r.name: r for r in (EMA, TENHOU, MAJSOUL, WRC, MLEAGUE, TENHOU_SANMA, MAJSOUL_SANMA)
}

COUNTERPARTS: Final[Mapping[tuple[str, int], str]] = {
    ("tenhou", 3): "tenhou-sanma", ("tenhou-sanma", 4): "tenhou",
    ("majsoul", 3): "majsoul-sanma", ("majsoul-sanma", 4): "majsoul",
}
"""The preset a preset becomes at a table of another size."""

PLATFORM_PRESETS: Final = frozenset({"tenhou", "majsoul", "tenhou-sanma", "majsoul-sanma"})
"""The presets of online platforms, whose custom lobbies may have their own uma."""
