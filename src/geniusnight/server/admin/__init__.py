"""The admin console (docs/admin.md): its authentication (:mod:`.auth`), its queries and
actions (:mod:`.service`), and the thin routes and pages over them (:mod:`.routes`,
:mod:`.pages`)."""
