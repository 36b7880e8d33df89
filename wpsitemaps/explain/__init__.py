"""`wpsitemaps explain`: why one post, term or author is (or is not) in each sitemap.

The verdicts come from the sitemaps' own rules: the named SQL clauses the providers AND
together (evaluated one by one for the object), the taxonomy provider's per-term verdicts,
the image and video resolution of a page. Nothing here restates a rule. Built like a
command: `Registry(conn, build_site(conn, settings))`, no Flask; never served over HTTP.
"""
