"""Where templates/, xsl/ and migrations/ are: in the checkout, or in the wheel's data."""

from __future__ import annotations

import sys
from pathlib import Path

_REPO = Path(__file__).resolve().parent.parent
_SHARE = Path(sys.prefix) / "share" / "wpsitemaps"


def _find(name: str) -> Path:
    """Prefer the checkout's directory (editable installs), else the installed data files."""
    for base in (_REPO, _SHARE):
        candidate = base / name
        if candidate.is_dir():
            return candidate
    return _REPO / name


TEMPLATES_DIR = _find("templates")
XSL_DIR = _find("xsl")
MIGRATIONS_DIR = _find("migrations")

# Sitemap kind -> its stylesheet in xsl/ (the file the <?xml-stylesheet?> PI names, at
# `{home}/{kind}-sitemap.xsl`).
STYLESHEETS: dict[str, str] = {
    "main": "main-sitemap.xsl",
    "video": "video-sitemap.xsl",
    "news": "news-sitemap.xsl",
}
