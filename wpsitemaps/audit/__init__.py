"""`wpsitemaps audit URL`: checks a live site from the outside, over HTTP only.

Rule: never reads the database and imports nothing of the service but `audit` itself.
"""
