"""The dispute packet as one self-contained HTML page, drawn from its evidence document.

Inline CSS and one inline script, allowed by its sha256 hash in the page's
Content-Security-Policy (nothing is fetched).  The tables of the finding's steps are
drawn in the page; the others are drawn by the script from the page's data (the
states, as JSON), which keeps a long hand's page small.  Without script every step is
listed and the finding's steps are open; with it one step shows at a time, with first,
previous, next and last buttons and the arrow keys (Home and End too).  The tiles that
decide a finding carry the class ``decide``; every string from the log is escaped.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from kansa.replay.tiles import Tile, parse_tiles
from kansa.reports.tiles_html import CSS as TILE_CSS
from kansa.reports.tiles_html import (
    HONORS,
    WIND_LETTERS,
    back_html,
    meld_html,
    tile_html,
    tiles_html,
)

_HONOR_JS = ",".join(f'"{t.mpsz}":["{letter}","{title}"]'
                     for t, (letter, title) in HONORS.items())

SCRIPT = """(function(){
var data=JSON.parse(document.getElementById('packet-data').textContent);
var H={""" + _HONOR_JS + """},W=['E','S','W','N'],X={z:{5:'haku',6:'hatsu',7:'chun'}};
function esc(s){return String(s).replace(/[&<>"']/g,function(c){
 return '&#'+c.charCodeAt(0)+';';});}
function tile(m,extra){var n=m[0],u=m[1],c=['t',u],title,body;
 if(u==='z'){var h=H[m]||['?',m];title=h[1];body=esc(h[0]);if(X.z[n])c.push(X.z[n]);}
 else{title=n==='0'?'red 5'+u:m;body=(n==='0'?'5':n)+'<i>'+u+'</i>';if(n==='0')c.push('red');}
 if(extra)c.push(extra);
 return '<span class="'+c.join(' ')+'" title="'+esc(title)+'">'+body+'</span>';}
function tiles(s){var out='',d=[];for(var i=0;i<s.length;i++){var ch=s[i];
 if(ch>='0'&&ch<='9'){d.push(ch);}else{d.forEach(function(x){out+=tile(x+ch);});d=[];}}
 return out;}
function board(st){var rows='';st.hands.forEach(function(hand,seat){
 var name=data.players[seat]||'',sc=st.scores?st.scores[seat].toLocaleString('en-US'):'';
 var melds=st.melds[seat].map(function(m){var k=m.split(':');
  return '<span class="meld"><small>'+esc(k[0])+'</small>'+tiles(k[1]||'')+'</span>';}).join('');
 var river=st.rivers[seat].map(function(e,i){var core=e.replace(/[*>]/g,'');
  var x=e.indexOf('*')>=0?'rot':(e.indexOf('>')>=0?'gone':'');
  return '<span class="r" data-pos="'+i+'" data-tile="'+esc(core)+'">'+tile(core,x)+'</span>';
 }).join('');
 rows+='<tr data-seat="'+seat+'"><th><span class="wind">'+W[(seat-data.dealer+4)%4]+
  '</span> '+seat+' '+esc(name)+'<div class="score">'+sc+(st.riichi[seat]?' \u00b7 riichi':'')+
  '</div></th><td class="hand">'+tiles(hand)+
  new Array(st.hidden[seat]+1).join('<span class="t back" title="hidden tile"></span>')+
  '</td><td class="melds">'+melds+'</td><td class="river sm">'+river+'</td></tr>';});
 return '<p class="tableinfo">Dora indicators <span class="dora">'+
  st.dora_markers.map(function(d){return tiles(d);}).join('')+'</span> \u00b7 live wall '+
  '<span class="wall">'+st.live_wall+'</span> tiles</p><table class="state"><thead><tr>'+
  '<th>seat</th><th>hand</th><th>melds</th><th>discards</th></tr></thead><tbody>'+rows+
  '</tbody></table>';}
var steps=Array.prototype.slice.call(document.querySelectorAll('details.step'));
var marks=Array.prototype.slice.call(document.querySelectorAll('#timeline a'));
var pos=document.getElementById('pos'),cur=0;
function show(i){
 cur=Math.max(0,Math.min(steps.length-1,i));
 var drawn=steps[cur].querySelector('.board.later');
 if(drawn&&data.states[cur]){drawn.innerHTML=board(data.states[cur]);
  drawn.classList.remove('later');}
 steps.forEach(function(s,k){var on=k===cur;s.hidden=!on;s.open=on;
  s.classList.toggle('current',on);});
 marks.forEach(function(a,k){if(k===cur){a.setAttribute('aria-current','step');}
  else{a.removeAttribute('aria-current');}});
 pos.textContent='step '+cur+' of '+(steps.length-1);
 document.body.setAttribute('data-step',String(cur));
}
var go={first:function(){return 0;},prev:function(){return cur-1;},
 next:function(){return cur+1;},last:function(){return steps.length-1;}};
Array.prototype.forEach.call(document.querySelectorAll('#controls button'),function(b){
 b.addEventListener('click',function(){show(go[b.getAttribute('data-go')]());});});
marks.forEach(function(a,k){a.addEventListener('click',function(e){e.preventDefault();
 show(k);});});
document.addEventListener('keydown',function(e){
 var to={ArrowLeft:'prev',ArrowRight:'next',Home:'first',End:'last'}[e.key];
 if(to){e.preventDefault();show(go[to]());}});
document.getElementById('controls').hidden=false;
document.body.classList.add('scripted');
show(Number(document.body.getAttribute('data-start'))||0);
})();"""

SCRIPT_HASH = base64.b64encode(hashlib.sha256(SCRIPT.encode()).digest()).decode()
CSP = (f"default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
       f"script-src 'sha256-{SCRIPT_HASH}'")

CSS = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;
 margin:0;color:#1d1d1f;background:#f6f6f3}
header,main{max-width:1180px;margin:0 auto;padding:0 20px}
header{padding-top:16px}h1{font-size:22px;margin:.2em 0}h2{font-size:17px;margin-top:1.2em}
.meta{color:#555;font-size:12px;word-break:break-all}
.finding{background:#fff;border:1px solid #ddd;border-left:6px solid #f9a825;border-radius:6px;
 padding:10px 14px;margin:10px 0}
.finding.error{border-left-color:#c62828}
.badge{display:inline-block;padding:1px 7px;border-radius:9px;font-size:12px;color:#fff;
 background:#f9a825}.badge.error{background:#c62828}
.finding dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:.5em 0}
.finding dt{color:#666}.finding dd{margin:0}
.ruletext{white-space:pre-wrap;background:#faf8f0;border:1px solid #eee;padding:6px 8px;
 font-size:13px}
#controls{position:sticky;top:0;background:#f6f6f3;padding:6px 0;z-index:2}
#controls button{font-size:14px;margin-right:4px;padding:2px 10px}
#pos{margin-left:8px;color:#444}
.layout{display:flex;gap:16px;align-items:flex-start}
#timeline{flex:0 0 290px;max-height:80vh;overflow:auto;font-size:12px;margin:0;
 padding-left:2.6em;background:#fff;border:1px solid #ddd;border-radius:6px}
#timeline li.mark a{color:#c62828;font-weight:700}
#timeline a[aria-current]{background:#fff3c4}
#steps{flex:1 1 auto;min-width:0}
details.step{background:#fff;border:1px solid #ddd;border-radius:6px;margin:0 0 8px;
 padding:6px 10px}
details.step.mark{border-color:#c62828}
details.step summary{cursor:pointer;font-weight:600}
table.state{border-collapse:collapse;margin-top:6px}
table.state th,table.state td{border-top:1px solid #eee;padding:4px 8px;text-align:left;
 vertical-align:middle}
table.state tr.focus{background:#fff8e1}
.score{font-weight:normal;font-size:12px;color:#555}.wind{color:#8b1a1a}
td.river{max-width:430px;white-space:normal}
.t.decide,.decide .t{outline:3px solid #d50000;outline-offset:1px}
span.decide{background:#ffe082;padding:0 4px;border-radius:3px}
.t.rot.decide{outline-offset:-1px}
"""


