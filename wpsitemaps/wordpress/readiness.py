"""Which tables and columns a site's configuration reads, and whether the configured user can.

One list, built from the same Table definitions the queries use (schema.py, plugintables.py),
so start-up, `check` and `wpsitemaps grants` can never disagree with what a request reads:
* required: the core tables (users and usermeta on a network's base prefix), WPML's tables
  when WPML's settings are in the options (its languages and translation groups come from
  them), a network's `blogs`, `site` and `sitemeta`;
* optional: WooCommerce's attribute table when WooCommerce has run (without it the
  attributes come from WooCommerce's cached copy, the `_transient_wc_attribute_taxonomies`
  option, and a newer attribute may be missing).
`probe()` sends one `SELECT <declared columns> ... LIMIT 0` per table with the configured
user: it fails exactly when a request's SELECT would (missing table, GRANT or column).
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import Connection
from sqlalchemy import Table
from sqlalchemy import inspect
from sqlalchemy import select
from sqlalchemy.exc import SQLAlchemyError

from wpsitemaps.wordpress import plugintables
from wpsitemaps.wordpress.limits import transient
from wpsitemaps.wordpress.phpdata import as_dict
from wpsitemaps.wordpress.phpdata import unserialize
from wpsitemaps.wordpress.plugintypes import woocommerce_present
from wpsitemaps.wordpress.schema import build_tables
from wpsitemaps.wordpress.schema import network_tables
from wpsitemaps.wordpress.seoplugins import AIOSEO
from wpsitemaps.wordpress.seoplugins import active_known

CORE = "WordPress core"


@dataclass(frozen=True)
class Need:
    """One table the site reads: who reads it, and what is lost without it (optional)."""

    table: Table
    reads: str
    required: bool = True
    without: str = ""
    # Grant these columns only (users: never the password hash or the e-mail address).
    by_column: bool = False

    @property
    def name(self) -> str:
        """The table's name in the database."""
        return str(self.table.name)

    @property
    def columns(self) -> tuple[str, ...]:
        """The declared columns, the only ones any query reads."""
        return tuple(str(c.name) for c in self.table.columns)


@dataclass(frozen=True)
class Unreadable:
    """A table the configured user cannot read, and the driver's error."""

    need: Need
    error: SQLAlchemyError


def core_needs(prefix: str, base_prefix: str | None = None) -> list[Need]:
    """The core tables of one site (users and usermeta on the network's base prefix)."""
    t = build_tables(prefix, base_prefix)
    tables = (t.options, t.posts, t.postmeta, t.terms, t.term_taxonomy, t.term_relationships,
              t.termmeta, t.users, t.usermeta)
    return [Need(table, CORE, by_column=table is t.users) for table in tables]


def network_needs(base_prefix: str) -> list[Need]:
    """A network's own tables (which site answers where, the network's settings)."""
    n = network_tables(base_prefix)
    return [Need(table, "WordPress multisite") for table in (n.blogs, n.site, n.sitemeta)]


def plugin_needs(prefix: str, raw: Mapping[str, str]) -> list[Need]:
    """The plugin tables this site's options say it reads."""
    out: list[Need] = []
    if woocommerce_present(raw):
        out.append(Need(
            plugintables.woocommerce_attributes(prefix), "WooCommerce product attributes",
            required=False, without="attributes come from WooCommerce's cached copy (option "
            "_transient_wc_attribute_taxonomies); an attribute added since may be missing"))
    if raw.get("icl_sitepress_settings"):
        wpml = plugintables.wpml_tables(prefix)
        out += [Need(wpml.languages, "WPML languages"),
                Need(wpml.translations, "WPML translations")]
    active = as_dict(unserialize(raw.get("active_plugins"), "active_plugins")).values()
    if AIOSEO in active_known(str(v) for v in active):
        # Optional: without it, AIOSEO's per-post noindex and canonical cannot be honoured,
        # which site.py logs and `check` reports; the sitemaps are still served.
        out.append(Need(plugintables.aioseo_posts(prefix), "All in One SEO posts",
                        required=False, without="AIOSEO's per-post noindex and canonical "
                        "settings are not honoured"))
    return out


def probe(conn: Connection, needs: Sequence[Need]) -> list[Unreadable]:
    """The needs the connection's user cannot read (outages and time limits raise)."""
    out: list[Unreadable] = []
    for need in needs:
        try:
            conn.execute(select(*need.table.columns).limit(0)).all()
        except SQLAlchemyError as exc:
            if transient(exc):
                raise
            out.append(Unreadable(need, exc))
    return out


def options_exist(conn: Connection, prefix: str) -> bool | None:
    """Whether `{prefix}options` exists (None: cannot tell): a wrong prefix leaves none."""
    try:
        return bool(inspect(conn).has_table(prefix + "options"))
    except SQLAlchemyError as exc:
        if transient(exc):
            raise
        return None
