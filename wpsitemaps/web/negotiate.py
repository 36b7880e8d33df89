"""Which variant of a document a request gets: 304, the XML, gzip in transit, or HTML.

What the request accepts is read once (web.accept) and used by the document routes and by
the Content-Encoding hook of web.gzip alike. The variants themselves come from
serving.variants, stored beside the document when the page store is on.
"""

from __future__ import annotations

from flask import Response
from werkzeug.wrappers.response import Response as BaseResponse

from wpsitemaps.serving.documents import Document
from wpsitemaps.serving.variants import gzipped
from wpsitemaps.serving.variants import html
from wpsitemaps.serving.variants import html_suffix
from wpsitemaps.web.accept import wants
from wpsitemaps.web.display import view_params
from wpsitemaps.web.gzip import add_vary
from wpsitemaps.web.gzip import variant_etag
from wpsitemaps.web.headers import HTML_TYPE
from wpsitemaps.web.headers import XML_TYPE
from wpsitemaps.web.headers import conditional
from wpsitemaps.web.xslt import transform
from wpsitemaps.web.xslt import view_version


def respond(doc: Document, as_html: bool = True) -> BaseResponse:
    """The answer for a document in the variant the request negotiates (as_html=False: the
    XML even to a browser); a stale copy carries its Age."""
    resp = negotiated(doc, as_html)
    if doc.age is not None:
        resp.headers["Age"] = str(int(doc.age))
    return resp


def negotiated(doc: Document, as_html: bool) -> BaseResponse:
    """304, the HTML view, the gzip twin or the XML, as the request takes them."""
    want = wants()
    if want.html and as_html:
        return html_response(doc)
    # RFC 9110 13.1.2: If-None-Match is compared with the tag of the representation this
    # request selects, so a client taking gzip revalidates with the gzip variant's tag only.
    selected = variant_etag(doc.etag) if want.gzip else doc.etag
    probe = conditional(Response(b"", content_type=XML_TYPE), selected, doc.lastmod)
    if probe.status_code == 304:
        if want.gzip:
            add_vary(probe, "Accept-Encoding")
        return probe
    if want.gzip:
        doc, packed = gzipped(doc)
        resp = Response(packed.body, content_type=XML_TYPE)
        resp.headers["Content-Encoding"] = "gzip"
        add_vary(resp, "Accept-Encoding")
        return conditional(resp, variant_etag(doc.etag), doc.lastmod)
    doc = doc.loaded()
    assert doc.data is not None
    return conditional(Response(doc.data, content_type=XML_TYPE), doc.etag, doc.lastmod)


def html_response(doc: Document) -> BaseResponse:
    """The browser's view: the kind's stylesheet applied here (browsers are dropping XSLT),
    with the pager and clock parameters (web/display.py); a view with a clock (the news
    view's ages change every second) is never stored."""
    address = doc.address
    view = view_params(address.sitemap, address.page, doc.pages, doc.clock)
    doc, made = html(doc, html_suffix(view), lambda xml: transform(xml, doc.kind, view),
                     keep="now" not in view, version=view_version())
    return conditional(Response(made.body, content_type=HTML_TYPE), made.etag, doc.lastmod)