def _river(entries: Sequence[str], marked: set[int]) -> str:
    out = []
    for i, entry in enumerate(entries):
        core = entry.rstrip("*>")
        extra = ["rot"] if "*" in entry else (["gone"] if ">" in entry else [])
        if i in marked:
            extra.append("decide")
        try:
            tile = tile_html(Tile.parse(core), " ".join(extra))
        except ValueError:
            tile = f"<code>{escape(entry)}</code>"
        called = ' data-called="1"' if ">" in entry else ""
        out.append(f'<span class="r" data-pos="{i}" data-tile="{escape(core)}"{called}>'
                   f"{tile}</span>")
    return "".join(out)


def _hand(mpsz: str, marked: set[str]) -> str:
    """The concealed tiles, one copy of each ``marked`` tile highlighted."""
    try:
        tiles = parse_tiles(mpsz)
    except ValueError:
        return f"<code>{escape(mpsz)}</code>"
    out, left = [], set(marked)
    for t in tiles:
        hit = t.mpsz in left
        left.discard(t.mpsz)
        tile = tile_html(t, "decide" if hit else "")
        out.append(f'<span class="h" data-tile="{t.mpsz}">{tile}</span>' if hit else tile)
    return "".join(out)


def board_html(state: Mapping[str, Any], names: Sequence[str], dealer: int,
               focus: int | None, deciding: Sequence[Mapping[str, Any]] = ()) -> str:
    """The table after a step: per seat the hand, melds, river; dora, wall, scores."""
    rivers: dict[int, set[int]] = {}
    melds_marked = {d["seat"] for d in deciding if d["place"] == "melds"}
    wall_marked = any(d["place"] == "wall" for d in deciding)
    in_hand: dict[int, set[str]] = {}
    for d in deciding:
        if d["place"] == "river" and d["position"] is not None:
            rivers.setdefault(int(d["seat"]), set()).add(int(d["position"]))
        elif d["place"] == "hand" and d["tile"]:
            in_hand.setdefault(int(d["seat"]), set()).add(str(d["tile"]))
    rows = []
    scores = state.get("scores")
    for seat, hand in enumerate(state["hands"]):
        name = names[seat] if seat < len(names) else ""
        wind = WIND_LETTERS[(seat - dealer) % 4]
        score = f"{scores[seat]:,}" if scores is not None and seat < len(scores) else ""
        riichi = " · riichi" if state["riichi"][seat] else ""
        melds = "".join(meld_html(m) for m in state["melds"][seat])
        mcls = ' class="melds decide"' if seat in melds_marked else ' class="melds"'
        rows.append(
            f'<tr data-seat="{seat}" class="{"focus" if seat == focus else ""}">'
            f'<th><span class="wind">{wind}</span> {seat} {escape(name)}'
            f'<div class="score">{score}{riichi}</div></th>'
            f'<td class="hand">{_hand(hand, in_hand.get(seat, set()))}'
            f'{back_html(int(state["hidden"][seat]))}</td>'
            f'<td{mcls}>{melds}</td>'
            f'<td class="river sm">{_river(state["rivers"][seat], rivers.get(seat, set()))}'
            "</td></tr>")
    dora = "".join(tiles_html(d) for d in state["dora_markers"])
    wall_cls = "wall decide" if wall_marked else "wall"
    return (f'<p class="tableinfo">Dora indicators <span class="dora">{dora}</span> · '
            f'live wall <span class="{wall_cls}">{int(state["live_wall"])}</span> tiles</p>'
            '<table class="state"><thead><tr><th>seat</th><th>hand</th><th>melds</th>'
            f'<th>discards</th></tr></thead><tbody>{"".join(rows)}</tbody></table>')


