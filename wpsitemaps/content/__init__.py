"""Pure parsing of post_content and its neighbours: HTML tokens, images, videos and their
fields, Yoast Video SEO meta, URL hygiene.

Rule: no database, no Flask, no network; functions of text (and of already-read rows) only.
May use the pure helpers of `wordpress` (`phpdata`, `ids`), never its queries.
"""
