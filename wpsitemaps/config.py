"""Settings: defaults, WPSITEMAPS_* environment variables, an optional TOML file, validation.

Precedence (lowest first): defaults, the TOML file named by WPSITEMAPS_CONFIG, environment
variables, the mapping passed to create_app(). Every problem is reported as a ConfigError
whose message names the setting, so start-up can stop with one clear line.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from dataclasses import replace
from typing import Any
from urllib.parse import urlsplit

PREFIX_RE = re.compile(r"^[A-Za-z0-9_]+$")
NAMESPACE_RE = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9_.-]{0,63}")
MAX_ENTRIES_PER_PAGE = 50_000
ENV_PREFIX = "WPSITEMAPS_"


class ConfigError(ValueError):
    """A setting is missing or invalid; the message names it."""


@dataclass(frozen=True)
class TypeConfig:
    """Registration facts of a post type or taxonomy that the database cannot tell us."""

    rewrite_slug: str | None = None
    hierarchical: bool | None = None
    has_archive: bool | str | None = None
    exclude: bool = False


@dataclass(frozen=True)
class Settings:
    """Validated, immutable configuration of one app."""

    database_url: str
    table_prefix: str = "wp_"
    base_prefix: str | None = None
    entries_per_page: int = 1000
    home_url: str | None = None
    post_types: Mapping[str, TypeConfig] = field(default_factory=dict)
    taxonomies: Mapping[str, TypeConfig] = field(default_factory=dict)
    trust_rewrite_rules: bool = False
    author_base: str = "author"
    now: str | None = None
    news_post_types: tuple[str, ...] = ("post",)
    news_name: str | None = None
    news_excluded_categories: tuple[str, ...] = ()
    pool_recycle: int = 280
    cache_ttl: int = 300
    video_default_thumbnail: str | None = None
    # The rendered-page store (issue #13): 'off', a directory, or a redis:// URL.
    store: str = "off"
    store_max_mb: int = 1024
    store_window: float = 2.0
    store_namespace: str | None = None
    # Time bounds on the database (issue #22): what a request may wait in all, what a
    # background refresh, an export or a command may wait, and how long past cache_ttl a
    # stored document is still served when the database fails.
    db_timeout: float = 4.0
    db_background_timeout: float = 600.0
    stale_if_error: int = 21_600
    extra: Mapping[str, Any] = field(default_factory=dict)
    # Multisite (issue #17): None = serve the whole network when `{base}blogs` exists,
    # False = one site per process; per-site settings ([sites.N] tables, by blog_id);
    # how many site contexts a network service keeps.
    network: bool | None = None
    sites: Mapping[int, Settings] = field(default_factory=dict)
    site_cache_size: int = 100
    # The SEO plugins whose markers count (issue #24): empty = those in active_plugins.
    seo_plugins: tuple[str, ...] = ()
    # Where Prometheus metrics are served (issue #25): 'host:port' of a listener of their
    # own, never the public address; None (the default, "off") serves none.
    metrics_bind: str | None = None
    # IndexNow (issue #27): endpoints to submit changed URLs to (empty: off), the key (None:
    # generated once and kept in the store), the batching window, the back-off bounds after
    # a 429 or 5xx, and how often stored sitemaps are revalidated to find changes (seconds).
    indexnow_endpoints: tuple[str, ...] = ()
    indexnow_key: str | None = None
    indexnow_batch_window: float = 5.0
    indexnow_backoff_min: float = 10.0
    indexnow_backoff_max: float = 3600.0
    indexnow_sweep: float = 20.0
    # How a stored page outside store_window learns that nothing changed (issue #26):
    # 'check' (a site-level check), 'none' (the page's own fingerprint every time), or the
    # event sources trusted while live ('plugin', 'binlog', comma-separated).
    change_source: str = "check"
    # The event sources themselves (issue #26): the companion plugin's signed notifications
    # (None: the endpoint answers 404) and the binary log (None: not read).
    notify_secret: str | None = None
    notify_path: str = "/.well-known/wpsitemaps/notify"
    binlog_url: str | None = None
    binlog_server_id: int = 4217
    # WebSub (W3C; issue #27): hubs the feeds name in rel="hub" and ping when they change
    # (empty: off), on IndexNow's outbox, submitter and sweeper (docs/websub.md).
    websub_hubs: tuple[str, ...] = ()

    def for_site(self, blog_id: int, table_prefix: str, base_prefix: str) -> Settings:
        """The settings of one site of a network: its [sites.N] overrides and its tables."""
        # A top-level home_url names one site's public URL: on a network it only applies
        # where a [sites.N] table sets it.
        own = self.sites.get(blog_id) or replace(self, home_url=None)
        return replace(own, table_prefix=table_prefix, base_prefix=base_prefix, sites={})


# Keys accepted in create_app() mappings, the TOML file and (upper-cased, prefixed) the
# environment. Anything else in the TOML file is an error: a typo must not pass silently.
SCALAR_KEYS = {
    "database_url": str,
    "table_prefix": str,
    "base_prefix": str,
    "entries_per_page": int,
    "home_url": str,
    "trust_rewrite_rules": bool,
    "author_base": str,
    "now": str,
    "news_name": str,
    "pool_recycle": int,
    "cache_ttl": int,
    "video_default_thumbnail": str,
    "store": str,
    "store_max_mb": int,
    "store_window": float,
    "store_namespace": str,
    "db_timeout": float,
    "db_background_timeout": float,
    "stale_if_error": int,
    "network": bool,
    "site_cache_size": int,
    "metrics_bind": str,
    "indexnow_key": str,
    "indexnow_batch_window": float,
    "indexnow_backoff_min": float,
    "indexnow_backoff_max": float,
    "indexnow_sweep": float,
    "change_source": str,
    "notify_secret": str,
    "notify_path": str,
    "binlog_url": str,
    "binlog_server_id": int,
}
LIST_KEYS = {"news_post_types", "news_excluded_categories", "exclude_post_types",
             "exclude_taxonomies", "seo_plugins", "indexnow_endpoints",
             "websub_hubs"}
TABLE_KEYS = {"post_types", "taxonomies", "sites"}
# What a [sites.N] table cannot change: the database and the network's own layout.
NETWORK_ONLY_KEYS = {"database_url", "table_prefix", "base_prefix", "network",
                     "site_cache_size", "sites", "pool_recycle", "cache_ttl", "db_timeout",
                     "db_background_timeout", "stale_if_error", "metrics_bind",
                     "indexnow_endpoints",
                     "indexnow_key", "indexnow_batch_window", "indexnow_backoff_min",
                     "indexnow_backoff_max", "indexnow_sweep",
                     "change_source", "notify_secret", "notify_path",
                     "binlog_url", "binlog_server_id", "websub_hubs"}
EXTRA_KEYS = {"headless", "robots", "feeds"}


def load_settings(overrides: Mapping[str, Any] | None = None,
                  environ: Mapping[str, str] | None = None) -> Settings:
    """Merge defaults, TOML file, environment and overrides into validated Settings."""
    env = os.environ if environ is None else environ
    raw: dict[str, Any] = {}
    path = (overrides or {}).get("CONFIG") or env.get(ENV_PREFIX + "CONFIG")
    if path:
        raw.update(_read_toml(str(path)))
    for key in SCALAR_KEYS.keys() | LIST_KEYS:
        value = env.get(ENV_PREFIX + key.upper())
        if value is not None:
            raw[key] = value
    for key, value in (overrides or {}).items():
        low = key.lower()
        if low in SCALAR_KEYS or low in LIST_KEYS or low in TABLE_KEYS or low in EXTRA_KEYS:
            raw[low] = value
    return _build(raw, env)


def _site_settings(raw: dict[str, Any], env: Mapping[str, str]) -> dict[int, Settings]:
    """[sites.N] tables: each site's settings are the top-level ones plus its own keys."""
    value = raw.get("sites") or {}
    if not isinstance(value, Mapping):
        raise ConfigError("sites: expected tables named by blog_id ([sites.2])")
    base = {k: v for k, v in raw.items() if k not in ("sites", "home_url")}
    out: dict[int, Settings] = {}
    for key, table in value.items():
        text = str(key)
        if not (text.isdigit() and text.isascii()) or int(text) < 1:
            raise ConfigError(f"sites.{text}: a site is named by its blog_id (1, 2, ...)")
        if not isinstance(table, Mapping):
            raise ConfigError(f"sites.{text}: expected a table")
        known = SCALAR_KEYS.keys() | LIST_KEYS | TABLE_KEYS | EXTRA_KEYS
        for name in table:
            low = str(name).lower()
            if low in NETWORK_ONLY_KEYS or low not in known:
                raise ConfigError(f"sites.{text}: {name!r} cannot be set per site")
        out[int(text)] = _build({**base, **{str(k).lower(): v for k, v in table.items()}}, env)
    return out


