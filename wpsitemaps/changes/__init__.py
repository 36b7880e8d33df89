"""What changed in a WordPress site, as the service learns it (issue #26).

Rule: no Flask, no SQL, no store. A source (the companion plugin's signed notifications,
the database's binary log, the site-level check) turns what it sees into `Change` values;
the serving layer decides which stored documents they touch.
"""
