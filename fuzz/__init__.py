"""Fuzzing kansa: mutators shared by ``tests/parsers/test_fuzz.py`` (seeded, CI-sized) and
``fuzz/long_run.py`` (the long run, 100,000+ cases).

* :mod:`fuzz.mutate` mutates log bytes: generic byte damage, XML tags and
  attributes, JSON values and JSON lines.
* :mod:`fuzz.events` mutates parsed event streams for the replay engine.
* :mod:`fuzz.harness` runs one case and classifies the outcome.
"""
