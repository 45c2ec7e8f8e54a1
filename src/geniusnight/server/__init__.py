"""The web server: rooms, storage, realtime fan-out, pages and admin."""
