"""Tokenising raw post_content: HTML tags, block delimiters, shortcodes, bare URL lines.

post_content is stored as the editor wrote it: HTML fragments, block-editor delimiters
(`<!-- wp:name {"json":"attrs"} -->`) and shortcodes (`[gallery ids="1,2"]`). HTML goes
through the standard library's tokenizer (html.parser), never a regex over the document;
block delimiters arrive there as comments and are parsed as WordPress's block parser does;
shortcodes and own-line URLs are plain text, so WordPress itself finds them with regexes
(get_shortcode_regex(), WP_Embed::autoembed()) and so do we, with the same patterns.
Nothing here raises on malformed input: broken markup yields whatever could be read.
"""

from __future__ import annotations

import html
import json
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field
from html.parser import HTMLParser
from typing import Any

log = logging.getLogger(__name__)

# WP_Block_Parser::next_token()'s delimiter pattern, applied to the text inside <!-- -->.
_BLOCK = re.compile(
    r"^\s+(?P<closer>/)?wp:(?P<ns>[a-z][a-z0-9_-]*/)?(?P<name>[a-z][a-z0-9_-]*)\s+"
    r"(?P<attrs>\{.*\}\s+)?(?P<void>/)?$",
    re.S,
)


@dataclass(frozen=True)
class Block:
    """A block-editor delimiter: name with namespace ('core/video'), JSON attributes."""

    name: str
    attrs: dict[str, Any]
    offset: int


@dataclass(frozen=True)
class Tag:
    """A start tag of interest with its attributes and the innermost enclosing block."""

    name: str
    attrs: dict[str, str]
    offset: int
    block: Block | None = None


@dataclass
class Document:
    """What the tokenizer saw: wanted start/end tags and block openers, in document order."""

    tags: list[Tag] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)


def parse_block_comment(data: str, offset: int = 0) -> tuple[Block, bool, bool] | None:
    """Parse the inside of an HTML comment as a block delimiter: (block, closer, void)."""
    if "wp:" not in data:
        return None
    match = _BLOCK.match(data)
    if match is None:
        return None
    attrs: Any = {}
    if match["attrs"]:
        try:
            attrs = json.loads(match["attrs"])
        except ValueError:
            attrs = {}
    name = (match["ns"] or "core/") + match["name"]
    block = Block(name, attrs if isinstance(attrs, dict) else {}, offset)
    return block, bool(match["closer"]), bool(match["void"])


class _Sink:
    """Collects wanted start/end tags and block delimiters, tracking the open blocks."""

    def __init__(self, wanted: frozenset[str]) -> None:
        self.wanted = wanted
        self.doc = Document()
        self.stack: list[Block] = []

    def start(self, tag: str, attrs: list[tuple[str, str | None]], offset: int) -> None:
        if tag not in self.wanted:
            return
        values: dict[str, str] = {}
        for key, value in attrs:
            values.setdefault(key, value or "")  # the first duplicate wins, as in browsers
        block = self.stack[-1] if self.stack else None
        self.doc.tags.append(Tag(tag, values, offset, block))

    def end(self, tag: str, offset: int) -> None:
        # End tags of wanted elements arrive as "/name" (a <source> belongs to its <video>).
        if tag in self.wanted:
            block = self.stack[-1] if self.stack else None
            self.doc.tags.append(Tag("/" + tag, {}, offset, block))

    def comment(self, data: str, offset: int) -> None:
        parsed = parse_block_comment(data, offset)
        if parsed is None:
            return
        block, closer, void = parsed
        if closer:
            # Pop up to the matching opener; unbalanced closers are ignored.
            names = [b.name for b in self.stack]
            if block.name in names:
                del self.stack[len(names) - 1 - names[::-1].index(block.name):]
            return
        self.doc.blocks.append(block)
        if not void:
            self.stack.append(block)


