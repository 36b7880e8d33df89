"""WordPress storage formats the demo generator reproduces (no database access here).

Each function mirrors the WordPress function named in its docstring, closely enough that
the rows it feeds look like the ones WordPress 6.1 writes (see ../shared/wordpress/).
"""

from __future__ import annotations

import re
import unicodedata
from datetime import UTC
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

ZERO_DATE = "0000-00-00 00:00:00"
BERLIN = ZoneInfo("Europe/Berlin")
# remove_accents() letters that do not decompose to ASCII under NFD.
LATIN_SPECIAL = {"ß": "s", "æ": "ae", "Æ": "AE", "ø": "o", "Ø": "O", "đ": "d", "Đ": "D",
                 "ł": "l", "Ł": "L", "œ": "oe", "Œ": "OE", "þ": "th", "Þ": "TH", "ð": "d",
                 "Ð": "D"}
# sanitize_title_with_dashes('save'): nbsp, en dash and em dash (UTF-8 encoded) become dashes.
DASH_OCTETS = ("%c2%a0", "%e2%80%93", "%e2%80%94")
ENTITY_RE = re.compile(r"&.+?;")
DISALLOWED_RE = re.compile(r"[^%a-z0-9 _-]")
# PHP strip_tags(): '<' followed by a non-space starts a tag, which runs to '>' or the end.
TAG_RE = re.compile(r"<[^\s<][^>]*(?:>|$)")
# Registered image sizes of a default 6.1 install, in the order WordPress stores them:
# (name, max width, max height, crop). 0 means unbounded.
IMAGE_SIZES = (("medium", 300, 300, False), ("large", 1024, 1024, False),
               ("thumbnail", 150, 150, True), ("medium_large", 768, 0, False),
               ("1536x1536", 1536, 1536, False), ("2048x2048", 2048, 2048, False))
BIG_IMAGE_THRESHOLD = 2560


def php_serialize(value: Any) -> str:
    """PHP serialize() of str, int, float, bool, None, list and dict (byte lengths)."""
    if value is None:
        return "N;"
    if isinstance(value, bool):
        return f"b:{int(value)};"
    if isinstance(value, int):
        return f"i:{value};"
    if isinstance(value, float):
        # PHP >= 7.1 (serialize_precision -1) writes 44100.0 as d:44100;
        return f"d:{int(value)};" if value.is_integer() else f"d:{value!r};"
    if isinstance(value, str):
        return f's:{len(value.encode("utf-8"))}:"{value}";'
    items = list(enumerate(value)) if isinstance(value, list | tuple) else list(value.items())
    body = "".join(php_serialize(k) + php_serialize(v) for k, v in items)
    return f"a:{len(items)}:{{{body}}}"


def remove_accents(text: str) -> str:
    """remove_accents(): Latin letters lose their accents, other scripts stay as they are."""
    out = []
    for ch in text:
        if ch in LATIN_SPECIAL:
            out.append(LATIN_SPECIAL[ch])
        elif "\u00c0" <= ch <= "\u024f":
            out.append("".join(c for c in unicodedata.normalize("NFD", ch)
                               if not unicodedata.combining(c)))
        else:
            out.append(ch)
    return "".join(out)


def sanitize_title(title: str) -> str:
    """sanitize_title(): strip_tags, remove_accents(), sanitize_title_with_dashes('save')."""
    text = remove_accents(TAG_RE.sub("", title)).lower()
    # utf8_uri_encode(): non-ASCII as lower-case %xx of its UTF-8 bytes, at most 200 bytes.
    encoded: list[str] = []
    length = 0
    for ch in text:
        piece = ch if ch.isascii() else "".join(f"%{b:02x}" for b in ch.encode("utf-8"))
        if length + len(piece) > 200:
            break
        encoded.append(piece)
        length += len(piece)
    text = "".join(encoded)
    for octets in DASH_OCTETS:
        text = text.replace(octets, "-")
    text = ENTITY_RE.sub("", text)
    text = DISALLOWED_RE.sub("", text.replace(".", "-"))
    text = re.sub(r"-+", "-", re.sub(r"\s+", "-", text))
    return text.strip("-")


