"""The companion must-use plugin's record of WordPress's own registry (wordpress/ in the repo).

`wordpress/wpsitemaps-registry.php` stores, in the option `wpsitemaps_registry`, every public
and viewable post type and taxonomy as WordPress registered it, whenever that changes. When the
option is there it is the first source: it is exactly what register_post_type() and
register_taxonomy() were given, including for plain permalinks, which leave no rules.

Shape (PHP serialize()):
    version: 1
    front, root, permalink_structure: WP_Rewrite's values
    post_types: {name: {hierarchical, has_archive (bool|string), rewrite (false|{slug,
                 with_front}), query_var (string|false), permastruct (string|false)}}
    taxonomies: {name: {hierarchical, rewrite (false|{slug, with_front, hierarchical}),
                 query_var (string|false), permastruct (string|false), object_type: [..]}}
    languages:  {plugin: 'polylang'|'wpml'|'', settings: the plugin's raw URL settings,
                 languages: [slug, ...]}   (read by the multilingual code)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from wpsitemaps.wordpress.phpdata import as_dict
from wpsitemaps.wordpress.phpdata import unserialize
from wpsitemaps.wordpress.registration import Registration
from wpsitemaps.wordpress.rewrite import join

OPTION = "wpsitemaps_registry"
SOURCE = "companion plugin (wpsitemaps_registry)"


@dataclass(frozen=True)
class Companion:
    """The registry the companion recorded: public post types and taxonomies by name."""

    post_types: Mapping[str, Registration]
    taxonomies: Mapping[str, Registration]
    languages: Mapping[str, Any]


def _base(spec: Mapping[Any, Any], name: str) -> str | None:
    """The permastruct without its trailing `%name%` tag: the path before the slug."""
    struct = spec.get("permastruct")
    if not isinstance(struct, str) or not struct:
        return None
    tail = f"%{name}%"
    cut = struct.rstrip("/")
    if cut.endswith(tail):
        cut = cut[: -len(tail)]
    return cut.strip("/")


def _archive(spec: Mapping[Any, Any], front: str, root: str) -> str | None:
    """get_post_type_archive_link()'s path: has_archive (or the rewrite slug for true) under
    the front (with_front) or the root."""
    rewrite, has_archive = as_dict(spec.get("rewrite")), spec.get("has_archive")
    if not has_archive or not rewrite:
        return None
    struct = str(rewrite.get("slug") or "") if has_archive is True else str(has_archive)
    prefix = front if rewrite.get("with_front") else root
    return join(prefix, struct)


def _post_type(name: str, spec: Mapping[Any, Any], front: str, root: str) -> Registration:
    """One recorded post type as a Registration."""
    query_var = spec.get("query_var")
    return Registration(
        name, SOURCE, base=_base(spec, name), hierarchical=bool(spec.get("hierarchical")),
        has_archive=bool(spec.get("has_archive")), archive=_archive(spec, front, root),
        query_var=query_var if isinstance(query_var, str) else "",
        rewrite=bool(spec.get("rewrite")))


def _taxonomy(name: str, spec: Mapping[Any, Any]) -> Registration:
    """One recorded taxonomy; its links show ancestors only with a hierarchical rewrite."""
    rewrite = as_dict(spec.get("rewrite"))
    query_var = spec.get("query_var")
    return Registration(
        name, SOURCE, base=_base(spec, name),
        hierarchical=bool(spec.get("hierarchical")) and bool(rewrite.get("hierarchical")),
        query_var=query_var if isinstance(query_var, str) else "",
        rewrite=bool(rewrite))


def read_companion(value: str | None) -> Companion | None:
    """Parse the option; None when the companion never wrote it (or it is unreadable)."""
    data = as_dict(unserialize(value, OPTION)) if value else {}
    if not data or not isinstance(data.get("post_types"), dict):
        return None
    front, root = str(data.get("front") or "/"), str(data.get("root") or "")
    return Companion(
        {str(n): _post_type(str(n), as_dict(s), front, root)
         for n, s in as_dict(data.get("post_types")).items()},
        {str(n): _taxonomy(str(n), as_dict(s))
         for n, s in as_dict(data.get("taxonomies")).items()},
        as_dict(data.get("languages")))
