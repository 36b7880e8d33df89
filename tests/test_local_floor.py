"""dates.local_floor(): the redundant local-date bound of "dated since" ranges (issue #13).

WordPress stores post_date = post_date_gmt + the site zone's offset at that moment; a range
filtered on post_date_gmt >= start is served by the type_status_date index through
post_date >= local_floor(zone, start, end). The bound must never exclude a post of the
range, in any zone, across daylight-saving changes.
"""

from __future__ import annotations

from datetime import UTC
from datetime import datetime
from datetime import timedelta
from datetime import timezone
from zoneinfo import ZoneInfo

from hypothesis import given
from hypothesis import strategies as st

from wpsitemaps.wordpress.dates import local_floor
from wpsitemaps.wordpress.dates import sql_utc
from wpsitemaps.wordpress.dates import wp_timezone

ZONES = ["UTC", "Europe/Paris", "America/Los_Angeles", "America/St_Johns", "Asia/Kolkata",
         "Australia/Lord_Howe", "Pacific/Kiritimati", "Pacific/Pago_Pago", "Pacific/Chatham"]
MOMENTS = st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2040, 1, 1),
                       timezones=st.just(UTC))


@given(st.sampled_from(ZONES), MOMENTS, st.timedeltas(timedelta(0), timedelta(days=40)),
       st.floats(0, 1))
def test_no_post_of_the_range_is_below_the_floor(zone_name: str, start: datetime,
                                                 span: timedelta, where: float) -> None:
    """Every moment between start and end has its local date at or above the floor (the
    strings SQL compares)."""
    zone = ZoneInfo(zone_name)
    end = start + span
    moment = start + span * where
    local = moment.astimezone(zone).strftime("%Y-%m-%d %H:%M:%S")
    assert local >= sql_utc(local_floor(zone, start, end))


def test_the_floor_is_close_to_the_start() -> None:
    """The point of the bound: about an hour of slack, not the ±14 h of any zone."""
    start = datetime(2026, 11, 29, 11, 0, tzinfo=UTC)
    paris = local_floor(ZoneInfo("Europe/Paris"), start, start)
    assert sql_utc(paris) == "2026-11-29 11:00:00"  # 12:00 local, less the hour of margin
    assert sql_utc(local_floor(wp_timezone("", -5.5), start, start)) == "2026-11-29 04:30:00"
    assert wp_timezone("Not/AZone", 2.0) == timezone(timedelta(hours=2))
