"""A WordPress multisite network: its sites (`{base}blogs`), its facts (`{base}site`,
`{base}sitemeta`) and the pure rules WordPress applies to them.

Mirrors wp-includes/ms-load.php (`get_site_by_path()`, `ms_site_check()`) and
`_wp_upload_dir()` (per-site uploads). No SQL here: queries/network.py reads the rows.
"""

from __future__ import annotations

from dataclasses import dataclass

# ms_site_check(): what WordPress answers for a site that is not live (HTTP 410).
DELETED_MESSAGE = "This site is no longer available."
SUSPENDED_MESSAGE = "This site has been archived or suspended."


@dataclass(frozen=True)
class Blog:
    """One row of `{base}blogs`: where a site answers and its status flags."""

    blog_id: int
    site_id: int
    domain: str
    path: str
    public: bool = True
    archived: bool = False
    spam: bool = False
    deleted: int = 0
    mature: bool = False

    @property
    def state(self) -> str:
        """'deleted', 'archived', 'spam', 'not public' or 'live' (ms_site_check()'s order)."""
        if self.deleted:
            return "deleted"
        if self.archived:
            return "archived"
        if self.spam:
            return "spam"
        return "live" if self.public else "not public"

    @property
    def gone(self) -> str | None:
        """The 410 message WordPress answers every URL of this site with, or None if live.

        deleted = 2 ("not activated yet") is a 500 page in WordPress; a sitemap service
        answers it 410 like deleted = 1, so crawlers drop the URLs instead of retrying.
        """
        if self.deleted:
            return DELETED_MESSAGE
        if self.archived or self.spam:
            return SUSPENDED_MESSAGE
        return None

    @property
    def prefix(self) -> str:
        """The site's path without its trailing slash: '' for '/', '/fr' for '/fr/'."""
        return self.path.rstrip("/")


@dataclass(frozen=True)
class Network:
    """The network facts a site's URLs depend on."""

    base_prefix: str
    network_id: int = 1
    domain: str = ""
    path: str = "/"
    subdomain_install: bool = False
    main_site_id: int = 1
    ms_files_rewriting: bool = False
    # `active_sitewide_plugins` (network-activated plugin files): they run on every site.
    sitewide_plugins: tuple[str, ...] = ()


def blog_prefix(base_prefix: str, blog_id: int) -> str:
    """wpdb::get_blog_prefix(): the base prefix for blog 1, `{base}{id}_` otherwise (blog 1
    keeps the plain tables whichever site is the main one)."""
    return base_prefix if blog_id == 1 else f"{base_prefix}{blog_id}_"


def blog_id_of(base_prefix: str, table_prefix: str) -> int | None:
    """The blog a table prefix belongs to: 1 for the base prefix, N for `{base}N_`."""
    if table_prefix == base_prefix:
        return 1
    rest = table_prefix[len(base_prefix):] if table_prefix.startswith(base_prefix) else ""
    if rest.endswith("_") and rest[:-1].isdigit() and rest[:-1].isascii():
        return int(rest[:-1])
    return None


def request_domains(host: str) -> list[str]:
    """Domains to look a request's Host up by, as ms-settings.php and get_site_by_path() do.

    WordPress lower-cases the Host and drops ':80' / ':443'; it also tries the name without
    'www.'. We drop any port as well (kept as the first choice): the service usually listens
    on another port than the one WordPress answers on.
    """
    domain = host.strip().lower()
    out = [domain]
    name, sep, port = domain.rpartition(":")
    if sep and port.isdigit() and "]" not in port:
        out.append(name)
    for item in list(out):
        if item.startswith("www."):
            out.append(item[4:])
    return list(dict.fromkeys(d for d in out if d))


def request_paths(path: str, segments: int = 1) -> list[str]:
    """get_site_by_path()'s candidate paths, longest first: '/a/b/' ... '/a/', '/'.

    `segments` is how many leading path segments can name a site (1 for a network at '/',
    one more per segment of the network's own path), as ms_load_current_site_and_network()
    passes it.
    """
    parts = [p for p in path.lower().split("?", 1)[0].strip("/").split("/") if p][:segments]
    out = []
    while parts:
        out.append("/" + "/".join(parts) + "/")
        parts.pop()
    out.append("/")
    return out


def pick_site(candidates: list[Blog], domains: list[str], paths: list[str]) -> Blog | None:
    """The site get_site_by_path() returns among rows matching any domain and path:
    the longest domain, then the longest path."""
    fitting = [b for b in candidates if b.domain.lower() in domains
               and b.path.lower() in paths]
    if not fitting:
        return None
    return max(fitting, key=lambda b: (len(b.domain), len(b.path), -b.blog_id))


def upload_suffix(network: Network, blog_id: int) -> str:
    """What _wp_upload_dir() appends to a site's upload base URL.

    '/sites/N' for sites other than the main one (networks made since 3.5); old networks
    with `ms_files_rewriting` serve a sub-site's files at '{siteurl}/files' instead ('files').
    """
    if blog_id == network.main_site_id:
        return ""
    if network.ms_files_rewriting:
        return "files"
    return f"/sites/{blog_id}"
