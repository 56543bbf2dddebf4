"""Real Tenhou logs against the walls their shuffle seeds give.

First from the raw tags (tile ids, not kansa's reader): every deal, draw, replacement
draw, dice, dora, kan-dora and ura indicator of every seeded game.  Then through the
audit: every seeded hand verified, and real games edited (keeping them otherwise legal)
found out at the edited hand.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from kansa.parsers import parse_bytes
from kansa.replay.engine import replay
from kansa.replay.result import ReplayResult
from kansa.replay.wall import (
    LEGACY_SEEN,
    MT19937,
    TILES,
    Wall,
    game_walls,
    hand_random,
    seed_key,
    shuffle,
)
from kansa.runner import rules_for
from tests.corpus_counts import four_player_xml, is_documented, read_text

pytestmark = pytest.mark.corpus

_SEED = re.compile(r'<SHUFFLE seed="([^"]*)"')
_TAG = re.compile(r"<(/?[A-Za-z]+)([^>]*?)/?>")
_ATTR = re.compile(r'(\w+)="([^"]*)"')
_DRAW = re.compile(r"[TUVW](\d+)")


@cache
def _texts(corpus: str) -> dict[str, str]:
    return four_player_xml(Path(corpus) / "tenhou_xml")


def _seeded(corpus_dir: Path) -> dict[str, str]:
    return {p: t for p, t in _texts(str(corpus_dir)).items() if _SEED.search(t)
            and game_walls(_SEED.search(t).group(1)) is not None}  # type: ignore[union-attr]


@dataclass
class _HandTags:
    """One hand's tiles as the raw tags give them (Tenhou ids)."""

    seed: list[int]
    oya: int
    hai: list[list[int]]
    live: list[int] = field(default_factory=list)
    replacements: list[int] = field(default_factory=list)
    kan_doras: list[int] = field(default_factory=list)
    doras: list[list[int]] = field(default_factory=list)
    uras: list[list[int]] = field(default_factory=list)


def _hands(text: str) -> Iterator[_HandTags]:
    hand: _HandTags | None = None
    kan_by: int | None = None  # a seat whose next draw is from the dead wall
    for tag, rest in _TAG.findall(text):
        attrs = dict(_ATTR.findall(rest))
        if tag == "INIT":
            if hand is not None:
                yield hand
            hand = _HandTags([int(x) for x in attrs["seed"].split(",")], int(attrs["oya"]),
                             [[int(x) for x in attrs[f"hai{s}"].split(",") if x] for s in range(4)])
            kan_by = None
        elif hand is None:
            continue
        elif m := _DRAW.fullmatch(tag + rest.strip()):
            seat = "TUVW".index(tag[0])
            (hand.replacements if kan_by == seat else hand.live).append(int(m.group(1)))
            kan_by = None
        elif tag == "N":
            kan_by = int(attrs["who"])  # only a kan is followed by the caller's own draw
        elif tag == "DORA":
            hand.kan_doras.append(int(attrs["hai"]))
        elif tag == "AGARI":
            hand.doras.append([int(x) for x in attrs["doraHai"].split(",")])
            if "doraHaiUra" in attrs:
                hand.uras.append([int(x) for x in attrs["doraHaiUra"].split(",")])
        elif tag[0] in "DEFG" and tag[1:].isdigit():
            kan_by = None
    if hand is not None:
        yield hand


def _compare(hand: _HandTags, wall: Wall) -> list[str]:
    """What differs between the tags and the wall, in words (empty: all equal)."""
    wrong = []
    if (hand.seed[3], hand.seed[4]) != wall.dice:
        wrong.append(f"dice {hand.seed[3:5]} != {wall.dice}")
    if hand.seed[5] != wall.dora(0):
        wrong.append("first dora")
    for s in range(4):
        if sorted(hand.hai[s]) != sorted(wall.deal((s - hand.oya) % 4)):
            wrong.append(f"deal of seat {s}")
    if hand.live != [wall.live(i) for i in range(len(hand.live))]:
        wrong.append("live draws")
    known = LEGACY_SEEN if wall.legacy else 4
    if hand.replacements[:known] != [wall.replacement(k) for k in
                                     range(len(hand.replacements[:known]))]:
        wrong.append("replacement draws")
    if hand.kan_doras[:known] != [wall.dora(k + 1) for k in range(len(hand.kan_doras[:known]))]:
        wrong.append("kan doras")
    for doras in hand.doras:
        if doras[:known + 1] != [wall.dora(k) for k in range(len(doras[:known + 1]))]:
            wrong.append("dora at the win")
    for uras in hand.uras:
        if uras[:known + 1] != [wall.ura(k) for k in range(len(uras[:known + 1]))]:
            wrong.append("ura at the win")
    return wrong


