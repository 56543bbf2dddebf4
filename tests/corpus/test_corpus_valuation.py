"""kansa's own valuation of regular wins changes nothing on the real games: the whole
audit document is the same when every win is valued by the ``mahjong`` library."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kansa.discovery import discover
from kansa.parsers import FORMATS
from kansa.replay import scoring
from kansa.runner import AuditOptions, build_document, iter_outcomes

pytestmark = pytest.mark.corpus


def _document(corpus: Path, rules: str) -> dict[str, Any]:
    files, missing = discover([str(corpus / f) for f in FORMATS])
    assert not missing and files
    return build_document(iter_outcomes(files, AuditOptions(rules=rules)), 0.0)


@pytest.mark.parametrize("rules", ["auto", "ema"])
def test_the_audit_is_the_same_with_the_library_valuing_every_win(corpus_dir: Path,
                                                                  rules: str) -> None:
    own = _document(corpus_dir, rules)
    try:
        scoring.set_own_valuation(False)
        library = _document(corpus_dir, rules)
    finally:
        scoring.set_own_valuation(True)
    assert own["games"] and own == library
