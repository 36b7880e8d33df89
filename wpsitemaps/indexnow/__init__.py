"""IndexNow (indexnow.org): tell search engines which listed URLs were added, changed or
removed, within a minute of the change (issue #27).

What changed is what the sitemaps say changed: when the page store replaces a stored
sitemap page by a new rendering, `diff` compares their `<url>` entries and the URLs whose
entry appeared, changed lastmod or went away enter the `outbox` (a map in the page store's
back end: it survives restarts). The `submitter` posts them, one host per request, at most
10,000 URLs each, under a lease (one process at a time), and removes them only after a 2xx.
The `sweeper` revalidates stored sitemaps every few seconds, so a change is found without a
crawler asking. `keys` holds the key served at `/{key}.txt` (web/).

Rule: no Flask, no SQL; documents are read through serving/ like every other caller.
"""