class _Collector(HTMLParser):
    """html.parser subclass feeding a _Sink: the reference tokenizer (see scan_reference)."""

    def __init__(self, content: str, wanted: frozenset[str]) -> None:
        super().__init__(convert_charrefs=True)
        self.sink = _Sink(wanted)
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", content)]

    def _offset(self) -> int:
        line, col = self.getpos()
        return self.line_starts[min(line, len(self.line_starts)) - 1] + col

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.sink.start(tag, attrs, self._offset())

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        self.sink.end(tag, self._offset())

    def handle_comment(self, data: str) -> None:
        self.sink.comment(data, self._offset())


def scan_reference(content: str, wanted: frozenset[str]) -> Document:
    """scan() with the standard library's full HTML tokenizer (slow; the tests' reference)."""
    collector = _Collector(content, wanted)
    try:
        collector.feed(content)
        collector.close()
    except Exception as exc:  # noqa: BLE001 - html.parser may assert on odd declarations
        log.debug("html tokenizer stopped early: %s", exc)
    return collector.sink.doc


# The tokens scan() needs, in one pass: comments (block delimiters live there), raw-text
# elements whose content is not markup, and start/end tags. Tag and attribute syntax are
# html.parser's own tolerant patterns, so both tokenizers read a tag the same way.
_TOKEN = re.compile(
    r"<!--(?P<comment>.*?)--\s*>"
    r"|<(?P<raw>script|style)(?=[\s/>])[^>]*>.*?</(?P=raw)\s*>"
    r"|<(?P<close>/)?(?P<name>[a-zA-Z][^\t\n\r\f />\x00]*)"
    r"(?P<attrs>(?:[^>\"']|\"[^\"]*\"|'[^']*')*)>",
    re.S | re.I,
)


# Constructs the one-pass reading does not model: processing instructions, <!...>
# declarations, and a `<` inside a tag, in a quoted attribute value or not (html.parser
# reads `<text <'<img src='a.jpg'>` as one tag whose attribute name holds a quote).
_UNUSUAL = re.compile(r"<[?!](?!--)|<[a-zA-Z][^<>]*<", re.I)
_RAW_OPEN = re.compile(r"<(?:script|style)(?=[\s/>])", re.I)


def _attrs(text: str) -> list[tuple[str, str | None]]:
    """HTMLParser.parse_starttag()'s attribute loop on the text after the tag name."""
    out: list[tuple[str, str | None]] = []
    text = " " + text  # the lookbehind of the pattern needs a separator before a name
    k = _SPACES.match(text).end()  # type: ignore[union-attr]  # always matches
    while k < len(text):
        m = _ATTRFIND.match(text, k)
        if not m or m.end() == k:
            break
        name, rest, value = m.group(1, 2, 3)
        if not rest:
            value = None
        elif value[:1] == "'" == value[-1:] or value[:1] == '"' == value[-1:]:
            value = value[1:-1]
        if value:
            value = html.unescape(value)
        out.append((name.lower(), value))
        k = m.end()
    return out


_SPACES = re.compile(r"(?:\s|/(?!>))*")
_ATTRFIND = re.compile(
    r"""((?<=['"\s/])[^\s/>][^\s/=>]*)(\s*=+\s*('[^']*'|"[^"]*"|(?!['"])[^>\s]*))?"""
    r"""(?:\s|/(?!>))*""")


def scan(content: str, wanted: frozenset[str],
         only_blocks: tuple[str, ...] | None = None) -> Document:
    """Tokenise content, keeping tags named in wanted (end tags as "/name") and block openers.

    only_blocks: parse just the block comments that mention one of these names (e.g.
    ("wp:gallery",)); the tags then carry no enclosing block. Callers that do not need
    block context skip decoding every paragraph's delimiter this way.

    One regex pass instead of html.parser's character loop: a page of 1,000 posts is
    parsed in milliseconds. tests/test_scan_equivalence.py holds it to scan_reference().
    """
    sink = _Sink(wanted)
    if "<" not in content:
        return sink.doc
    if _UNUSUAL.search(content):
        return scan_reference(content, wanted)  # see below
    comments = raws = 0
    for m in _TOKEN.finditer(content):
        kind = m.lastgroup  # 'comment', 'raw', or 'attrs' (a tag: its last group)
        if kind == "attrs":
            name = m["name"].lower()
            if name not in wanted:
                continue
            if m["close"]:
                sink.end(name, m.start())
            else:
                sink.start(name, _attrs(m["attrs"]), m.start())
        elif kind == "comment":
            comments += 1
            data = m["comment"]
            if only_blocks is None or any(name in data for name in only_blocks):
                sink.comment(data, m.start())
        else:
            raws += 1
    if comments != content.count("<!--") or raws != len(_RAW_OPEN.findall(content)):
        # Something the one pass does not model (see _UNUSUAL; a comment or script that never
        # ends, or one inside another): the full tokenizer decides, slowly but exactly.
        return scan_reference(content, wanted)
    return sink.doc


