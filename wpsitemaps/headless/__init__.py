"""The headless sitemap API (`/api/sitemap`): route, parameters, selection, its own
queries and its URL scheme (`detail_url`, a front end's URL, not a WordPress permalink).

Rule: may use `wordpress`, `content`, `sitemaps` and `web` (its request context and
error conventions); nothing imports it but the app factory.
"""