def _rule_texts(f: Mapping[str, Any]) -> str:
    parts = []
    if f.get("online_rule"):
        parts.append(f'<p>The platform\'s rule: {escape(str(f["online_rule"]))}</p>')
    for s in f["rule_texts"]:
        head = f'EMA RCR {escape(s["section"])}'
        if s.get("title"):
            head += f' · {escape(str(s["title"]))}'
        body = f'<p class="summary">{escape(s["summary"])} <i>(kansa\'s summary)</i></p>'
        if s.get("text"):
            body += (f'<div class="ruletext" lang="{escape(str(s["language"]))}">'
                     f'{escape(s["text"])}</div>')
            if s.get("note"):
                body += f'<p class="meta">{escape(s["note"])}</p>'
        else:
            body += '<p class="meta">The text of this section is not in the rule texts ' \
                    "kansa carries.</p>"
        parts.append(f'<details class="rule" open><summary>{head}</summary>{body}</details>')
    if not parts:
        parts.append('<p class="meta">No EMA section is cited: the citation above is the '
                     "rule.</p>")
    return "".join(parts)


def _deciding(f: Mapping[str, Any]) -> str:
    items = [f'seat {escape(str(d["seat"]))} {escape(d["place"])}'
             + (f' #{int(d["position"]) + 1}' if d["position"] is not None else "")
             + (f' {tiles_html(d["tile"])}' if d["tile"] else "")
             + f' <span class="why">{escape(d["why"])}</span>' for d in f["deciding"]]
    if f["waits"]:
        items.append(f'waits <span class="waits">{"".join(tiles_html(w) for w in f["waits"])}'
                     "</span>")
    return "<br>".join(items) if items else "the event itself"


