"""Check memories: owned by the check that declares them, one set per replay."""

from __future__ import annotations

import dataclasses

from kansa.replay.memory import Memory, Memos
from kansa.replay.state import GameState, PlayerState, RoundState

PER_HAND: Memory[list[int]] = Memory("test.per-hand", list)
PER_GAME: Memory[list[int]] = Memory("test.per-game", list, per_hand=False)


def test_per_hand_memory_starts_over_at_each_hand_and_game_memory_stays() -> None:
    memos = Memos()
    assert memos.peek(PER_HAND) is None  # peeking makes nothing
    memos.get(PER_HAND).append(1)
    memos.get(PER_GAME).append(1)
    memos.new_hand()
    assert memos.peek(PER_HAND) is None and memos.get(PER_HAND) == []
    assert memos.get(PER_GAME) == [1]


def test_two_replays_do_not_share_a_memory() -> None:
    a, b = Memos(), Memos()
    a.get(PER_GAME).append(1)
    assert b.get(PER_GAME) == []


def test_the_state_keeps_no_check_memo() -> None:
    for cls in (GameState, RoundState, PlayerState):
        assert "memo" not in {f.name for f in dataclasses.fields(cls)}


def test_the_hand_store_is_what_peek_reads() -> None:
    memos = Memos()
    assert memos.hand.get(PER_HAND) is None
    memos.get(PER_HAND).append(2)
    memos.get(PER_GAME).append(3)
    assert memos.hand.get(PER_HAND) is memos.peek(PER_HAND) == [2]
    assert memos.game.get(PER_GAME) is memos.peek(PER_GAME) == [3]
    memos.new_hand()
    assert memos.hand.get(PER_HAND) is None