def test_every_seeded_tile_from_the_raw_tags(corpus_dir: Path) -> None:
    seeded = _seeded(corpus_dir)
    assert sum(1 for p in seeded if is_documented(p)) >= 183
    tiles = hands = kans = 0
    for path, text in seeded.items():
        walls = game_walls(_SEED.search(text).group(1))  # type: ignore[union-attr]
        assert walls is not None
        for number, (hand, wall) in enumerate(zip(_hands(text), walls, strict=False)):
            assert _compare(hand, wall) == [], f"{path} hand {number + 1}"
            hands += 1
            tiles += 52 + len(hand.live) + len(hand.replacements)
            kans += len(hand.replacements)
    assert hands > 1800 and tiles > 180_000 and kans > 50


def test_the_unseeded_forms_are_not_guessed(corpus_dir: Path) -> None:
    """Logs before the SHUFFLE tag carry a per-INIT ``shuffle`` kansa cannot reproduce."""
    old = [t for t in _texts(str(corpus_dir)).values() if not _SEED.search(t)]
    assert old, "the corpus has logs without a seed"
    for text in old:
        assert game_walls(None) is None
        if 'shuffle="' in text:
            form = re.search(r'shuffle="([^"]*)"', text).group(1)  # type: ignore[union-attr]
            assert seed_key(form) is None


def test_three_player_walls_shuffle_108_tiles(corpus_dir: Path) -> None:
    """Tenhou's sanma wall: the 108 ids in order, shuffled with ``% (108 - i)``; dice
    from the same words as four-player; the first dora indicator is ``yama[9]``."""
    path = corpus_dir / "tenhou_xml" / "dnovikoff__tenhou" / "sanma2.xml"
    if not path.is_file():
        pytest.skip("sanma2.xml not in the corpus")
    text = read_text(path)
    key = seed_key(_SEED.search(text).group(1))  # type: ignore[union-attr]
    assert key is not None
    mt = MT19937(key)
    ids = [i for i in range(TILES) if not 4 <= i < 32]
    checked = 0
    for tags in _hands(text):
        rnd = hand_random(b"".join(mt.genrand_int32().to_bytes(4, "little")
                                   for _ in range(288)))
        yama = shuffle(rnd, ids)
        w = yama[::-1]
        assert (tags.seed[3], tags.seed[4]) == (rnd[135] % 6, rnd[136] % 6)
        assert tags.seed[5] == yama[9]
        for s in range(3):
            k = (s - tags.oya) % 3
            dealt = [w[12 * r + 4 * k + i] for r in range(3) for i in range(4)] + [w[36 + k]]
            assert sorted(tags.hai[s]) == sorted(dealt)
        assert tags.live == w[39:39 + len(tags.live)]
        checked += 1
        # the 136-tile shuffle with the removed ids skipped does not deal these hands
        skipped = [t for t in shuffle(rnd) if t in set(ids)][::-1]
        assert sorted(tags.hai[tags.oya]) != sorted(skipped[:4] + skipped[12:16]
                                                    + skipped[24:28] + skipped[36:37])
    assert checked >= 5


# -- through the audit -----------------------------------------------------------------------


def _audit(text: str, name: str = "edited.xml") -> ReplayResult:
    (game,) = parse_bytes(text.encode(), name)
    return replay(game, rules_for(game, "auto"))


def _findings(result: ReplayResult) -> list[tuple[str, str | None, int | None]]:
    return sorted((v.rule, v.hand, v.event) for v in result.violations
                  if not v.rule.startswith("wall."))


def test_every_seeded_hand_verifies(corpus_dir: Path) -> None:
    games = hands = 0
    for path, text in _texts(str(corpus_dir)).items():
        result = _audit(text, path)
        walls = [v for v in result.violations if v.rule.startswith("wall.")]
        assert walls == [], path
        statuses = {h.wall for h in result.hands if h.complete}
        if _SEED.search(text) and "mt19937ar-sha512" in text:
            assert statuses <= {"verified"}, path
            cut = [h.wall for h in result.hands if not h.complete]
            assert cut in ([], ["partial"]), path  # a fixture cut off in its last hand
            games += 1
            hands += sum(1 for h in result.hands if h.complete)
        else:
            assert {h.wall for h in result.hands} == {"no_seed"}, path
    assert games >= 183 and hands > 1800  # (some fixtures stop in their only hand)


