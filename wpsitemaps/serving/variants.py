"""Variants of a document: its gzip twin and its browser rendering, kept beside it in the
page store and bound to the XML render they were made from (serving.pagestore).

The gzip twin is the `.xml.gz` file and the body of a `Content-Encoding: gzip` answer;
`wpsitemaps export --gzip` writes the same bytes. How the HTML is made (libxslt) is the web
layer's business: it hands `variant()` the function.
"""

from __future__ import annotations

import gzip
import hashlib
from collections.abc import Callable
from collections.abc import Mapping

from wpsitemaps.serving.documents import Document
from wpsitemaps.serving.pagestore import Variant
from wpsitemaps.serving.pagestore import bound_to
from wpsitemaps.sitemaps.render import gz_listing

Make = Callable[[bytes], bytes]


def gzip_bytes(data: bytes) -> bytes:
    """Deterministic gzip (mtime 0, no file name) so exports are byte-identical."""
    return gzip.compress(data, compresslevel=9, mtime=0)


def html_suffix(view: Mapping[str, str]) -> str:
    """The key suffix of a document's HTML rendering with these view parameters (the
    pager's page count can change while the XML does not)."""
    if not view:
        return ".html"
    params = "&".join(f"{k}={v}" for k, v in sorted(view.items()))
    return f".html-{hashlib.sha256(params.encode()).hexdigest()[:16]}"


def variant(doc: Document, suffix: str, make: Make, tagged: Callable[[Document, bytes], str],
            keep: bool = True, version: str = "") -> tuple[Document, Variant]:
    """The stored variant of `doc` under `suffix`, else make(xml) (stored when `keep`);
    `tagged` gives a made variant's ETag, `version` what else than the XML render it is
    bound to. Returns the document too: making the variant may have needed its bytes
    (loaded, or rendered again)."""
    if keep and doc.stored is not None:
        bound = bound_to(doc.stored.record) + version
        found = doc.stored.pages.stored_variant(doc.stored.key + suffix, bound)
        if found is not None:
            return doc, found
    doc = doc.loaded()
    assert doc.data is not None
    body = make(doc.data)
    made = Variant(body, tagged(doc, body))
    if keep and doc.stored is not None:
        bound = bound_to(doc.stored.record) + version
        doc.stored.pages.put_variant(doc.stored.key + suffix, doc.stored.record, bound, made)
    return doc, made


def gzipped(doc: Document) -> tuple[Document, Variant]:
    """The gzip twin (its ETag is the XML's: what it was made from)."""
    return variant(doc, ".gz", gzip_bytes, lambda made_from, _body: made_from.etag)


def gz_file(doc: Document) -> tuple[Document, Variant]:
    """The `.xml.gz` file of a document: a page's gzip twin; for the index, the gzip of an
    index that lists the sitemaps' `.xml.gz` files (ETag = SHA-256 of the gzip bytes).

    A gzip index pointing at the `.xml` pages would make the same sitemaps children of both
    indexes: clients that keep the parents of what they read (ultimate-sitemap-parser,
    which probes `/sitemap_index.xml.gz` and `/sitemap.xml.gz` next to robots.txt's index)
    then call every page a recursion. The `.gz` tree stays gzip, the `.xml` tree XML."""
    if doc.address.sitemap is not None:
        return gzipped(doc)
    return variant(doc, ".gz-index", lambda xml: gzip_bytes(gz_listing(xml)),
                   lambda _doc, body: hashlib.sha256(body).hexdigest())


def html(doc: Document, suffix: str, make: Make, keep: bool,
         version: str) -> tuple[Document, Variant]:
    """The browser rendering (ETag = SHA-256 of the HTML), bound to the XML render and to
    the `version` of what renders it (a stylesheet deploy changes only the latter)."""
    return variant(doc, suffix, make, lambda _doc, body: hashlib.sha256(body).hexdigest(),
                   keep, f":{version}")