def _read_toml(path: str) -> dict[str, Any]:
    """Read the TOML configuration file; unknown keys are errors."""
    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except OSError as exc:
        raise ConfigError(f"WPSITEMAPS_CONFIG: cannot read {path}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"WPSITEMAPS_CONFIG: {path} is not valid TOML: {exc}") from None
    known = SCALAR_KEYS.keys() | LIST_KEYS | TABLE_KEYS | EXTRA_KEYS
    for key in data:
        if key not in known:
            raise ConfigError(f"WPSITEMAPS_CONFIG: unknown setting {key!r} in {path}")
    return data


def _build(raw: dict[str, Any], env: Mapping[str, str]) -> Settings:
    """Validate raw values and build Settings."""
    url = raw.get("database_url")
    if not url:
        raise ConfigError("WPSITEMAPS_DATABASE_URL: not set (e.g. sqlite:///wordpress.sqlite)")
    url = str(url)
    if not url.startswith(("mysql+pymysql://", "mariadb+pymysql://", "sqlite://")):
        raise ConfigError(
            "WPSITEMAPS_DATABASE_URL: must start with mysql+pymysql://, mariadb+pymysql:// or sqlite://"
        )
    prefix = _prefix(raw.get("table_prefix", "wp_"), "WPSITEMAPS_TABLE_PREFIX")
    base = raw.get("base_prefix")
    base_prefix = _prefix(base, "WPSITEMAPS_BASE_PREFIX") if base else None
    per_page = _int(raw.get("entries_per_page", 1000), "WPSITEMAPS_ENTRIES_PER_PAGE")
    if not 1 <= per_page <= MAX_ENTRIES_PER_PAGE:
        raise ConfigError(f"WPSITEMAPS_ENTRIES_PER_PAGE: {per_page} is outside 1..50000")
    home = raw.get("home_url")
    home_url = _home(str(home)) if home else None
    post_types = _types(raw.get("post_types", {}), "post_types")
    taxonomies = _types(raw.get("taxonomies", {}), "taxonomies")
    post_types = _excluded(post_types, raw.get("exclude_post_types"))
    taxonomies = _excluded(taxonomies, raw.get("exclude_taxonomies"))
    return Settings(
        database_url=url,
        table_prefix=prefix,
        base_prefix=base_prefix,
        entries_per_page=per_page,
        home_url=home_url,
        post_types=post_types,
        taxonomies=taxonomies,
        trust_rewrite_rules=_bool(raw.get("trust_rewrite_rules", False), "trust_rewrite_rules"),
        author_base=str(raw.get("author_base", "author")).strip("/") or "author",
        now=str(raw["now"]) if raw.get("now") not in (None, "") else None,
        news_post_types=_list(raw.get("news_post_types", ("post",)), "news_post_types"),
        news_name=str(raw["news_name"]) if raw.get("news_name") else None,
        news_excluded_categories=_list(raw.get("news_excluded_categories", ()),
                                       "news_excluded_categories"),
        pool_recycle=_int(raw.get("pool_recycle", 280), "WPSITEMAPS_POOL_RECYCLE"),
        cache_ttl=_at_least(raw.get("cache_ttl", 300), "WPSITEMAPS_CACHE_TTL", 0),
        video_default_thumbnail=_absolute(raw.get("video_default_thumbnail"),
                                          "WPSITEMAPS_VIDEO_DEFAULT_THUMBNAIL"),
        store=_store(raw.get("store"), env),
        store_max_mb=_at_least(raw.get("store_max_mb", 1024), "WPSITEMAPS_STORE_MAX_MB", 1),
        store_window=_seconds(raw.get("store_window", 2.0), "WPSITEMAPS_STORE_WINDOW"),
        store_namespace=_namespace(raw.get("store_namespace")),
        db_timeout=_limit(raw.get("db_timeout", 4.0), "WPSITEMAPS_DB_TIMEOUT"),
        db_background_timeout=_limit(raw.get("db_background_timeout", 600.0),
                                     "WPSITEMAPS_DB_BACKGROUND_TIMEOUT"),
        stale_if_error=_at_least(raw.get("stale_if_error", 21_600),
                                 "WPSITEMAPS_STALE_IF_ERROR", 0),
        extra={k: raw[k] for k in EXTRA_KEYS if k in raw},
        network=_bool(raw["network"], "WPSITEMAPS_NETWORK")
        if raw.get("network") not in (None, "", "auto") else None,
        sites=_site_settings(raw, env),
        site_cache_size=_at_least(raw.get("site_cache_size", 100),
                                  "WPSITEMAPS_SITE_CACHE_SIZE", 1),
        seo_plugins=_list(raw.get("seo_plugins", ()), "seo_plugins"),
        metrics_bind=_bind(raw.get("metrics_bind"), "WPSITEMAPS_METRICS_BIND"),
        **_indexnow(raw),
        change_source=_change_source(raw.get("change_source")),
        notify_secret=_secret(raw.get("notify_secret")),
        notify_path=_path(raw.get("notify_path", "/.well-known/wpsitemaps/notify"),
                          "WPSITEMAPS_NOTIFY_PATH"),
        binlog_url=_binlog_url(raw.get("binlog_url")),
        binlog_server_id=_at_least(raw.get("binlog_server_id", 4217),
                                   "WPSITEMAPS_BINLOG_SERVER_ID", 1),
        websub_hubs=tuple(dict.fromkeys(
            _absolute(hub, "WPSITEMAPS_WEBSUB_HUBS") or hub
            for hub in _list(raw.get("websub_hubs", ()), "WPSITEMAPS_WEBSUB_HUBS"))),
    )


def _bind(value: Any, name: str) -> str | None:
    """'host:port' (an IPv6 host in brackets) with a port in 1..65535; 'off' or '' -> None."""
    text = str(value or "").strip()
    if text.lower() in ("", "off"):
        return None
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or not 1 <= int(port) <= 65535:
        raise ConfigError(f"{name}: {text!r} must be host:port with a port in 1..65535 "
                          "(e.g. 127.0.0.1:9102), or off")
    if ":" in host and not (host.startswith("[") and host.endswith("]")):
        raise ConfigError(f"{name}: {text!r}: write an IPv6 address in brackets, "
                          "e.g. [::1]:9102")
    return text


INDEXNOW_DEFAULT = "https://api.indexnow.org/indexnow"
INDEXNOW_KEY_RE = re.compile(r"[A-Za-z0-9-]{8,128}")


def _indexnow(raw: dict[str, Any]) -> dict[str, Any]:
    """The IndexNow settings: endpoints ('on' names the shared api.indexnow.org one), a key
    of 8-128 [A-Za-z0-9-], the batching window and the back-off bounds."""
    endpoints = []
    for item in _list(raw.get("indexnow_endpoints", ()), "WPSITEMAPS_INDEXNOW_ENDPOINTS"):
        url = INDEXNOW_DEFAULT if item.lower() in ("on", "default") else item
        endpoints.append(_absolute(url, "WPSITEMAPS_INDEXNOW_ENDPOINTS") or url)
    key = raw.get("indexnow_key")
    if key not in (None, "") and not INDEXNOW_KEY_RE.fullmatch(str(key)):
        raise ConfigError("WPSITEMAPS_INDEXNOW_KEY: must be 8 to 128 of A-Z, a-z, 0-9 and '-'")
    low = _seconds(raw.get("indexnow_backoff_min", 10.0), "WPSITEMAPS_INDEXNOW_BACKOFF_MIN")
    high = _seconds(raw.get("indexnow_backoff_max", 3600.0), "WPSITEMAPS_INDEXNOW_BACKOFF_MAX")
    if high < low:
        raise ConfigError("WPSITEMAPS_INDEXNOW_BACKOFF_MAX: must not be below "
                          "indexnow_backoff_min")
    sweep = _seconds(raw.get("indexnow_sweep", 20.0), "WPSITEMAPS_INDEXNOW_SWEEP")
    return {"indexnow_endpoints": tuple(dict.fromkeys(endpoints)),
            "indexnow_key": str(key) if key not in (None, "") else None,
            "indexnow_batch_window": _seconds(raw.get("indexnow_batch_window", 5.0),
                                              "WPSITEMAPS_INDEXNOW_BATCH_WINDOW"),
            "indexnow_backoff_min": low, "indexnow_backoff_max": high,
            "indexnow_sweep": max(sweep, 1.0)}


def _change_source(value: Any) -> str:
    """'check', 'none', or comma-separated event source names ('plugin,binlog')."""
    text = str(value if value is not None else "").strip().lower() or "check"
    names = [n.strip() for n in text.split(",")]
    if not all(re.fullmatch(r"[a-z0-9_-]{1,40}", n) for n in names) or (
            len(names) > 1 and ({"check", "none"} & set(names))):
        raise ConfigError(f"WPSITEMAPS_CHANGE_SOURCE: {text!r} is not 'check', 'none' or a "
                          "comma-separated list of event sources ('plugin,binlog')")
    return ",".join(names)


def event_sources(settings: Settings) -> tuple[str, ...]:
    """The event sources `change_source` names (none for 'check' and 'none')."""
    if settings.change_source in ("check", "none"):
        return ()
    return tuple(settings.change_source.split(","))


def _secret(value: Any) -> str | None:
    """The plugin's shared secret: at least 32 characters (a guessable one signs anything)."""
    if value in (None, ""):
        return None
    text = str(value)
    if len(text) < 32:
        raise ConfigError("WPSITEMAPS_NOTIFY_SECRET: use at least 32 random characters "
                          "(e.g. `openssl rand -hex 32`)")
    return text


def _path(value: Any, name: str) -> str:
    """An absolute URL path of letters, digits and -._~/ (a route)."""
    text = str(value).strip()
    if not re.fullmatch(r"(/[A-Za-z0-9._~-]+)+", text):
        raise ConfigError(f"{name}: {text!r} must be a path like /.well-known/wpsitemaps/notify")
    return text


def _binlog_url(value: Any) -> str | None:
    """mysql://user:password@host:port/database of a user with REPLICATION SLAVE and
    REPLICATION CLIENT (the database is the WordPress one)."""
    if value in (None, ""):
        return None
    text = str(value).strip()
    if not re.fullmatch(r"(mysql|mariadb)(\+pymysql)?://[^/]+/[^/?]+(\?.*)?", text):
        raise ConfigError("WPSITEMAPS_BINLOG_URL: expected mysql://user:password@host:3306/"
                          "database (a user with REPLICATION SLAVE, REPLICATION CLIENT)")
    return text


def default_store_dir(environ: Mapping[str, str] | None = None) -> str:
    """Where pages are stored by default: $XDG_CACHE_HOME/wpsitemaps/pages, else
    ~/.cache/wpsitemaps/pages (a per-user directory, never a guessable path in /tmp)."""
    env = os.environ if environ is None else environ
    base = env.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "wpsitemaps", "pages")


