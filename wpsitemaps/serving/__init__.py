"""Serving: from (site, document) to bytes, for every caller (issue #23).

Rule: no Flask and no request here. `service` builds everything once from Settings and opens
a caller's session with one site; `sites` resolves host + path to a site; `documents` gives
a document's bytes and validators; `pagestore` holds the store's freshness rules; `refresh`
recomputes a site's values in the background; `robots` and `robots_config` make robots.txt.
The web layer, the export, `.xml.gz`, `robots-lines` and `check` all call these.
"""
