"""Reports: replay results as tables, statistics, plots and one HTML page.

- :mod:`kansa.reports.stats`: :func:`~kansa.reports.stats.build` makes every table at once;
- :mod:`kansa.reports.registry`: the one list of report tables (a function and a schema each);
- :mod:`kansa.reports.tables`: the base tables and their schemas;
- :mod:`kansa.reports.ledger`: the payments ledger as the reports read it (replay's transfers);
- :mod:`kansa.reports.facts`: tenpai and riichi facts, replayed or claimed;
- :mod:`kansa.reports.metrics`: player metrics as numerator/denominator data;
- :mod:`kansa.reports.tenpai`: tenpai rates at draws and by turn;
- :mod:`kansa.reports.plots`: plots on a given ``Axes``;
- :mod:`kansa.reports.html`, :mod:`kansa.reports.tiles_html`: the self-contained HTML report;
- :mod:`kansa.reports.packet`, :mod:`kansa.reports.packet_events`, :mod:`kansa.reports.rulebook`:
  the dispute packet's page, its events in words, the rule texts and penalties.
"""