def _store(value: Any, env: Mapping[str, str]) -> str:
    """'off', a redis:// / rediss:// / unix:// URL, or a directory (default: the user's cache)."""
    if value is None or str(value).strip() == "":
        return default_store_dir(env)
    text = str(value).strip()
    if text.lower() in ("off", "none", "0", "false", "no"):
        return "off"
    if "://" in text and not text.startswith(("redis://", "rediss://", "unix://", "file://")):
        raise ConfigError(f"WPSITEMAPS_STORE: {text.split('://')[0]}:// is not supported "
                          "(use a directory, redis://, rediss://, unix:// or off)")
    if text.startswith("file://"):
        text = text[len("file://"):]
    return text if "://" in text else os.path.abspath(os.path.expanduser(text))


def _at_least(value: Any, name: str, low: int) -> int:
    """An integer >= low."""
    number = _int(value, name)
    if number < low:
        raise ConfigError(f"{name}: {number} must be {low} or more")
    return number


def _seconds(value: Any, name: str) -> float:
    """A number of seconds >= 0 (fractions allowed)."""
    if isinstance(value, bool):
        raise ConfigError(f"{name}: {value!r} is not a number of seconds")
    try:
        number = float(str(value).strip())
    except ValueError:
        raise ConfigError(f"{name}: {value!r} is not a number of seconds") from None
    if not 0 <= number < 86_400:
        raise ConfigError(f"{name}: {number:g} must be between 0 and 86400")
    return number