def sanitize_file_name(name: str) -> str:
    """sanitize_file_name() of an upload: Latin accents removed, spaces to dashes, UTF-8 kept."""
    text = remove_accents(name)
    text = re.sub(r"[?\[\]/\\=<>:;,'\"&$#*()|~`!{}%+’«»”“]", "", text)
    return re.sub(r"-+", "-", re.sub(r"[\s]+", "-", text)).strip(".-_")


def mysql_date(ts: float, tz: ZoneInfo | None = None) -> str:
    """A Unix time as WordPress stores it: local (post_date) or UTC (post_date_gmt)."""
    moment = datetime.fromtimestamp(ts, UTC)
    if tz is not None:
        moment = moment.astimezone(tz)
    return moment.strftime("%Y-%m-%d %H:%M:%S")


def _constrain(width: int, height: int, max_w: int, max_h: int) -> tuple[int, int]:
    """wp_constrain_dimensions(): scale down to fit, never up."""
    ratios = [max_w / width] if max_w else []
    ratios += [max_h / height] if max_h else []
    ratio = min([1.0, *ratios])
    return max(1, round(width * ratio)), max(1, round(height * ratio))


def _size_dims(width: int, height: int, max_w: int, max_h: int,
               crop: bool) -> tuple[int, int] | None:
    """image_resize_dimensions(): the size's dimensions, None when none would be made."""
    if crop:
        new_w, new_h = min(width, max_w), min(height, max_h)
    else:
        new_w, new_h = _constrain(width, height, max_w, max_h)
    if (new_w, new_h) == (width, height):
        return None
    return new_w, new_h


def image_metadata(path: str, width: int, height: int, filesize: int,
                   image_meta: dict[str, Any]) -> dict[str, Any]:
    """wp_generate_attachment_metadata() of a JPEG upload, incl. the big-image `-scaled` copy.

    `path` is the uploaded file relative to uploads/ ('2026/11/photo.jpg').
    """
    folder, _, name = path.rpartition("/")
    stem, _, ext = name.rpartition(".")
    meta: dict[str, Any] = {"width": width, "height": height, "file": path,
                            "filesize": filesize}
    scaled = max(width, height) > BIG_IMAGE_THRESHOLD
    if scaled:
        meta["width"], meta["height"] = _constrain(width, height, BIG_IMAGE_THRESHOLD,
                                                   BIG_IMAGE_THRESHOLD)
        meta["file"] = f"{folder}/{stem}-scaled.{ext}"
        meta["filesize"] = filesize * 7 // 10
    sizes: dict[str, Any] = {}
    for size, max_w, max_h, crop in IMAGE_SIZES:
        dims = _size_dims(width, height, max_w, max_h, crop)
        if dims is None:
            continue
        w, h = dims
        sizes[size] = {"file": f"{stem}-{w}x{h}.{ext}", "width": w, "height": h,
                       "mime-type": "image/jpeg",
                       "filesize": max(900, filesize * w * h // (width * height) + 1500)}
    meta["sizes"] = sizes
    meta["image_meta"] = image_meta
    if scaled:
        meta["original_image"] = name
    return meta


def image_meta(camera: tuple[str, str, str, str, str] | None, created: int) -> dict[str, Any]:
    """wp_read_image_metadata(): the 12 keys, empty for files without EXIF."""
    aperture, model, focal, iso, shutter = camera or ("0", "", "0", "0", "0")
    return {"aperture": aperture, "credit": "", "camera": model, "caption": "",
            "created_timestamp": str(created) if camera else "0", "copyright": "",
            "focal_length": focal, "iso": iso, "shutter_speed": shutter, "title": "",
            "orientation": "1" if camera else "0", "keywords": []}


def video_metadata(filesize: int, length: int, width: int, height: int,
                   created: int) -> dict[str, Any]:
    """wp_read_video_metadata() (getID3) of an H.264/AAC mp4, keys in WordPress's order."""
    return {"filesize": filesize, "mime_type": "video/mp4", "length": length,
            "length_formatted": f"{length // 60}:{length % 60:02d}", "width": width,
            "height": height, "fileformat": "mp4", "dataformat": "quicktime",
            "audio": {"dataformat": "mp4", "codec": "ISO/IEC 14496-3 AAC",
                      "sample_rate": 44100.0, "channels": 2, "bits_per_sample": 16,
                      "lossless": False, "channelmode": "stereo"},
            "created_timestamp": created}

