"""``kansa explain``: the dispute packet of one hand, as a page, as evidence, as text."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from pathlib import Path

import pytest

from kansa.api import audit
from kansa.cli import main
from kansa.packet import PacketError, build_packet

ROOT = Path(__file__).resolve().parents[2]
DISPUTES = ROOT / "sample_logs" / "disputes"


def _log(name: str) -> str:
    return str(DISPUTES / f"{name}.mjson")


def _first_error(doc: dict) -> dict:
    return next(f for f in doc["findings"] if f["severity"] == "error")


def test_the_evidence_ties_to_the_log_and_steps_through_the_hand() -> None:
    path = _log("furiten-discard")
    doc = build_packet(path, "ema")
    assert doc["sha256"] == hashlib.sha256(Path(path).read_bytes()).hexdigest()
    assert doc["hand"] == "E1-0" and doc["rules"] == "ema"
    steps = doc["steps"]
    assert steps[0]["kind"] == "deal" and steps[-1]["kind"] == "end"
    assert [s["step"] for s in steps] == list(range(len(steps)))
    assert all(s["state"] is not None for s in steps)
    f = _first_error(doc)
    assert f["rule"] == "furiten.discard" and steps[f["step"]]["kind"] == "hora"
    assert f["number"] in steps[f["step"]]["findings"]
    # the deciding tiles: the winner's own discard among the waits, and the tile won on
    assert f["waits"] == ["2p", "5p", "8p"]
    own = [d for d in f["deciding"] if d["why"] == "own discard among the waits"]
    assert [(d["seat"], d["tile"]) for d in own] == [(1, "8p")]
    river = steps[f["step"]]["state"]["rivers"][1]
    assert river[own[0]["position"]].rstrip("*>") == "8p"
    # what was legal instead: not the ron; a pass was
    legal = f["legal"]
    assert legal["done_was_legal"] is False
    assert {"seat": 1, "kind": "pass", "tiles": []} in legal["actions"]
    assert not any(a["seat"] == 1 and a["kind"] == "hora" for a in legal["actions"])
    assert legal["text"].startswith("seat 1 could not win by ron on 5p from seat 0; it could "
                                    "pass")
    assert "20,000" in f["penalty"]["penalty"]
    assert [s["section"] for s in f["rule_texts"]] == ["3.4.5"]
    assert f["rule_texts"][0]["language"] == "es" and "furiten" in f["rule_texts"][0]["text"]


@pytest.mark.parametrize(("name", "rule", "why"), [
    ("furiten-riichi", "furiten.riichi", "the winning tile let pass"),
    ("furiten-temporary", "furiten.temporary", "the winning tile let pass"),
    ("late-claim", "claim.late", "the most recent discard"),
    ("riichi-three-tiles-left", "riichi.wall", "3 tiles left in the wall (riichi needs 4)"),
    ("fifth-kan", "kan.fifth", "kan number 5 of the hand"),
])
def test_each_dispute_has_its_deciding_tiles(name: str, rule: str, why: str) -> None:
    doc = build_packet(_log(name), "ema")
    f = _first_error(doc)
    assert f["rule"] == rule
    assert why in [d["why"] for d in f["deciding"]]
    assert f["legal"]["done_was_legal"] is False
    for d in f["deciding"]:
        if d["place"] == "river":
            entry = doc["steps"][f["step"]]["state"]["rivers"][d["seat"]][d["position"]]
            assert entry.rstrip("*>") == d["tile"]


def test_a_late_claim_shows_the_claimed_tile_against_the_latest_discard() -> None:
    f = _first_error(build_packet(_log("late-claim"), "ema"))
    by_why = {d["why"]: (d["seat"], d["tile"]) for d in f["deciding"]}
    assert by_why == {"the tile claimed": (0, "1z"), "the most recent discard": (1, "2z")}


def test_online_rule_sets_give_their_own_rule_and_no_penalty() -> None:
    f = _first_error(build_packet(_log("furiten-discard"), "tenhou"))
    assert f["online_rule"] and "Tenhou" in f["online_rule"]
    assert f["penalty"]["penalty"] is None


def test_choosing_the_hand_or_the_finding() -> None:
    path = _log("late-claim")
    assert build_packet(path, "ema", hand="E1")["hand"] == "E1-0"
    with pytest.raises(PacketError, match="no hand S3"):
        build_packet(path, "ema", hand="S3")
    with pytest.raises(PacketError, match="no finding 9"):
        build_packet(path, "ema", finding=9)


def test_the_page_and_evidence_from_the_command(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "p" / "packet.html"
    assert main(["explain", _log("late-claim"), "--rules", "ema", "-o", str(out),
                 "--json"]) == 0
    page = out.read_text(encoding="utf-8")
    doc = json.loads((tmp_path / "p" / "packet.html.json").read_text(encoding="utf-8"))
    assert doc["sha256"] in page
    csp = re.search(r'Content-Security-Policy" content="([^"]+)"', page)
    assert csp and "default-src 'none'" in csp.group(1) and "script-src 'sha256-" in csp.group(1)
    script = re.search(r"<script>(.*?)</script>", page, re.S)
    assert script is not None
    digest = hashlib.sha256(script.group(1).encode()).digest()
    assert f"'sha256-{base64.b64encode(digest).decode()}'" in csp.group(1)
    assert 'class="step mark" id="step-5" data-step="5" open' in page
    assert "http://" not in page and "https://" not in page
    assert "packet.html" in capsys.readouterr().err


def test_json_on_standard_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", _log("fifth-kan"), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["file"].endswith("fifth-kan.mjson") and len(doc["sha256"]) == 64


def test_text_view_stops_at_the_finding(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", _log("furiten-discard"), "--text", "--rules", "ema"]) == 0
    lines = capsys.readouterr().out.splitlines()
    steps = [ln for ln in lines if ln.startswith("step ")]
    assert steps[0].startswith("step 0: deal of E1-0") and steps[-1].startswith("step 11:")
    assert any(ln.startswith("FINDING furiten.discard") for ln in lines)
    assert any("| 8p" in ln and ln.startswith("  1 S") for ln in lines)  # seat 1's river


def test_bad_input_is_named_without_a_traceback(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.mjson"
    bad.write_text("{not json\n", encoding="utf-8")
    assert main(["explain", str(bad)]) == 3
    err = capsys.readouterr().err
    assert "bad.mjson" in err and "Traceback" not in err
    assert main(["explain", str(tmp_path / "missing.mjson")]) == 2


def test_report_links_each_finding_to_its_packet(tmp_path: Path) -> None:
    report = tmp_path / "out" / "report.html"
    assert main(["report", str(DISPUTES), "--rules", "ema", "-o", str(report),
                 "--packets", str(tmp_path / "out" / "packets")]) in (0, 1)
    page = report.read_text(encoding="utf-8")
    hrefs = re.findall(r'<a class="packet" href="([^"]+)">', page)
    findings = re.findall(r'<article class="finding', page)
    in_hands = [v for log in sorted(DISPUTES.glob("*.mjson"))
                for v in audit(log, "ema").violations if v.hand is not None]
    assert len(hrefs) == len(findings) == len(in_hands)
    for href in hrefs:
        target, _, anchor = href.partition("#")
        assert not target.startswith("/") and anchor.startswith("finding-")
        packet = (report.parent / target).read_text(encoding="utf-8")
        assert f'id="{anchor}"' in packet
    assert len({h.partition("#")[0] for h in hrefs}) == len(
        list(DISPUTES.glob("*.mjson")))  # each dispute is one hand: one packet each


def test_packets_need_the_logs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = tmp_path / "store"
    (store / "files").mkdir(parents=True)
    assert main(["report", "--store", str(store), "--packets", str(tmp_path / "p"),
                 "-o", str(tmp_path / "r.html")]) == 2
    assert "--packets needs log paths" in capsys.readouterr().err


def test_the_page_escapes_what_comes_from_the_log() -> None:
    from kansa.reports.packet import render_packet  # noqa: PLC0415

    doc = build_packet(_log("late-claim"), "ema")
    evil = "<img src=x onerror=alert(1)>"
    doc["players"][0] = evil
    doc["steps"][1]["text"] = evil
    doc["findings"][0]["message"] = evil
    page = render_packet(doc)
    assert evil not in page and "&lt;img src=x onerror=alert(1)&gt;" in page