def _limit(value: Any, name: str) -> float:
    """A time limit on the database: seconds, at least 0.1 (there is no 'no limit')."""
    number = _seconds(value, name)
    if number < 0.1:
        raise ConfigError(f"{name}: {number:g} must be at least 0.1 seconds")
    return number


def _namespace(value: Any) -> str | None:
    """An explicit store namespace: letters, digits, '_', '-' and '.' (it is a key part)."""
    if value in (None, ""):
        return None
    text = str(value)
    if not NAMESPACE_RE.fullmatch(text):
        raise ConfigError(f"WPSITEMAPS_STORE_NAMESPACE: {text!r} must match [A-Za-z0-9_.-]{{1,64}}"
                          " and not start with '.'")
    return text


def _prefix(value: Any, name: str) -> str:
    """A table prefix is letters, digits and underscores only (it is pasted into SQL)."""
    text = str(value)
    if not PREFIX_RE.match(text):
        raise ConfigError(f"{name}: {text!r} must match ^[A-Za-z0-9_]+$")
    return text


def _int(value: Any, name: str) -> int:
    """Parse an integer setting."""
    if isinstance(value, bool):
        raise ConfigError(f"{name}: {value!r} is not an integer")
    try:
        return int(str(value).strip())
    except ValueError:
        raise ConfigError(f"{name}: {value!r} is not an integer") from None


