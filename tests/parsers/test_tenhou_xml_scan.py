"""The split reading of mjlogs (kansa.parsers.tenhou_xml.scan) agrees with lxml's.

``read_scanned`` may decline a document (``None``); when it does not, its game must
equal ``read_tree``'s: the same events, positions, diagnostics, players and rules.
Checked on every corpus mjlog (each of which it must read), on mutated ones, on
documents generated with the characters XML treats specially, and on one case per
corner of the accepted form.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fuzz.harness import corpus_files
from fuzz.mutate import mutate
from kansa.parsers.errors import LogFormatError
from kansa.parsers.source import read_log_bytes
from kansa.parsers.tenhou_xml import tables
from kansa.parsers.tenhou_xml.read import parse_game, read_scanned, read_tree
from kansa.parsers.tenhou_xml.scan import (
    _cached_shape,
    scanned_tag,
    scanned_tag_by_character,
    split_tags,
)
from kansa.replay.game import Game
from tests.parsers.test_tenhou_xml import AGARI, OWARI, SAMPLE, init, log

MUTATED = 600


def reading(game: Game) -> tuple[Any, ...]:
    return (game, [repr(game.src_of(i)) for i in range(len(game.events))])


def tree_reading(data: bytes) -> Any:
    try:
        return reading(read_tree(data, "case.mjlog"))
    except LogFormatError as exc:
        return ("error", str(exc))


def agrees(data: bytes) -> bool:
    """Whether the split reading declined ``data`` (False) or read it as lxml does
    (True); fails the test when it read it otherwise.  Both ways of reading the text
    (split, and draws and discards by character) are held to it, in either build."""
    game = read_scanned(data, "case.mjlog", by_character=False)
    by_character = read_scanned(data, "case.mjlog", by_character=True)
    if game is None:
        assert by_character is None
        return False
    assert by_character is not None and reading(by_character) == reading(game)
    assert reading(game) == tree_reading(data)
    return True


# -- corners of the accepted form ------------------------------------------------

GAME = log(init() + "<T60/><D60/><U61/><E62/>" + AGARI.replace("/>", OWARI + "/>")).decode()


def test_the_hand_written_game_is_read_both_ways() -> None:
    assert agrees(GAME.encode())
    assert agrees(SAMPLE)


@pytest.mark.parametrize(("old", "new"), [
    ('<mjloggm ver="2.3">', '<?xml version="1.0" encoding="UTF-8"?><mjloggm ver="2.3">'),
    ('<mjloggm ver="2.3">', '<?xml version="1.0" encoding="utf-8"?>\n<mjloggm ver="2.3">'),
    ('<mjloggm ver="2.3">', '<?xml version="1.0"?>\n\n<mjloggm ver="2.3">'),
    ('<mjloggm ver="2.3">', '\n \t<mjloggm ver="2.3">'),
    ("</mjloggm>", "</mjloggm>\n\n"),
    ("</mjloggm>", "</mjloggm>\r\n \t"),
    ('oya="0"/>', 'oya="0" />'),
    ('ref=""', 'ref="a>b"'),
    ('ref=""', 'ref="a]]>b"'),
    ('<TAIKYOKU oya="0"/>', "<TAIKYOKU/>"),
    ('<TAIKYOKU oya="0"/>', "<TAIKYOKU />"),
    ("<T60/>", "<T0/>"),  # the smallest and largest tile ids
    ("<T60/>", "<T135/>"),
    ("<E62/>", "<E62/><W0/>"),  # a draw last
    ("<T60/>", "<GO/>"),  # a discard's letter and a character past the digits
])
def test_forms_read_without_lxml(old: str, new: str) -> None:
    assert old in GAME
    case = GAME.replace(old, new, 1).encode()
    assert agrees(case)
    assert read_scanned(case, "case.mjlog") is not None


@pytest.mark.parametrize(("old", "new"), [
    ('ref=""', 'ref="a&amp;b"'),  # entity: lxml expands it
    ('ref=""', 'ref="&#65;"'),  # character reference
    ('ref=""', 'ref="a\tb"'),  # attribute-value normalisation: lxml reads a space
    ('ref=""', 'ref="a\nb"'),  # the same, and a line more
    ('ref=""', "ref=''"),  # single quotes
    ('ref=""', 'ref="x" ref="y"'),  # a name twice: lxml refuses
    ('ref=""', 'ref = ""'),  # spaces around "="
    ('ref=""', 'ref="a<b"'),  # "<" in a value: lxml refuses
    ('ref=""', 'ref="\u00e9"'),  # not ASCII
    ('ref=""', 'ref="\x7f"'),  # not printable
    ('ref=""', 'ref="\x01"'),  # not a legal XML character
    ('ref=""', 'REF=""'),  # names as written (here still ASCII letters: accepted below)
    ('<GO type', '<GO xmlns="urn:x" type'),  # lxml reads the tag as {urn:x}GO
    ('<GO type', '<GO xmlns="" type'),  # (the empty namespace would read as GO)
    ('<GO type', '<GO  type'),  # two spaces between name and attribute
    ('<GO type', '<go type'),  # lowercase tag name
    ('<GO type', '<G-O type'),  # a tag name out of the accepted letters
    ('oya="0"/>', 'oya="0"  />'),  # two spaces before "/>"
    ('oya="0"/>', 'oya="0"></TAIKYOKU>'),  # an element with an end tag
    ("<TAIKYOKU", "<!-- c --><TAIKYOKU"),  # a comment
    ("<TAIKYOKU", "<?pi x?><TAIKYOKU"),  # a processing instruction
    ("<TAIKYOKU", "<![CDATA[x]]><TAIKYOKU"),  # CDATA
    ("<TAIKYOKU", " <TAIKYOKU"),  # text between children
    ("<TAIKYOKU", "\n<TAIKYOKU"),  # children on two lines
    ('<mjloggm ver="2.3">', '<mjloggm ver="2.4">'),  # lxml's reading notes the version
    ('<mjloggm ver="2.3">', '<mjloggm>'),
    ('<mjloggm ver="2.3">', '<mjloggm ver="2.3" x="1">'),
    ('<mjloggm ver="2.3">', ' <?xml version="1.0"?><mjloggm ver="2.3">'),  # late declaration
    ('<mjloggm ver="2.3">', '<?xml version="1.0" standalone="yes"?><mjloggm ver="2.3">'),
    ('<mjloggm ver="2.3">', '\ufeff<mjloggm ver="2.3">'),  # byte-order mark
    ("</mjloggm>", "</mjloggm>x"),  # text after the root
    ("</mjloggm>", "</mjloggm><x/>"),  # a second root
    ("</mjloggm>", "</mjloggm>\x0c"),  # not XML white space
    ("<T60/>", "<T60 x=\"1\"/>"),  # a draw with an attribute
    ("<T60/>", "<T060/>"),  # a draw whose id lxml's reading refuses by name
    ("<T60/>", "<X/>"),  # an unknown tag
    ("<T60/>", "<T00/>"),  # tile ids not as Tenhou writes them
    ("<T60/>", "<T136/>"),
    ("<T60/>", "<T1360/>"),
    ("<T60/>", "<T-1/>"),
    ("<T60/>", "<T6x/>"),
    ("<T60/>", "<T60 />"),  # (a space before "/>" is taken on other tags only)
    ("<T60/>", "<T/>"),
    ("<T60/>", "<H60/>"),
    ("<INIT", "<T1/><INIT"),  # a draw before the first INIT
    ('<GO type="169"', '<GO type="169" type="169"'),
])
def test_other_forms_are_left_to_lxml(old: str, new: str) -> None:
    assert old in GAME
    case = GAME.replace(old, new, 1).encode("utf-8")
    if old == 'ref=""' and new == 'REF=""':
        assert agrees(case)  # an unknown attribute is ignored by both readings
        return
    assert not agrees(case)
    # whatever lxml makes of it, parse_game says the same
    try:
        assert reading(parse_game(case, "case.mjlog")) == tree_reading(case)
    except LogFormatError as exc:
        assert ("error", str(exc)) == tree_reading(case)


def test_what_lxml_refuses_for_size_is_left_to_it() -> None:
    assert tree_reading(GAME.replace('ref=""', "r" + "a" * 50_001 + '=""').encode())[0] == "error"
    for case in (GAME.replace('ref=""', "r" + "a" * 64 + '=""'),  # a name of 65 characters
                 GAME.replace('ref=""', 'ref="' + "a" * 8_000_000 + '"')):
        assert not agrees(case.encode())
    assert agrees(GAME.replace('ref=""', "r" + "a" * 63 + '=""').encode())


def test_white_space_around_the_root_does_not_let_a_control_character_through() -> None:
    case = "\n" + GAME.replace('ref=""', 'ref="a\x01b"') + "\n"
    assert not agrees(case.encode())
    assert agrees(("\n" + GAME + "\n").encode())


def test_empty_root_and_empty_input_are_left_to_lxml() -> None:
    for case in (b'<mjloggm ver="2.3"></mjloggm>', b"", b"<mjloggm ver=\"2.3\"><"):
        assert split_tags(case) is None


@pytest.mark.parametrize("text", [
    'A a"v1"= b="v2"',  # a piece outside the quotes that is not ` name=`
    'A a= b="1"',  # an unquoted value
    'A a="1"b="2"',  # no space between attributes
    'A a="1" a="2"',
    'A a="1">',
    "A a=",
    'a x="1"',
    'A a="1',
])
def test_scanned_tag_refuses_what_is_not_name_equals_quoted_value(text: str) -> None:
    assert scanned_tag(text, 1) is None
    assert scanned_tag_by_character(text, 1) is None


def test_long_shapes_are_read_but_not_kept() -> None:
    text = "GO " + " ".join(f'a{i}="{i}"' for i in range(200))
    kept = _cached_shape.cache_info().currsize
    tag = scanned_tag(text, 1)
    assert tag is not None and tag.get("a199") == "199" and len(tag) == 200
    assert _cached_shape.cache_info().currsize == kept


@pytest.mark.parametrize("scan", [scanned_tag, scanned_tag_by_character])
def test_scanned_tag_reads_names_values_and_line(scan: Any) -> None:
    tag = scan('INIT seed="0,0,0,3,5,55" ten="250" ', 3)
    assert tag is not None
    assert (tag.tag, tag.get("seed"), tag.get("ten"), tag.get("oya", "-"), tag.sourceline) == (
        "INIT", "0,0,0,3,5,55", "250", "-", 3)


def _tag_outcome(scan: Any, text: str) -> Any:
    tag = scan(text, 7)
    return None if tag is None else (tag.tag, list(tag.items()), tag.sourceline, tag.raw)


_NAMES = st.sampled_from(["a", "A", "ab1", "xmlns", "x" * 64, "y" * 65, "1a", "a-b", ""])
_VALUES = st.text(alphabet='0,1 ="<>a', max_size=6)


@settings(max_examples=3000, deadline=None)
@given(st.one_of(
    st.tuples(st.sampled_from(["INIT", "N", "A" * 64, "B" * 65, "Ab", "", "a"]),
              st.lists(st.tuples(_NAMES, _VALUES), max_size=4),
              st.sampled_from(["", " ", "  "])).map(
        lambda t: t[0] + "".join(f' {k}="{v}"' for k, v in t[1]) + t[2]),
    st.text(alphabet='AZaz09 ="<x', max_size=24)))
def test_tags_read_by_character_as_split(text: str) -> None:
    """The compiled build's reading of a tag gives the split reading's name,
    attributes (in order), line and text, or its refusal."""
    assert _tag_outcome(scanned_tag_by_character, text) == _tag_outcome(scanned_tag, text)


# -- generated and mutated documents -------------------------------------------

VALUE_CHARS = st.sampled_from(list('0123456789,aZ &<>"\'\t\n;#%/=]'))
ATTR_NAMES = st.sampled_from(["who", "m", "hai", "step", "ten", "xmlns"])
GLUE = st.sampled_from(["", "", "", " ", "\n", "<!--c-->"])


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(["N", "DORA", "BYE", "REACH", "T12", "D12", "U5"]),
                          st.dictionaries(ATTR_NAMES,
                                          st.text(VALUE_CHARS, max_size=6), max_size=3),
                          GLUE), max_size=8))
def test_generated_documents(tags: list[tuple[str, dict[str, str], str]]) -> None:
    body = "".join(glue + f"<{tag}" + "".join(f' {k}="{v}"' for k, v in attrs.items()) + "/>"
                   for tag, attrs, glue in tags)
    agrees(GAME.replace("<AGARI", body + "<AGARI").encode())


TAG_ENDS = [i for i in range(len(GAME)) if GAME.startswith("/>", i)]


@settings(max_examples=300, deadline=None)
@given(st.integers(0, len(TAG_ENDS) - 1),
       st.sampled_from(["xmlns", "x", "REF", "x-y", "a:b", "xml", "ver", "who", "1a"]),
       st.text(VALUE_CHARS, max_size=4), GLUE)
def test_an_attribute_and_glue_added_to_a_real_tag(which: int, name: str, value: str,
                                                     glue: str) -> None:
    """Tags that read as they are, with one more attribute and something after them."""
    end = TAG_ENDS[which]
    case = GAME[:end] + f' {name}="{value}"/>' + glue + GAME[end + 2:]
    agrees(case.encode())


@pytest.mark.corpus
def test_every_corpus_mjlog_is_read_the_same_without_lxml(corpus_dir: Path) -> None:
    files = corpus_files(corpus_dir)["tenhou_xml"]
    read = [agrees(read_log_bytes(path)) for path in files]
    assert len(read) > 150
    assert all(read)


@pytest.mark.corpus
def test_mutated_corpus_mjlogs(corpus_dir: Path) -> None:
    logs = [read_log_bytes(p) for p in corpus_files(corpus_dir)["tenhou_xml"]]
    rng = random.Random(20261201)
    outcomes = [agrees(mutate(rng.choice(logs), "tenhou_xml", rng)[0]) for _ in range(MUTATED)]
    # both ways out are taken: mutations the split reading reads, and ones it declines
    assert 50 < sum(outcomes) < MUTATED - 50


# -- hands read character by character --------------------------------------------

def _hand_outcome(read: Any, table: Any, text: str) -> Any:
    try:
        return read(table, text)
    except (KeyError, ValueError):
        return "refused"


@settings(max_examples=1500, deadline=None)
@given(st.one_of(
    st.lists(st.integers(0, 135), min_size=1, max_size=14).map(
        lambda ids: ",".join(map(str, ids))),
    st.lists(st.integers(0, 135), min_size=1, max_size=14).map(  # ascending, as Tenhou
        lambda ids: ",".join(map(str, sorted(ids)))),
    st.lists(st.integers(12, 23), min_size=1, max_size=8).map(  # fives, red among them
        lambda ids: ",".join(map(str, sorted(ids)))),
    st.text(alphabet="0123456789,-+ x\u0661", max_size=20)))
def test_hands_read_by_character_as_split(text: str) -> None:
    """The compiled build's reading of a hand gives the tiles or the refusal of the
    split reading, for both red-five rules."""
    for order_text, order_of_id in ((tables._ORDER_TEXT_AKA, tables._ORDER_OF_ID_AKA),
                                    (tables._ORDER_TEXT_PLAIN, tables._ORDER_OF_ID_PLAIN)):
        assert _hand_outcome(tables._hand_by_character, order_of_id, text) == \
            _hand_outcome(tables._hand, order_text, text)


def test_hands_in_odd_forms_are_refused_by_character() -> None:
    for text in ("", ",", "1,", ",1", "01", "136", "1,,2", "1, 2", "-1", "1x", "\u0661"):
        assert _hand_outcome(tables._hand_by_character, tables._ORDER_OF_ID_AKA, text) \
            == "refused", text
    assert tables._hand_by_character(tables._ORDER_OF_ID_AKA, "135,0,16,17") == \
        tables._hand(tables._ORDER_TEXT_AKA, "135,0,16,17")
