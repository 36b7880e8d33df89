"""The start-up check `serve` and `check` run: can the configured user read every table this
site's configuration will read (wordpress/readiness.py), and what to do when it cannot.

A required table that cannot be read stops `serve` with one line naming it and the fix (every
request would fail otherwise); an optional one is named in one loud line and skipped (the
code reading it degrades, never a 503 per request). A server that cannot be reached at all
does not stop `serve`: that may be an outage, during which stored documents are still served.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field

from sqlalchemy import Connection
from sqlalchemy.exc import SQLAlchemyError

from wpsitemaps.config import Settings
from wpsitemaps.wordpress import readiness
from wpsitemaps.wordpress.causes import cause
from wpsitemaps.wordpress.causes import error_code
from wpsitemaps.wordpress.causes import missing_table
from wpsitemaps.wordpress.db import make_engine
from wpsitemaps.wordpress.network import blog_prefix
from wpsitemaps.wordpress.queries import network as qnet
from wpsitemaps.wordpress.queries import options as qo
from wpsitemaps.wordpress.readiness import Need
from wpsitemaps.wordpress.readiness import Unreadable
from wpsitemaps.wordpress.schema import build_tables

PLUGIN_OPTIONS = ("woocommerce_version", "woocommerce_permalinks", "icl_sitepress_settings",
                  "active_plugins")
# Errors that mean "not reachable now" rather than "configured wrong".
UNREACHABLE = (2003, 2005, 2006, 2013)


@dataclass
class Report:
    """The tables this site reads and those the configured user cannot."""

    settings: Settings
    needs: list[Need] = field(default_factory=list)
    unreadable: list[Unreadable] = field(default_factory=list)
    prefix_exists: bool | None = None
    # With a wrong prefix: the options tables the database has (their prefixes).
    others: list[str] = field(default_factory=list)

    @property
    def blocking(self) -> list[Unreadable]:
        """Required tables that cannot be read: nothing can be served."""
        return [u for u in self.unreadable if u.need.required]

    @property
    def skipped(self) -> list[Unreadable]:
        """Optional tables that cannot be read: served without them."""
        return [u for u in self.unreadable if not u.need.required]

    def stop_line(self) -> str | None:
        """One line naming the first unreadable required table and the fix, or None."""
        if not self.blocking:
            return None
        first = self.blocking[0]
        more = len(self.blocking) - 1
        tail = f" ({more} more required table{'s' if more > 1 else ''} unreadable)" if more else ""
        return (cause(first.error, self.settings.database_url, self.settings.table_prefix,
                      self.prefix_exists, self.others) + f"; needed by {first.need.reads}{tail}")

    def skip_lines(self) -> list[str]:
        """One line per optional table skipped: what it is, why, and what is lost."""
        return [f"warning: {u.need.reads} skipped: "
                f"{cause(u.error, self.settings.database_url, self.settings.table_prefix, True)}"
                f"; until then {u.need.without}" for u in self.skipped]


def site_prefixes(conn: Connection, settings: Settings) -> tuple[list[Need], list[str]]:
    """The network's own needs and the table prefix of every site served."""
    base = settings.base_prefix or settings.table_prefix
    if (settings.network is not False and settings.table_prefix == base
            and qnet.is_network(conn, base)):
        prefixes, after = [], 0
        while rows := qnet.blogs(conn, base, after):
            prefixes += [blog_prefix(base, b.blog_id) for b in rows if not b.gone]
            after = rows[-1].blog_id
        return readiness.network_needs(base), prefixes
    return [], [settings.table_prefix]


def check_tables(conn: Connection, settings: Settings) -> Report:
    """Probe every table the configured sites read, with the configured user."""
    report = Report(settings)
    network, prefixes = site_prefixes(conn, settings)
    report.needs += network
    report.unreadable += readiness.probe(conn, network)
    base = settings.base_prefix or (settings.table_prefix if network else None)
    for prefix in prefixes:
        users_base = base if base != prefix else None
        core = readiness.core_needs(prefix, users_base)
        missing = readiness.probe(conn, core)
        report.needs += core
        report.unreadable += missing
        if any(m.need.table.name == prefix + "options" for m in missing):
            if prefix == settings.table_prefix:
                report.prefix_exists, report.others = prefix_facts(conn, prefix)
            continue
        raw = qo.options(conn, build_tables(prefix, users_base), PLUGIN_OPTIONS)
        plugins = readiness.plugin_needs(prefix, raw)
        report.needs += plugins
        report.unreadable += readiness.probe(conn, plugins)
    return report


def prefix_facts(conn: Connection, prefix: str) -> tuple[bool | None, list[str]]:
    """(whether `{prefix}options` exists, the options tables the user can see), asked when
    it cannot be read. A user granted table by table gets 'denied' for a table that does not
    exist too, so when it sees other options tables and not this one, the prefix is wrong."""
    exists = readiness.options_exist(conn, prefix)
    others = [name for name in qo.options_tables(conn) if name != prefix + "options"]
    if exists is None and others:
        exists = False
    return exists, others if exists is False else []


def startup_check(settings: Settings) -> tuple[Report | None, str | None]:
    """(the report, None), or (None, the one line) when the database cannot be asked at all.

    The line starts with 'unreachable:' when the server did not answer (an outage, maybe)."""
    engine = make_engine(settings)
    try:
        with engine.connect() as conn:
            return check_tables(conn, settings), None
    except SQLAlchemyError as exc:
        line = cause(exc, settings.database_url, settings.table_prefix)
        if unreachable(exc):
            return None, "unreachable: " + line
        return None, line
    finally:
        engine.dispose()


def serve_verdict(settings: Settings) -> tuple[str | None, list[str]]:
    """(the line `serve` stops with, or None; the warning lines it prints and starts with)."""
    report, line = startup_check(settings)
    if line is not None and line.startswith("unreachable: "):
        return None, [f"warning: {line[len('unreachable: '):]}; starting anyway: stored "
                      "documents are served, the others answer 503 until it answers"]
    if line is not None:
        return line, []
    assert report is not None
    return report.stop_line(), report.skip_lines()


def unreachable(exc: BaseException) -> bool:
    """Whether the database did not answer at all (an outage, maybe) rather than refuse: a
    server not reachable, or an SQLite file not there (it may be restored)."""
    text = str(exc).lower()
    return (error_code(exc) in UNREACHABLE or "timed out" in text
            or "unable to open database file" in text)


def grant_lines(report: Report, database: str, user: str, host: str) -> tuple[list[str], list[str]]:
    """(the GRANT SELECT statements for every table the report lists that exists, notes on
    those left out). Users get their read columns only: never the password hash or e-mail."""
    who = f"{_quoted(user)}@{_quoted(host)}"
    absent = {u.need.name for u in report.unreadable if missing_table(u.error)}
    lines: list[str] = []
    notes: list[str] = []
    seen: set[str] = set()
    for need in report.needs:
        if need.name in seen:
            continue
        seen.add(need.name)
        if need.name in absent:
            notes.append(f"{need.name} does not exist: not granted ({need.reads})")
            continue
        target = f"`{database}`.`{need.name}`"
        if need.by_column:
            columns = ", ".join(f"`{c}`" for c in need.columns)
            lines.append(f"GRANT SELECT ({columns}) ON {target} TO {who};")
        else:
            lines.append(f"GRANT SELECT ON {target} TO {who};")
    return lines, notes


def _quoted(value: str) -> str:
    """A MariaDB string literal (user and host names)."""
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"
