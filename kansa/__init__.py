"""kansa (監査, audit): replay Riichi Mahjong logs and check every action and payment."""

__version__ = "0.1.0"
