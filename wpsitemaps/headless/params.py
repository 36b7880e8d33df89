"""Query parameters of GET /api/sitemap: presence, shape and normalisation (no database).

Each failure aborts with 400 and a short plain message that starts with the parameter's name
("baseUrl: must not contain a query"). What needs the database (is the data type known, does
the site serve the language) is checked in api.py.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from ipaddress import IPv4Address
from ipaddress import IPv6Address
from typing import NoReturn
from urllib.parse import urlsplit

from flask import abort
from werkzeug.datastructures import MultiDict

from wpsitemaps.content.urls import encode_url
from wpsitemaps.headless.config import LANGUAGES
from wpsitemaps.headless.config import MAX_EXPERIENCE_LENGTH
from wpsitemaps.headless.config import HeadlessConfig

PARAMS = ("baseUrl", "dataType", "experience", "language", "page")
REQUIRED = PARAMS[:4]
MAX_BASE_URL = 1024
MAX_DATA_TYPE = 64
PAGE_RE = re.compile(r"^[1-9][0-9]{0,8}$")
CONTROL_OR_SPACE = re.compile(r"[\x00-\x20\x7f-\x9f\s]")
# A DNS label after IDNA (RFC 1123 2.1, RFC 5890): letters, digits, inner hyphens.
LABEL = re.compile(r"^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$")


@dataclass(frozen=True)
class ApiParams:
    """A well-formed request (the data type and language are not resolved yet)."""

    base_url: str
    data_type: str
    experience: str
    language: str
    page: int | None = None


def bad(message: str) -> NoReturn:
    """Answer 400 with a short plain message."""
    abort(400, message)


def _printable(name: str) -> str:
    """A parameter name fit to echo: control characters dropped, at most 40 characters."""
    clipped = CONTROL_OR_SPACE.sub("", name)[:40]
    return clipped or "(empty)"


def parse_params(args: MultiDict[str, str], cfg: HeadlessConfig) -> ApiParams:
    """Validate the query string; abort(400) naming the first bad parameter."""
    for name in args:
        if name not in PARAMS:
            bad(f"unknown parameter: {_printable(name)}")
        if len(args.getlist(name)) > 1:
            bad(f"{name}: given more than once")
    for name in REQUIRED:
        if not args.get(name, "").strip():
            bad(f"{name}: required")
    data_type = args["dataType"].strip()
    if len(data_type) > MAX_DATA_TYPE:
        bad(f"dataType: longer than {MAX_DATA_TYPE} characters")
    experience = args["experience"]
    if len(experience) > MAX_EXPERIENCE_LENGTH:
        bad(f"experience: longer than {MAX_EXPERIENCE_LENGTH} characters")
    if experience not in cfg.experiences:
        bad("experience: unknown experience")
    language = args["language"]
    if language not in LANGUAGES:
        bad("language: must be one of " + ", ".join(LANGUAGES))
    if language not in cfg.languages:
        bad("language: not served by this site")
    page = args.get("page")
    if page is not None and not PAGE_RE.match(page):
        bad("page: must be an integer >= 1")
    return ApiParams(normalise_base_url(args["baseUrl"]), data_type, experience, language,
                     int(page) if page is not None else None)


def normalise_base_url(value: str) -> str:
    """Check baseUrl (absolute http(s), no user info, query or fragment) and normalise it.

    The scheme and host are lower-cased, an international host becomes IDNA (punycode), the
    path is percent-encoded where RFC 3986 requires it and trailing slashes are removed.
    """
    if len(value) > MAX_BASE_URL:
        bad(f"baseUrl: longer than {MAX_BASE_URL} characters")
    if CONTROL_OR_SPACE.search(value):
        bad("baseUrl: must not contain spaces or control characters")
    parts = urlsplit(value)
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        bad("baseUrl: must be an absolute http or https URL")
    if "@" in parts.netloc:
        bad("baseUrl: must not contain user info")
    if "#" in value:
        bad("baseUrl: must not contain a fragment")
    if "?" in value:
        bad("baseUrl: must not contain a query")
    try:
        port = parts.port
    except ValueError:
        bad("baseUrl: invalid port: must be a number from 1 to 65535")
    if port == 0:
        bad("baseUrl: invalid port: must be a number from 1 to 65535")
    try:
        host = valid_host(parts.hostname or "")
    except (ValueError, UnicodeError):
        bad("baseUrl: invalid host")
    netloc = host + (f":{port}" if port is not None else "")
    return f"{parts.scheme.lower()}://{netloc}{encode_url(parts.path)}".rstrip("/")


def valid_host(hostname: str) -> str:
    """The host as it goes into URLs: an IP address (IPv6 in brackets) or a DNS name in
    IDNA, each label valid and each 'xn--' label valid punycode; ValueError/UnicodeError
    otherwise (a percent-escape such as '%FF%FE', '_', an empty label, a bad 'xn--')."""
    if ":" in hostname:
        return f"[{IPv6Address(hostname).compressed}]"
    host = hostname.encode("idna").decode("ascii").lower()
    labels = host.split(".")
    if not host or len(host) > 253 or not all(LABEL.match(label) for label in labels):
        raise ValueError(hostname)
    if labels[-1].isdigit():
        # A name ending in a number is an IPv4 address or nothing (WHATWG URL: '999.1.1.1').
        return str(IPv4Address(host))
    for label in labels:
        # A punycode label must decode, and encode back to itself (no 'xn--zz').
        if label.startswith("xn--") and label.encode("ascii").decode("idna").encode(
                "idna").decode("ascii") != label:
            raise ValueError(label)
    return host
