"""Decoded Mahjong Soul round records."""
