"""What is listed and how it is written: the registry (name -> provider), providers (post
types, taxonomies, authors, video, news), page bounds, the batch helpers that gather links,
images and videos of one page, the RSS/Atom feeds of the newest articles, and the renderer.

Rule: no Flask. Providers get their connection and site from the caller; HTTP lives in `web`.
"""
