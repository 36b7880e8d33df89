"""Reading a WordPress database: schema, engine, options, content types, site context,
permalinks, PHP data, dates, and `queries/` (all the SQL of the project).

Rule: never imports Flask, `web`, `sitemaps`, `headless` or `audit`; callers pass the connection
and the settings explicitly (`build_site(conn, settings)`), so a command can use it without HTTP.
"""