# get_shortcode_regex() for one tag name; group 1/6 detect the [[escaped]] form.
_SHORTCODE = (
    r"\[(\[?)({name})(?![\w-])([^\]/]*(?:/(?!\])[^\]/]*)*?)"
    r"(?:(/)\]|\](?:([^\[]*+(?:\[(?!/\2\])[^\[]*+)*+)\[/\2\])?)(\]?)"
)
# shortcode_parse_atts().
_ATTS = re.compile(
    r"""([\w-]+)\s*=\s*"([^"]*)"(?:\s|$)|([\w-]+)\s*=\s*'([^']*)'(?:\s|$)"""
    r"""|([\w-]+)\s*=\s*([^\s'"]+)(?:\s|$)|"([^"]*)"(?:\s|$)|'([^']*)'(?:\s|$)|(\S+)(?:\s|$)"""
)


@dataclass(frozen=True)
class Shortcode:
    """One shortcode occurrence: its attributes, enclosed content and offset."""

    name: str
    attrs: dict[str, str]
    content: str
    offset: int


def parse_atts(text: str) -> dict[str, str]:
    """shortcode_parse_atts(): named attributes (lower-cased keys); positional ones dropped."""
    text = re.sub("[\u00a0\u200b]+", " ", text)
    atts: dict[str, str] = {}
    for m in _ATTS.finditer(text):
        for key_group in (1, 3, 5):
            if m[key_group]:
                atts[m[key_group].lower()] = m[key_group + 1]
                break
    return atts


def shortcodes(content: str, name: str) -> Iterator[Shortcode]:
    """Every unescaped [name ...] shortcode in content, in order (do_shortcode's matching)."""
    if f"[{name}" not in content:
        return
    for m in re.finditer(_SHORTCODE.format(name=re.escape(name)), content, re.S):
        if m[1] == "[" and m[6] == "]":
            continue  # [[name]] prints the shortcode literally
        yield Shortcode(name, parse_atts(m[3]), m[5] or "", m.start())


# WP_Embed::autoembed(): a URL alone on its line, or alone in a paragraph.
_OWN_LINE = re.compile(r"""^(\s*)(https?://[^\s<>"]+)(\s*)$""", re.I | re.M | re.A)
_OWN_PARAGRAPH = re.compile(r"""(<p(?: [^>]*)?>\s*)(https?://[^\s<>"]+)(\s*</p>)""", re.I | re.A)


# wp_html_split()'s comments and tags, simplified: autoembed ignores line breaks inside them.
_IN_TAG = re.compile(r"<!--.*?(?:-->|\Z)|<![^>]*>?|<[^>]*>?", re.S)


def own_line_urls(content: str) -> list[tuple[int, str]]:
    """URLs WordPress would auto-embed: (offset, entity-decoded URL), in document order."""
    # WP_Embed::autoembed() first hides newlines inside tags (wp_replace_in_html_tags);
    # replacing them by spaces keeps every offset.
    masked = _IN_TAG.sub(lambda m: m[0].replace("\n", " "), content)
    found = {m.start(2): m[2] for m in _OWN_LINE.finditer(masked)}
    found.update({m.start(2): m[2] for m in _OWN_PARAGRAPH.finditer(masked)})
    return [(pos, html.unescape(found[pos])) for pos in sorted(found)]

