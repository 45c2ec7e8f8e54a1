"""Storage: the tables and the database a process uses.

- ``models``: the tables as ORM models (every module that reads or writes rows imports them
  from here), and the text a JSON column stores.
- ``database``: ``Database``, the async engine and its sessions, Core transactions on a
  synchronous connection, and the move log it was built with.
- ``movelog``: the move log, the port the game service stores and reads its games through,
  with its data types and the reads both adapters share.
- ``sqlite``: SQLite's settings, a file's inline connections and its move log adapter.
- ``postgres``: PostgreSQL's pool settings and its move log adapter.

Only the libraries' public APIs are used (docs/performance.md, D31, D33).
"""
