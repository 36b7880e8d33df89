"""wpsitemaps: Yoast-compatible XML sitemaps served straight from a WordPress database.

Importing the package (or any module below the web layer) loads no Flask: `create_app` is
re-exported lazily from wpsitemaps.app, as Flask keeps `flask/__init__.py` a list of names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from typing import Any

if TYPE_CHECKING:
    from wpsitemaps.app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    """`wpsitemaps.create_app`, imported on first use."""
    if name == "create_app":
        from wpsitemaps.app import create_app

        return create_app
    raise AttributeError(f"module 'wpsitemaps' has no attribute {name!r}")
