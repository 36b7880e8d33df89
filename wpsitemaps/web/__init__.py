"""HTTP on top: routes, the request context (site and connection on `g`), gzip and
conditional requests, robots.txt, the feeds' routes, server-side XSLT and what its HTML shows
beyond the XML (`display`: decoded URLs, pager and clock parameters).

Rule: the only package (with `headless`) that imports Flask; it decides status codes and
headers and delegates what is listed to `sitemaps`.
"""