def _bool(value: Any, name: str) -> bool:
    """Parse a boolean setting (true/false/1/0/yes/no)."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off", ""):
        return False
    raise ConfigError(f"{name}: {value!r} is not a boolean")


def _list(value: Any, name: str) -> tuple[str, ...]:
    """A list setting: a TOML array or a comma-separated string."""
    if isinstance(value, str):
        return tuple(part.strip() for part in value.split(",") if part.strip())
    if isinstance(value, list | tuple):
        return tuple(str(part) for part in value)
    raise ConfigError(f"{name}: expected a list, got {value!r}")


def _absolute(value: Any, name: str) -> str | None:
    """An optional absolute http(s) URL."""
    if value in (None, ""):
        return None
    parts = urlsplit(str(value))
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ConfigError(f"{name}: {value!r} is not an absolute http(s) URL")
    return str(value)


def _home(value: str) -> str:
    """A home URL override: absolute http(s), no query or fragment, no trailing slash."""
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ConfigError(f"WPSITEMAPS_HOME_URL: {value!r} is not an absolute http(s) URL")
    if parts.query or parts.fragment:
        raise ConfigError(f"WPSITEMAPS_HOME_URL: {value!r} must not have a query or fragment")
    return value.rstrip("/")


def _types(value: Any, name: str) -> dict[str, TypeConfig]:
    """Parse a [post_types.NAME] / [taxonomies.NAME] table."""
    if not isinstance(value, Mapping):
        raise ConfigError(f"{name}: expected a table of names")
    out: dict[str, TypeConfig] = {}
    for type_name, spec in value.items():
        if not isinstance(spec, Mapping):
            raise ConfigError(f"{name}.{type_name}: expected a table")
        unknown = set(spec) - {"rewrite_slug", "hierarchical", "has_archive", "exclude"}
        if unknown:
            raise ConfigError(f"{name}.{type_name}: unknown key {sorted(unknown)[0]!r}")
        slug = spec.get("rewrite_slug")
        out[str(type_name)] = TypeConfig(
            rewrite_slug=str(slug).strip("/") if slug is not None else None,
            hierarchical=_bool(spec["hierarchical"], f"{name}.{type_name}.hierarchical")
            if "hierarchical" in spec else None,
            has_archive=spec.get("has_archive"),
            exclude=_bool(spec.get("exclude", False), f"{name}.{type_name}.exclude"),
        )
    return out


def _excluded(types: dict[str, TypeConfig], names: Any) -> dict[str, TypeConfig]:
    """Apply an exclude_* list on top of the per-type tables."""
    if not names:
        return types
    out = dict(types)
    for name in _list(names, "exclude"):
        current = out.get(name, TypeConfig())
        out[name] = TypeConfig(current.rewrite_slug, current.hierarchical,
                               current.has_archive, exclude=True)
    return out
