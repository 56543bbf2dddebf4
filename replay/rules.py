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
from typing import Any

from replay.events import DrawReason
from replay.game import RuleHints
from replay.yaku import Yaku


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
    OWN_DRAW_OR_CLAIM = "own_draw_or_claim"


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


_ALL_ABORTIVE = frozenset(r for r in DrawReason if r.is_abortive)


@dataclass(frozen=True, slots=True, kw_only=True)
class RuleSet:
    name: str
    players: int = 4
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
    start_score: int = 25000
    return_score: int = 30000
    uma: tuple[int, int, int, int] | None = (20000, 10000, -10000, -20000)
    """Points added by rank, first to last; ``None`` when unknown (a custom lobby whose log
    does not say), and then final points are not checked."""
    uma_ties_split: bool = False
    """Tied players share their uma (and oka); ``False``: the earlier seat ranks higher."""
    leftover_sticks_to_top: bool = True
    honba_value: int = 300
    noten_total: int = 3000
    double_wind_pair_fu: int = 4
    renhou: bool = False
    claim_seconds: float = 3.0
    """How long after a discard a call may still be made (EMA 3.3.1)."""
    rounding: str = "tenhou"
    """How final points are rounded.  ``tenhou``: every player but the first rounds the
    score to whole thousands, half away from zero (25,500 -> 26, -4,500 -> -5: what the
    corpus's owari values show), then takes off the return score and adds uma; the first
    takes minus the sum of the others.  Logs that give points in tenths (Tenhou's newer logs,
    custom lobbies) are compared in tenths instead (``tenhou_tenths``).  ``none``: exact, in
    thousands."""
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

    def with_hints(self, hints: RuleHints) -> RuleSet:
        """This rule set adjusted by what a log says about its own table."""
        changes: dict[str, Any] = {}
        if hints.aka is not None:
            changes["aka"] = hints.aka
        if hints.kuitan is not None:
            changes["kuitan"] = hints.kuitan
        if hints.hanchan is not None:
            changes["hanchan"] = hints.hanchan
        if hints.players != self.players:
            changes["players"] = hints.players
        if hints.uma is not None and len(hints.uma) == 4:
            changes["uma"] = tuple(hints.uma)
        elif hints.lobby not in (None, "", "0") and self.name in ("tenhou", "majsoul"):
            changes["uma"] = None  # a custom lobby with its own uma, not in the log
        if hints.start_score is not None:
            changes["start_score"] = hints.start_score
        return self.replace(**changes) if changes else self

    @staticmethod
    def from_mapping(data: Mapping[str, Any], *, name: str | None = None) -> RuleSet:
        """Build a rule set from a parsed TOML table.

        ``base`` names the preset to start from (default ``tenhou``); every other
        key is a field name with its value as text, number, bool or list.

        :raises ValueError: for an unknown key or a value of the wrong kind.
        """
        data = dict(data)
        base = RuleSet.preset(str(data.pop("base", "tenhou")))
        fields = {f.name: f for f in dataclasses.fields(RuleSet)}
        changes: dict[str, Any] = {"name": name or str(data.pop("name", "custom"))}
        for key, value in data.items():
            if key not in fields or key == "extra":
                raise ValueError(f"unknown rule-set field {key!r}")
            changes[key] = _coerce(key, getattr(base, key), value)
        return base.replace(**changes)

    def to_mapping(self) -> dict[str, Any]:
        """The rule set as plain values (for JSON output and ``kansa rules``)."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            if f.name == "extra":
                continue
            out[f.name] = _plain(getattr(self, f.name))
        return out


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value if not isinstance(value, Yaku) else value.name.lower()
    if isinstance(value, frozenset):
        return sorted(_plain(v) for v in value)
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _coerce(key: str, current: Any, value: Any) -> Any:
    try:
        if isinstance(current, bool):
            if not isinstance(value, bool):
                raise TypeError
            return value
        if isinstance(current, Enum):
            return type(current)(value)
        if isinstance(current, int | float) and not isinstance(current, bool):
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise TypeError
            return type(current)(value)
        if isinstance(current, str):
            return str(value)
        if isinstance(current, tuple) or (key == "uma" and current is None):
            return tuple(int(v) for v in value)
        if isinstance(current, frozenset):
            if key == "abortive":
                return frozenset(DrawReason(v) for v in value)
            return frozenset(Yaku[str(v).upper()] for v in value)
    except (TypeError, ValueError, KeyError):
        raise ValueError(f"bad value for {key!r}: {value!r}") from None
    raise ValueError(f"field {key!r} cannot be set")


TENHOU = RuleSet(name="tenhou")

MAJSOUL = TENHOU.replace(
    name="majsoul",
    multi_ron=MultiRon.ALL,
    abortive=_ALL_ABORTIVE - {DrawReason.SANCHAHOU},
    double_yakuman_patterns=True,
    pao_scope=PaoScope.YAKUMAN_PART,
    chankan_ankan_kokushi=True,
)

EMA = RuleSet(
    name="ema",
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
    tobi=False,
    west_extension=False,
    agari_yame=False,
    start_score=30000,
    return_score=30000,
    uma=(15000, 5000, -5000, -15000),
    uma_ties_split=True,
    leftover_sticks_to_top=True,
    double_wind_pair_fu=4,
    renhou=True,
    rounding="none",
)

WRC = EMA.replace(
    name="wrc",
    multi_ron=MultiRon.HEAD_BUMP,
    kiriage=True,
    stack_yakuman=True,
    leftover_sticks_to_top=False,
    double_wind_pair_fu=2,
)

MLEAGUE = TENHOU.replace(
    name="mleague",
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
)

PRESETS: Mapping[str, RuleSet] = {
    r.name: r for r in (EMA, TENHOU, MAJSOUL, WRC, MLEAGUE)
}
