"""Reports: replay results as tables, statistics, plots and one HTML page.

- :mod:`reports.stats`: :func:`~reports.stats.build` makes every table at once;
- :mod:`reports.tables`: the base tables and their schemas;
- :mod:`reports.ledger`: the payments ledger (replay's, or rebuilt from deltas);
- :mod:`reports.facts`: tenpai and riichi facts, replayed or claimed;
- :mod:`reports.metrics`: player metrics as numerator/denominator data;
- :mod:`reports.tenpai`: tenpai rates at draws and by turn;
- :mod:`reports.plots`: plots on a given ``Axes``;
- :mod:`reports.html`, :mod:`reports.tiles_html`: the self-contained HTML report.
"""
