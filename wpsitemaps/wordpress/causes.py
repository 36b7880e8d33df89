"""What a database error a person can cause most likely means, in one line.

A wrong password, host, port, database name, a missing GRANT, a wrong table prefix or an
SQLite path that cannot be opened each give a driver error whose text names the symptom, not
the setting to change. `cause()` turns them into one sentence naming the setting; callers
print it prefixed `wpsitemaps:` (commands, start-up) or log it once (requests), and keep the
traceback for DEBUG. Codes are MariaDB/MySQL's (https://mariadb.com/kb/en/mariadb-error-codes/).
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence

from sqlalchemy.engine import make_url

GRANTS_HINT = "run `wpsitemaps grants --user USER --host HOST` and apply its GRANT lines"
_TABLE_RE = re.compile(r"(?i)table [`'\"]?(?:[^`'\".]+[`'\"]?\.[`'\"]?)?([^`'\" ]+)[`'\"]?")


def error_code(exc: BaseException) -> int | None:
    """The server's error number of a driver error (wrapped by SQLAlchemy or not)."""
    orig = getattr(exc, "orig", None) or exc
    args = getattr(orig, "args", ())
    return args[0] if args and isinstance(args[0], int) else None


def driver_message(exc: BaseException) -> str:
    """The driver's own message, without SQLAlchemy's SQL and background link."""
    orig = getattr(exc, "orig", None) or exc
    args: tuple[object, ...] = tuple(getattr(orig, "args", ()))
    if len(args) >= 2 and isinstance(args[0], int):
        return str(args[1])
    return str(orig).split("\n", 1)[0]


def denied(exc: BaseException) -> bool:
    """Whether the error is a missing SELECT grant on a table or a column (1142, 1143)."""
    return error_code(exc) in (1142, 1143)


def missing_table(exc: BaseException) -> bool:
    """Whether the error says a table does not exist (MariaDB 1146, SQLite 'no such table')."""
    return error_code(exc) == 1146 or "no such table" in driver_message(exc)


def table_of(exc: BaseException) -> str | None:
    """The table an error names, when it names one."""
    text = driver_message(exc)
    if "no such table:" in text:
        return text.rsplit(":", 1)[1].strip()
    found = _TABLE_RE.search(text)
    return found.group(1) if found else None


def cause(exc: BaseException, database_url: str, table_prefix: str = "wp_",
          prefix_exists: bool | None = None, others: Sequence[str] = ()) -> str:
    """One line: what went wrong and the setting that most likely fixes it. `prefix_exists`
    says whether `{table_prefix}options` exists (None: not known), `others` names the
    options tables the database does have (their prefixes are the likely right ones)."""
    url = make_url(database_url)
    code, text = error_code(exc), driver_message(exc)
    where = f"{url.host or 'localhost'}:{url.port or 3306}"
    if url.get_backend_name() == "sqlite":
        return _sqlite(text, url.database or "", table_prefix, prefix_exists, others)
    if code == 1045:
        return (f"the database refused user {url.username!r} (error 1045: wrong user name or "
                f"password): check the user and password in database_url")
    if code in (2003, 2005, 2006, 2013) and not _timed_out(text):
        return (f"cannot reach a database server at {where} (error {code}: {text}): check the "
                "host and port in database_url, and that the server is running")
    if code == 1049:
        return (f"the server at {where} has no database {url.database!r} (error 1049): "
                "check the database name in database_url")
    if code == 1044:
        return (f"user {url.username!r} may not use database {url.database!r} (error 1044): "
                f"check the database name in database_url, or {GRANTS_HINT}")
    if code in (1142, 1143):
        table = table_of(exc)
        if prefix_exists is False and table == f"{table_prefix}options":
            return _missing(table, table_prefix, prefix_exists, code, others).replace(
                "does not exist", f"cannot be read by user {url.username!r} and is not in "
                "the tables it sees")
        return (f"user {url.username!r} may not read table {table} (error {code}: "
                f"missing GRANT): {GRANTS_HINT}")
    if code == 1146:
        table = table_of(exc) or "?"
        if table == f"{table_prefix}options":  # every site has one: the prefix is wrong
            prefix_exists = False
        return _missing(table, table_prefix, prefix_exists, code, others)
    return f"cannot read the database ({exc.__class__.__name__}: {text})"


def _timed_out(text: str) -> bool:
    return "timed out" in text.lower()


def _missing(table: str, prefix: str, prefix_exists: bool | None, code: int | None,
             others: Sequence[str] = ()) -> str:
    head = f"table {table} does not exist" + (f" (error {code})" if code else "")
    if prefix_exists is False:
        found = ", ".join(repr(name[: -len("options")]) for name in others)
        seen = f"; this database has tables with the prefix {found}" if found else ""
        return (f"{head}: check the table prefix (table_prefix = {prefix!r}, $table_prefix "
                f"in wp-config.php){seen}")
    return f"{head}: check the table prefix ({prefix!r}) and that the plugin's tables exist"


def _sqlite(text: str, path: str, prefix: str, prefix_exists: bool | None,
            others: Sequence[str]) -> str:
    resolved = os.path.abspath(path) if path else "(no path)"
    if "no such table" in text:
        table = text.rsplit(":", 1)[1].strip()
        if table == f"{prefix}options":
            prefix_exists = False
        return _missing(table, prefix, prefix_exists, None, others)
    if "unable to open" in text or "not a database" in text:
        state = ("does not exist" if not os.path.exists(resolved) else
                 "is not a readable SQLite database")
        return (f"cannot open the SQLite database {resolved} ({state}): check the path in "
                "database_url (relative paths start from the working directory)")
    return f"cannot read the SQLite database {resolved} ({text})"
