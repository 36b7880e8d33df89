"""The direct writer of plain urlsets (render.plain_urlset) gives exactly the template's
characters, whatever the entries hold (issue #13: it replaced the template on the hot path)."""

from __future__ import annotations

from datetime import UTC
from datetime import datetime

from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from wpsitemaps.entries import Alternate
from wpsitemaps.entries import ImageEntry
from wpsitemaps.entries import UrlEntry
from wpsitemaps.sitemaps import render

TEXT = st.text(st.characters(blacklist_categories=("Cs",)) | st.sampled_from(
    ["&", "<", ">", '"', "'", "\x00", "\x1f", "\ufffe", "é", "中", "\t", "\n"]), max_size=30)
ENTRIES = st.lists(st.builds(
    UrlEntry, TEXT,
    st.none() | st.datetimes(min_value=datetime(1990, 1, 1), timezones=st.just(UTC)),
    st.lists(st.builds(ImageEntry, TEXT), max_size=3).map(tuple),
    alternates=st.lists(st.builds(Alternate, TEXT, TEXT), max_size=2).map(tuple)), max_size=6)


def template(entries: list[UrlEntry], stylesheet: str | None) -> bytes:
    """What urlset.xml renders for the same entries."""
    ns = {"image": any(e.images for e in entries), "video": False, "news": False,
          "xhtml": any(e.alternates for e in entries)}
    return render._env.get_template("urlset.xml").render(
        entries=entries, stylesheet=stylesheet, ns=ns).encode("utf-8")


@settings(max_examples=500)
@given(ENTRIES, st.none() | st.just("") | TEXT)
def test_plain_urlset_is_the_template(entries: list[UrlEntry], stylesheet: str | None) -> None:
    """Byte for byte, escaping and forbidden characters included."""
    assert render.render_urlset(entries, stylesheet) == template(entries, stylesheet)
