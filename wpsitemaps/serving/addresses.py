"""Which document of a site a request asks for: the index, or page n of a sitemap (no
database, no Flask; serving.documents parses file names into these)."""

from __future__ import annotations

from dataclasses import dataclass

INDEX = "sitemap_index.xml"


@dataclass(frozen=True)
class Address:
    """A document of a site: the index (sitemap None) or page `page` of a sitemap."""

    sitemap: str | None = None
    page: int = 1

    @property
    def filename(self) -> str:
        """Its canonical file name: sitemap_index.xml, post-sitemap.xml, post-sitemap2.xml."""
        if self.sitemap is None:
            return INDEX
        return f"{self.sitemap}-sitemap{'' if self.page == 1 else self.page}.xml"
