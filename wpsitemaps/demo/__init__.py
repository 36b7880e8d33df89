"""`wpsitemaps demo`: a deterministic generator of a WordPress-shaped database.

Rule: writes rows as WordPress would, from its own storage formats (`demo.wp`); imports nothing
of the service, so the service is tested against data it did not shape.
"""
