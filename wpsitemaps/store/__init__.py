"""The rendered-page store (issue #13): bytes of rendered documents with the fingerprint of the
data they were built from, shared by every worker (a directory) or every host (Redis).

Rule: no Flask and no SQL here; the web layer decides what to store and when it is valid.
"""
