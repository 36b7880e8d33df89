"""What is listed and how it is written: the registry (name -> provider), providers (post
types, taxonomies, authors, video, news; their contract in providers/base.py), fingerprints
of pages, the index's live tail, the batch helpers that gather links, images and videos of
one page, the RSS/Atom feeds of the newest articles, and the renderer.

Rule: no Flask. Providers get their connection, site and value cache from the caller
(serving); HTTP lives in `web`.
"""
