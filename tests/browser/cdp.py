"""A small DevTools-protocol client over `--remote-debugging-pipe` (standard library only).

--dump-dom cannot type or click, so the lane drives Chromium through the pipe the browser
opens on file descriptors 3 (commands in) and 4 (replies out): JSON messages ended by a NUL
byte. Real input events (Input.dispatchKeyEvent / dispatchMouseEvent) reach the page the way
a person's typing and clicking do.
"""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import tempfile
import time
from types import TracebackType
from typing import Any

from tests.browser.chromium import FLAGS
from tests.browser.chromium import NO_XSLT

TIMEOUT = 30.0


class CdpError(RuntimeError):
    """The browser answered a command with an error, died, or a wait timed out."""


class Browser:
    """One headless Chromium with a fresh profile, XSLT on or off; a context manager."""

    def __init__(self, binary: str, *, xslt: bool = True, size: str = "1200,1600") -> None:
        self._profile = tempfile.TemporaryDirectory(prefix="wpsm-cdp-")
        cmd_r, self._cmd_w = os.pipe()
        self._ev_r, ev_w = os.pipe()
        # Moved above 4, so the child's dup2() onto 3 and 4 never meets its own source fd
        # (dup2 of an fd onto itself would keep close-on-exec, and Chromium would find no pipe).
        cmd_r, ev_w = _above_four(cmd_r), _above_four(ev_w)
        args = [binary, *FLAGS, *([] if xslt else [NO_XSLT]), f"--window-size={size}",
                f"--user-data-dir={self._profile.name}", "--remote-debugging-pipe",
                "about:blank"]

        def wire() -> None:  # in the child: the pipe ends on the fds Chromium reads
            os.dup2(cmd_r, 3)
            os.dup2(ev_w, 4)

        self._proc = subprocess.Popen(args, preexec_fn=wire, close_fds=False,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(cmd_r)
        os.close(ev_w)
        self._buf = b""
        self._next_id = 0

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        """Ask the browser to quit, then make sure it did."""
        try:
            self.send("Browser.close")
        except (CdpError, OSError):
            pass
        try:
            self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        for fd in (self._cmd_w, self._ev_r):
            try:
                os.close(fd)
            except OSError:
                pass
        self._profile.cleanup()

    def send(self, method: str, params: dict[str, Any] | None = None,
             session: str | None = None) -> dict[str, Any]:
        """Send one command and return its result (events in between are dropped)."""
        self._next_id += 1
        msg: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self._cmd_w, json.dumps(msg).encode() + b"\0")
        while True:
            reply = self._read()
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise CdpError(f"{method}: {reply['error']}")
                result: dict[str, Any] = reply.get("result", {})
                return result

    def _read(self) -> dict[str, Any]:
        """The next NUL-terminated message from the browser."""
        while b"\0" not in self._buf:
            chunk = os.read(self._ev_r, 1 << 16)
            if not chunk:
                raise CdpError("chromium closed the DevTools pipe")
            self._buf += chunk
        raw, self._buf = self._buf.split(b"\0", 1)
        message: dict[str, Any] = json.loads(raw)
        return message

    def new_page(self, *, javascript: bool = True) -> Page:
        """A new tab attached to this client."""
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target,
                                                      "flatten": True})["sessionId"]
        page = Page(self, target, session)
        if not javascript:
            page.call("Emulation.setScriptExecutionDisabled", {"value": True})
        return page


def _above_four(fd: int) -> int:
    """A duplicate of `fd` numbered 10 or more (close-on-exec); the original is closed."""
    high = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(fd)
    return high


class Page:
    """One tab: navigate, evaluate, click and type."""

    def __init__(self, browser: Browser, target: str, session: str) -> None:
        self.browser = browser
        self.target = target
        self.session = session

    def call(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        """A command for this tab."""
        return self.browser.send(method, params, self.session)

    def close(self) -> None:
        """Close the tab."""
        self.browser.send("Target.closeTarget", {"targetId": self.target})

    def evaluate(self, expression: str) -> Any:
        """The JSON value of a JavaScript expression in the tab (DevTools runs it even when
        the page's own scripts are disabled)."""
        result = self.call("Runtime.evaluate", {"expression": expression,
                                                "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in result:
            raise CdpError(f"{expression[:80]}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def goto(self, url: str) -> None:
        """Navigate and wait for the load to complete."""
        self.call("Page.navigate", {"url": url})
        self.wait_for("document.readyState === 'complete' && location.href !== 'about:blank'")

    def wait_for(self, condition: str, timeout: float = TIMEOUT) -> None:
        """Poll a JavaScript condition until it is true."""
        deadline = time.monotonic() + timeout
        while not self.evaluate(f"!!({condition})"):
            if time.monotonic() > deadline:
                raise CdpError(f"timed out waiting for {condition}")
            time.sleep(0.05)

    def click(self, x: float, y: float) -> None:
        """A left mouse click at viewport coordinates."""
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y,
                                                   "button": "left", "clickCount": 1})

    def type_text(self, text: str) -> None:
        """Type into the focused element, one key event per character."""
        for char in text:
            self.call("Input.dispatchKeyEvent", {"type": "keyDown", "text": char,
                                                 "unmodifiedText": char, "key": char})
            self.call("Input.dispatchKeyEvent", {"type": "keyUp", "key": char})
