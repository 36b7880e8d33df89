"""Sitemap providers: one per sitemap name (post types, taxonomies, authors, video, news)."""
