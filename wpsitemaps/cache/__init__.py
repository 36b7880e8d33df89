"""Value caches: computed values (page bounds, term and author lists) kept across requests.

Rule: no Flask and no SQL. `lru` is the one bounded TTL+LRU map every in-process cache uses;
`values` the cross-request cache of computed values and the view a caller uses; `peer` the
page store as their second level, shared by every worker and host, with its compute lease.
"""
