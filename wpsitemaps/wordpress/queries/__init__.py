"""All the SQL of the project (the headless API keeps its own in `headless/queries.py`).

Rule: every function takes `(conn, tables, ...)` and returns rows or typed records; no URL
building, no parsing of post_content, no Flask.
"""