@cache
def _base(corpus: str) -> list[tuple[str, str, ReplayResult]]:
    """Seeded base64-form games that audit clean apart from wall findings (none)."""
    out = []
    for path, text in sorted(_texts(corpus).items()):
        if "mt19937ar-sha512-n288-base64" in text:
            out.append((path, text, _audit(text, path)))
        if len(out) >= 12:
            break
    return out


Edit = Callable[[str], Iterator[tuple[str, str]]]
"""Candidate edits of a log's text: (edited text, the hand label it touches)."""


def _edited(corpus_dir: Path, edit: Edit, rule: str) -> tuple[ReplayResult, str, str]:
    """The first candidate edit of a real game that leaves every other finding as it was
    (a game still legal) and is found as ``rule``: the result, the hand and the path."""
    for path, text, base in _base(str(corpus_dir)):
        for edited, label in edit(text):
            result = _audit(edited, path)
            if _findings(result) != _findings(base):
                continue  # the edit broke the play itself: not the test's point
            return result, label, path
    pytest.fail(f"no legal edit found for {rule}")


def _labels(text: str) -> list[tuple[int, int, str]]:
    """(start, end, label) of each hand's text, by its INIT (labels as ``E2-0``)."""
    starts = [m.start() for m in re.finditer("<INIT ", text)]
    ends = [*starts[1:], len(text)]
    out = []
    for a, b in zip(starts, ends, strict=True):
        seed = re.search(r'seed="(\d+),(\d+)', text[a:b])
        assert seed is not None
        rnd, honba = int(seed.group(1)), int(seed.group(2))
        out.append((a, b, f"{'ESWN'[rnd // 4]}{rnd % 4 + 1}-{honba}"))
    return out


def _swapped_draws(text: str) -> Iterator[tuple[str, str]]:
    """Two players' draws discarded straight away (tsumogiri) trade tiles."""
    for a, b, label in _labels(text):
        hand = text[a:b]
        pairs = list(re.finditer(r"<([TUVW])(\d+)/><([DEFG])(\d+)/>", hand))
        pairs = [m for m in pairs if m.group(2) == m.group(4)]
        for x in pairs[2:6]:
            for y in pairs[3:8]:
                if y.start() <= x.start() or x.group(1) == y.group(1) \
                        or int(x.group(2)) // 4 == int(y.group(2)) // 4:
                    continue
                tx, ty = x.group(2), y.group(2)
                new = (hand[:x.start()] + f"<{x.group(1)}{ty}/><{x.group(3)}{ty}/>"
                       + hand[x.end():y.start()] + f"<{y.group(1)}{tx}/><{y.group(3)}{tx}/>"
                       + hand[y.end():])
                yield text[:a] + new + text[b:], label


def test_swapped_draws_are_found(corpus_dir: Path) -> None:
    result, label, path = _edited(corpus_dir, _swapped_draws, "wall.draw")
    found = [v for v in result.violations if v.rule.startswith("wall.")]
    assert [(v.rule, v.hand) for v in found] == [("wall.draw", label)], path
    assert "but the wall's next tile" in found[0].message
    assert "1 other tile of this hand differs from the wall too" in found[0].message
    assert [h.wall for h in result.hands].count("mismatched") == 1


def _unseen(hand: str) -> list[int]:
    """Tile ids that the hand's deal, draws, discards and indicator never show."""
    used = {int(x) for x in re.findall(r"<[TUVWDEFG](\d+)/>", hand)}
    for attr in re.findall(r'(?:hai\d|doraHai|doraHaiUra|hai)="([^"]*)"', hand):
        used.update(int(x) for x in attr.split(",") if x)
    seed = re.search(r'seed="[^"]*,(\d+)"', hand)
    assert seed is not None
    used.add(int(seed.group(1)))
    return [i for i in range(TILES) if i not in used]


def _dealt_tile(text: str) -> Iterator[tuple[str, str]]:
    """A dealt tile that its player discards, with its discard, becomes a tile of another
    kind that the hand never shows."""
    for a, b, label in _labels(text):
        hand = text[a:b]
        init = re.match(r"<INIT [^>]*>", hand)
        assert init is not None
        seats = re.findall(r'hai(\d)="([^"]*)"', init.group(0))
        for seat, hai in seats:
            ids = hai.split(",")
            discard = "DEFG"[int(seat)]
            for tile in ids:
                m = re.search(f"<{discard}{tile}/>", hand)
                if m is None:
                    continue
                for other in _unseen(hand)[:6]:
                    if other // 4 == int(tile) // 4:
                        continue
                    new_hai = ",".join(str(other) if t == tile else t for t in ids)
                    new_init = init.group(0).replace(f'hai{seat}="{hai}"',
                                                     f'hai{seat}="{new_hai}"')
                    new = (new_init + hand[init.end():m.start()] + f"<{discard}{other}/>"
                           + hand[m.end():])
                    yield text[:a] + new + text[b:], label