def _penalty(p: Mapping[str, Any]) -> str:
    if p.get("penalty"):
        return f'{escape(p["penalty"])} <span class="meta">({escape(p["source"])})</span>'
    return escape(str(p.get("note") or "none stated"))


def finding_html(f: Mapping[str, Any]) -> str:
    sev = escape(f["severity"])
    legal = f["legal"]["text"] if f.get("legal") else "not asked (no step of the hand)"
    wall = f.get("wall")
    wall_text = ("the log gives no wall for this hand" if wall is None else
                 f'after {wall["live_draws"]} live draws: '
                 f'{"".join(tiles_html(t) for t in wall["next"])}')
    return (
        f'<article class="finding {sev}" id="finding-{int(f["number"])}" '
        f'data-rule="{escape(f["rule"])}" data-step="{int(f["step"])}">'
        f'<header><span class="badge {sev}">{sev}</span> <code>{escape(f["rule"])}</code> '
        f'· <a href="#step-{int(f["step"])}">step {int(f["step"])}</a></header>'
        f'<p class="msg">{escape(f["message"])}</p><dl>'
        f'<dt>citation</dt><dd>{escape(f["citation"])}</dd>'
        f'<dt>deciding</dt><dd class="deciding">{_deciding(f)}</dd>'
        f'<dt>legal instead</dt><dd class="legal">{escape(legal)}</dd>'
        f'<dt>penalty</dt><dd class="penalty">{_penalty(f["penalty"])}</dd>'
        f'<dt>next wall</dt><dd class="nextwall">{wall_text}</dd>'
        f'</dl>{_rule_texts(f)}</article>')


