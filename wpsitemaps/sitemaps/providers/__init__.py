"""Sitemap providers: one per sitemap name (post types, taxonomies, authors, video, news).

Rule: as `sitemaps`: no Flask; SQL through `wordpress.queries`, URLs through
`wordpress.permalinks` and `sitemaps.links`.
"""