def test_an_edited_deal_is_found(corpus_dir: Path) -> None:
    result, label, path = _edited(corpus_dir, _dealt_tile, "wall.deal")
    found = [(v.rule, v.hand) for v in result.violations if v.rule.startswith("wall.")]
    assert found == [("wall.deal", label)], path


def _indicator(text: str) -> Iterator[tuple[str, str]]:
    """The first dora indicator of a hand without a win becomes an unseen tile."""
    for a, b, label in _labels(text):
        hand = text[a:b]
        if "<AGARI" in hand or "<DORA" in hand:
            continue
        seed = re.search(r'seed="(\d+,\d+,\d+,\d+,\d+),(\d+)"', hand)
        assert seed is not None
        for other in _unseen(hand)[:4]:
            if other // 4 == int(seed.group(2)) // 4:
                continue
            new = hand.replace(seed.group(0), f'seed="{seed.group(1)},{other}"', 1)
            yield text[:a] + new + text[b:], label


def test_an_edited_indicator_is_found(corpus_dir: Path) -> None:
    result, label, path = _edited(corpus_dir, _indicator, "wall.indicator")
    found = [(v.rule, v.hand) for v in result.violations if v.rule.startswith("wall.")]
    assert found == [("wall.indicator", label)], path
    assert any("the dora indicator is" in v.message for v in result.violations)


def _dice(text: str) -> Iterator[tuple[str, str]]:
    for a, b, label in _labels(text)[1:]:
        hand = text[a:b]
        seed = re.search(r'seed="(\d+,\d+,\d+),(\d),(\d)', hand)
        assert seed is not None
        first = (int(seed.group(2)) + 1) % 6
        new = hand.replace(seed.group(0), f'seed="{seed.group(1)},{first},{seed.group(3)}', 1)
        yield text[:a] + new + text[b:], label


def test_edited_dice_are_found(corpus_dir: Path) -> None:
    result, label, path = _edited(corpus_dir, _dice, "wall.dice")
    found = [v for v in result.violations if v.rule.startswith("wall.")]
    assert [(v.rule, v.hand) for v in found] == [("wall.dice", label)], path
    assert "but the seed throws" in found[0].message


def test_a_log_without_its_seed_is_not_verifiable(corpus_dir: Path) -> None:
    path, text, base = _base(str(corpus_dir))[0]
    edited = re.sub(r"<SHUFFLE [^>]*/>", "", text)
    result = _audit(edited, path)
    assert _findings(result) == _findings(base)
    assert not [v for v in result.violations if v.rule.startswith("wall.")]
    assert {h.wall for h in result.hands} == {"no_seed"}
    assert result.wall_counts()["no_seed"] == len(result.hands)


# -- Mahjong Soul's listed wall ----------------------------------------------------------------

_MAJSOUL = "majsoul/smly__RiichiEnv/mjsoul_heavenly_hand.json"


def _majsoul(corpus_dir: Path, edit: Callable[[dict[str, Any]], None] | None = None,
             ) -> ReplayResult:
    path = corpus_dir / _MAJSOUL
    if not path.is_file():
        pytest.skip(f"{_MAJSOUL} not in the corpus")
    doc = json.loads(path.read_text(encoding="utf-8"))
    if edit is not None:
        edit(doc)
    (game,) = parse_bytes(json.dumps(doc).encode(), str(path))
    return replay(game, rules_for(game, "auto"))


def test_majsoul_paishan_deals_and_draws(corpus_dir: Path) -> None:
    """The record's paishan is its wall in draw order: the deal in blocks of four from
    the dealer, then the dealer's first draw (a heavenly hand: the only draw)."""
    result = _majsoul(corpus_dir)
    assert [v for v in result.violations if v.rule.startswith("wall.")] == []
    assert [h.wall for h in result.hands] == ["verified"]


def test_majsoul_paishan_edited(corpus_dir: Path) -> None:
    def swap(doc: dict[str, Any]) -> None:  # two tiles of the dealer's first block
        data = doc["events"][0]["data"]
        p = data["paishan"]
        data["paishan"] = p[:2] + p[10:12] + p[4:10] + p[2:4] + p[12:]  # 2nd and 6th tiles

    result = _majsoul(corpus_dir, swap)
    found = [v for v in result.violations if v.rule.startswith("wall.")]
    assert [v.rule for v in found] == ["wall.deal"]
    assert "the wall the log lists" in found[0].message
    assert [h.wall for h in result.hands] == ["mismatched"]
