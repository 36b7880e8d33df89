"""WebSub (W3C Recommendation, https://www.w3.org/TR/websub/) for the feeds: the publish
ping to a hub, and what says that a site's feeds changed.

Discovery (WebSub 4) is the feeds' own `rel="hub"` and `rel="self"` links (templates, and
the Link headers section 4 asks for, in web.feeds). How a publisher tells a hub of an
update is left to the two of them (WebSub 6, Publishing: the publisher must inform its
hubs, by any mechanism they agree on); the de-facto ping, accepted by Google's
pubsubhubbub.appspot.com, Superfeedr and websub.rocks, is a form-encoded POST of
`hub.mode=publish` and `hub.url=<topic URL>` (PubSubHubbub 0.3/0.4).

A change is found by the sweeper (the feeds are built per request, not stored, so the page
store's replacement hook never sees them): after sweeping a site it builds the site's feed
and compares its fingerprint with the one kept in the outbox's state; a different one
queues the feed URLs for every hub on IndexNow's outbox, and the submitter pings.
"""

from __future__ import annotations

import hashlib
import urllib.parse

from wpsitemaps.indexnow.protocol import TIMEOUT
from wpsitemaps.indexnow.protocol import Answer
from wpsitemaps.indexnow.protocol import send
from wpsitemaps.serving.service import SiteSession
from wpsitemaps.sitemaps.feeds import FEEDS
from wpsitemaps.sitemaps.feeds import build_feed


class HubAnswer(Answer):
    """A hub's answer: any 2xx is done (hubs answer 204 or 202); any other 4xx but 429
    refuses the ping until the configuration changes; 429, 5xx and no answer back off."""

    @property
    def done(self) -> bool:
        """Accepted (2xx)."""
        return 200 <= self.status < 300

    @property
    def refused(self) -> bool:
        """Refused for good (4xx but 429)."""
        return 400 <= self.status < 500 and self.status != 429


def publish(hub: str, topic: str, timeout: float = TIMEOUT) -> HubAnswer:
    """POST hub.mode=publish&hub.url=`topic` (form-encoded) to `hub`."""
    body = urllib.parse.urlencode({"hub.mode": "publish", "hub.url": topic}).encode()
    return send(hub, body, "application/x-www-form-urlencoded", HubAnswer, timeout)


def topics(session: SiteSession) -> list[str]:
    """The site's feed URLs (each feed's rel="self": the topics its hubs know)."""
    home = session.registry.site.serving_home
    return [f"{home}/{name}" for name in FEEDS]


def fingerprint(session: SiteSession) -> str:
    """What the site's feeds say (channel and items), hashed: it changes when a post is
    published, edited (its modified date, title, summary), or leaves the feed."""
    feed = build_feed(session.registry, session.service.feeds)
    return hashlib.sha256(repr(feed).encode()).hexdigest()
