"""The headless sitemap API (`/api/sitemap`): route, parameters, selection, its own
queries and its URL scheme (`detail_url`, a front end's URL, not a WordPress permalink).

Rule: may use `wordpress`, `content` and `sitemaps`; nothing else imports it but the app.
"""
