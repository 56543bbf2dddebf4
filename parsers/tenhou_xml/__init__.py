"""Tenhou mjlog XML (FORMATS.md A): the reader, meld codes, GO rule bits, cut-off logs."""
