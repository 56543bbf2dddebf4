"""The report's one inline script: sort a table by a column, filter its rows.

The page is whole without it (every table and row is in the HTML; the script only
adds a filter box above each table and turns the column headings into sort
buttons).  The Content-Security-Policy allows this script by its SHA-256 hash and
nothing else, so no other script can run and nothing can be fetched.
"""

from __future__ import annotations

import base64
import hashlib

SCRIPT = """(() => {
const num = t => {
  const s = t.replace(/[,%\\s]/g, '');
  return s !== '' && isFinite(s) ? +s : null;
};
for (const table of document.querySelectorAll('table.data')) {
  const body = table.tBodies[0], head = table.tHead && table.tHead.rows[0];
  if (!body || !head) continue;
  const rows = [...body.rows];
  const bar = document.createElement('div');
  bar.className = 'tools';
  const box = document.createElement('input');
  box.type = 'search';
  box.placeholder = 'Filter rows';
  box.setAttribute('aria-label', 'Filter the rows of this table');
  const shown = document.createElement('span');
  shown.className = 'note';
  bar.append(box, shown);
  (table.closest('.scroll') || table).before(bar);
  box.addEventListener('input', () => {
    const q = box.value.trim().toLowerCase();
    let n = 0;
    for (const r of rows) {
      r.hidden = q !== '' && !r.textContent.toLowerCase().includes(q);
      if (!r.hidden) n++;
    }
    shown.textContent = q ? ` ${n} of ${rows.length} rows` : '';
  });
  [...head.cells].forEach((th, i) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'sort';
    b.textContent = th.textContent;
    th.textContent = '';
    th.append(b);
    b.addEventListener('click', () => {
      const dir = th.getAttribute('aria-sort') === 'ascending' ? -1 : 1;
      for (const other of head.cells) other.removeAttribute('aria-sort');
      th.setAttribute('aria-sort', dir > 0 ? 'ascending' : 'descending');
      const vals = rows.map(r => { const c = r.cells[i];
        return c && !c.classList.contains('na') ? c.textContent : null; });
      const numeric = vals.every(v => v === null || num(v) !== null);
      const order = rows.map((_, k) => k).sort((a, b) => {
        const x = vals[a], y = vals[b];
        if (x === null || y === null) return (x === null) - (y === null) || a - b;
        const c = numeric ? num(x) - num(y) : x.localeCompare(y, undefined, {numeric: true});
        return c * dir || a - b;
      });
      body.append(...order.map(k => rows[k]));
    });
  });
}
})();"""
"""Sorting keeps missing cells last and ties in the page's order; a column sorts
as numbers when every cell it has reads as one (``1,234``, ``45.2%``)."""

CSS = """
.tools{margin:.5em 0 .2em}.tools input{font:inherit;padding:2px 6px;width:16em}
button.sort{all:unset;cursor:pointer}button.sort:focus-visible{outline:2px solid #1565c0}
th[aria-sort=ascending] button.sort::after{content:" \\25B2";font-size:9px}
th[aria-sort=descending] button.sort::after{content:" \\25BC";font-size:9px}
"""


def script_hash(script: str = SCRIPT) -> str:
    """The CSP source that allows exactly ``script`` inline: ``'sha256-…'``."""
    digest = hashlib.sha256(script.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


CSP = ("default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
       f"script-src {script_hash()}")
"""The page's policy: inline styles, ``data:`` images and the one script above."""
