"""The benchmark tools that ship with the package; not imported by the app.

What lives here is what runs against an installed server, so it must come with the wheel:
``geniusnight bench load`` (load.py, with bare.py as its ceiling), the crash drill
(drill.py, ``make drill``) and the abuse measurements of docs/deploy.md (abuse.py,
abuse_storage.py; ``python -m geniusnight.bench.<name>``). Benchmarks that need a checkout
(engines, frames, soak, ``make bench``) are scripts in ``bench/`` at the repository root;
bench/README.md and docs/benchmarks.md list both. The fixture game they play is
:mod:`geniusnight.fixtures.count21`.
"""
