"""HTTP on top: routes, the request context (the app's Service, a request's site and session),
what a request accepts and which variant it gets (304, gzip, HTML), robots.txt, the feeds'
routes, server-side XSLT and what its HTML shows beyond the XML (`display`).

Rule: the only floor (with `headless`) that imports Flask; it decides status codes and
headers and asks `serving` for every document.
"""
