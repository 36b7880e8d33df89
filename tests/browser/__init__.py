"""Browser lane: the real app on 127.0.0.1 driven by headless Debian Chromium."""