def _findings_html(found: Sequence[Mapping[str, Any]]) -> str:
    """The errors in full; when there are errors, the warnings folded away below them."""
    if not found:
        return '<p class="meta">No finding in this hand.</p>'
    errors = [f for f in found if f["severity"] == "error"]
    others = [f for f in found if f["severity"] != "error"]
    if not errors:
        return "".join(finding_html(f) for f in found)
    folded = (f'<details class="others"><summary>{len(others)} more finding'
              f'{"" if len(others) == 1 else "s"} in this hand (warnings)</summary>'
              + "".join(finding_html(f) for f in others) + "</details>") if others else ""
    return "".join(finding_html(f) for f in errors) + folded


def _data(doc: Mapping[str, Any], names: Sequence[str]) -> str:
    """What the script draws the steps from, safe inside a ``<script>`` element."""
    data = {"players": list(names), "dealer": int(doc["dealer"]),
            "states": [s["state"] for s in doc["steps"]]}
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def render_packet(doc: Mapping[str, Any], *, generator: str = "kansa") -> str:
    """The whole page of the evidence document ``doc`` (see :mod:`kansa.packet`)."""
    names = [str(n or "") for n in doc["players"]]
    dealer = int(doc["dealer"])
    findings = {int(f["number"]): f for f in doc["findings"]}
    shown = [f for f in doc["findings"] if f["severity"] == "error"] or list(doc["findings"])
    start = int(shown[0]["step"]) if shown else 0
    items, steps = [], []
    for s in doc["steps"]:
        k = int(s["step"])
        here = [findings[n] for n in s["findings"]]
        mark = " mark" if here else ""
        items.append(f'<li class="{mark.strip()}"><a href="#step-{k}">{escape(s["text"])}'
                     f'{" ⚑" if here else ""}</a></li>')
        deciding = [d for f in here for d in f["deciding"]]
        focus = next((f["seat"] for f in here if f["seat"] is not None), s["actor"])
        if not s["state"]:
            board = ""
        elif here:  # a finding's step: drawn here, so that it reads without script
            board = board_html(s["state"], names, dealer, focus, deciding)
        else:  # the script draws it from the page's data when it is shown
            board = ('<div class="board later"><p class="meta">The table after this step is '
                     "drawn by the page's script.</p></div>")
        flags = "".join(f'<p class="flag"><a href="#finding-{int(f["number"])}">'
                        f'{escape(f["rule"])}</a>: {escape(f["message"])}</p>' for f in here)
        steps.append(f'<details class="step{mark}" id="step-{k}" data-step="{k}"'
                     f'{" open" if here else ""}><summary>Step {k}: {escape(s["text"])}'
                     f"</summary>{flags}{board}</details>")
    title = f'{doc["file"]} · game {doc["game"]} · {doc["hand"]}'
    players = " · ".join(f"{i} {escape(n)}" for i, n in enumerate(names))
    return (
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>Dispute packet: {escape(title)}</title><style>{CSS}{TILE_CSS}</style></head>"
        f'<body data-start="{start}"><header><h1>Dispute packet: {escape(title)}</h1>'
        f'<p class="meta">rules {escape(doc["rules"])} · format {escape(doc["format"])} · '
        f'players {players} · log sha256 <code class="sha">{escape(doc["sha256"])}</code> · '
        f"made by {escape(generator)}</p></header><main>"
        f'<h2>Findings in this hand ({len(doc["findings"])})</h2>'
        + _findings_html(doc["findings"])
        + '<h2>The hand, step by step</h2><div id="controls" hidden>'
        '<button type="button" data-go="first">« first</button>'
        '<button type="button" data-go="prev">◀ previous</button>'
        '<button type="button" data-go="next">next ▶</button>'
        '<button type="button" data-go="last">last »</button>'
        '<span id="pos"></span> <span class="meta">(arrow keys too)</span></div>'
        f'<div class="layout"><ol id="timeline" start="0">{"".join(items)}</ol>'
        f'<div id="steps">{"".join(steps)}</div></div></main>'
        f'<script type="application/json" id="packet-data">{_data(doc, names)}</script>'
        f"<script>{SCRIPT}</script></body></html>\n")
