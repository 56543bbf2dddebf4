"""Load a page in headless Chromium and report what a person would notice.

Standard library only: Chromium is started with ``--remote-debugging-port=0``,
the port is read from ``DevToolsActivePort`` in its profile folder, and the
DevTools protocol is spoken over a minimal WebSocket client (RFC 6455 text
frames; enough for one page).  :func:`inspect_page` returns the console
errors, uncaught exceptions, every network request the page made, the result
of a JavaScript expression evaluated after ``load``, and a full-page PNG.
"""

from __future__ import annotations

import base64
import http.client
import json
import os
import shutil
import socket
import struct
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--mute-audio", "--remote-debugging-port=0")


def find_browser() -> str | None:
    """The Chromium executable (``$KANSA_CHROMIUM`` first), or ``None``."""
    env = os.environ.get("KANSA_CHROMIUM")
    if env:
        return shutil.which(env) or (env if Path(env).is_file() else None)
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    return None


class WebSocket:
    """A client WebSocket over a plain socket: text frames out, whole messages in."""

    def __init__(self, host: str, port: int, path: str, timeout: float) -> None:
        self.sock = socket.create_connection((host, port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
             f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
             "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("DevTools closed the connection during the handshake")
            head += chunk
        status = head.split(b"\r\n", 1)[0]
        if b" 101 " not in status:
            raise ConnectionError(f"WebSocket handshake refused: {status!r}")
        self.buf = head.split(b"\r\n\r\n", 1)[1]
        self.pos = 0

    def send(self, text: str) -> None:
        data = text.encode()
        mask = os.urandom(4)
        n = len(data)
        if n < 126:
            header = struct.pack("!BB", 0x81, 0x80 | n)
        elif n < 1 << 16:
            header = struct.pack("!BBH", 0x81, 0x80 | 126, n)
        else:
            header = struct.pack("!BBQ", 0x81, 0x80 | 127, n)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        self.sock.sendall(header + mask + masked)

    def _read(self, n: int) -> bytes:
        """The next ``n`` bytes after the cursor; nothing is consumed until a frame is whole."""
        while len(self.buf) < self.pos + n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("DevTools closed the connection")
            self.buf += chunk
        out = self.buf[self.pos:self.pos + n]
        self.pos += n
        return out

    def recv(self) -> str:
        """The next whole message; on a timeout the unread bytes are kept for the next call."""
        message = b""
        while True:
            self.pos = 0
            b0, b1 = self._read(2)
            opcode, n = b0 & 0x0F, b1 & 0x7F
            if n == 126:
                (n,) = struct.unpack("!H", self._read(2))
            elif n == 127:
                (n,) = struct.unpack("!Q", self._read(8))
            mask = self._read(4) if b1 & 0x80 else b""
            payload = self._read(n)
            self.buf = self.buf[self.pos:]
            if mask:
                payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            if opcode == 0x8:
                raise ConnectionError("DevTools closed the WebSocket")
            if opcode in (0x0, 0x1, 0x2):
                message += payload
                if b0 & 0x80:
                    return message.decode()
            # 0x9 ping / 0xA pong: nothing to answer for a short-lived client

    def close(self) -> None:
        self.sock.close()


@dataclass
class PageReport:
    console_errors: list[str] = field(default_factory=list)
    exceptions: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    value: Any = None
    screenshot: bytes = b""
    seconds: float = 0.0


class DevTools:
    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.next_id = 0
        self.events: list[dict[str, Any]] = []

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        mid = self.next_id
        self.ws.send(json.dumps({"id": mid, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == mid:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                result: dict[str, Any] = msg.get("result", {})
                return result
            self.events.append(msg)

    def wait_for(self, method: str, timeout: float) -> None:
        end = time.monotonic() + timeout
        while not any(e.get("method") == method for e in self.events):
            if time.monotonic() > end:
                raise TimeoutError(f"no {method} within {timeout} s")
            self.events.append(json.loads(self.ws.recv()))

    def drain(self, quiet: float) -> None:
        """Collect events until none arrives for ``quiet`` seconds."""
        before = self.ws.sock.gettimeout()
        self.ws.sock.settimeout(quiet)
        try:
            while True:
                self.events.append(json.loads(self.ws.recv()))
        except TimeoutError:
            pass
        finally:
            self.ws.sock.settimeout(before)


def _port(profile: Path, proc: subprocess.Popen[bytes], timeout: float) -> tuple[int, str]:
    """The DevTools port and the browser target's WebSocket path."""
    marker = profile / "DevToolsActivePort"
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if marker.exists():
            lines = marker.read_text().split()
            if len(lines) >= 2:
                return int(lines[0]), lines[1]
        if proc.poll() is not None:
            raise RuntimeError(f"chromium exited with status {proc.returncode}")
        time.sleep(0.05)
    raise TimeoutError("chromium did not open its DevTools port")


def _page_socket(port: int, timeout: float) -> WebSocket:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    conn.request("GET", "/json/list")
    targets = json.loads(conn.getresponse().read())
    conn.close()
    page = next(t for t in targets if t.get("type") == "page")
    url = page["webSocketDebuggerUrl"]
    path = url.split(str(port), 1)[1]
    return WebSocket("127.0.0.1", port, path, timeout)


def _close(proc: subprocess.Popen[bytes], port: int | None, path: str | None,
           timeout: float) -> None:
    """Ask the browser to quit (it then waits for its own child processes), then make sure."""
    if port is not None and path is not None and proc.poll() is None:
        try:
            ws = WebSocket("127.0.0.1", port, path, timeout)
            ws.send(json.dumps({"id": 1, "method": "Browser.close"}))
            ws.close()
        except OSError:
            pass
    try:
        proc.wait(timeout)
    except subprocess.TimeoutExpired:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def inspect_page(browser: str, page: Path, expression: str, *, width: int = 1280,
                 max_height: int = 16000, timeout: float = 60.0,
                 scripts: bool = True) -> PageReport:
    """Open ``page`` (a local file), wait for ``load``, evaluate ``expression`` (a
    promise is awaited, so the expression can click and wait for the page).

    With ``scripts=False`` the page's own scripts do not run (the expression still
    does).  The screenshot covers the page's full height up to ``max_height`` CSS
    pixels.
    """
    start = time.monotonic()
    report = PageReport()
    events: list[dict[str, Any]] = []
    # a browser child can still be writing its profile for a moment after the browser quit
    with tempfile.TemporaryDirectory(prefix="kansa-chromium-",
                                     ignore_cleanup_errors=True) as tmp:
        profile = Path(tmp)
        proc = subprocess.Popen([browser, *FLAGS, f"--user-data-dir={profile}",
                                 f"--window-size={width},900", "about:blank"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port: int | None = None
        browser_path: str | None = None
        try:
            port, browser_path = _port(profile, proc, timeout)
            ws = _page_socket(port, timeout)
            dt = DevTools(ws)
            dt.events = events
            for domain in ("Page", "Runtime", "Log", "Network"):
                dt.call(f"{domain}.enable")
            if not scripts:
                dt.call("Emulation.setScriptExecutionDisabled", value=True)
            dt.call("Page.navigate", url=page.resolve().as_uri())
            dt.wait_for("Page.loadEventFired", timeout)
            dt.drain(0.5)
            value = dt.call("Runtime.evaluate", expression=expression, returnByValue=True,
                            awaitPromise=True)
            report.value = value.get("result", {}).get("value")
            metrics = dt.call("Page.getLayoutMetrics")
            size = metrics.get("cssContentSize") or metrics["contentSize"]
            shot = dt.call("Page.captureScreenshot", format="png", captureBeyondViewport=True,
                           clip={"x": 0, "y": 0, "width": width,
                                 "height": min(float(size["height"]), float(max_height)),
                                 "scale": 1})
            report.screenshot = base64.b64decode(shot["data"])
            dt.drain(0.2)
            ws.close()
        finally:
            _close(proc, port, browser_path, 10.0)
    for e in events:
        method, params = e.get("method"), e.get("params", {})
        if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            report.console_errors.append(" ".join(
                str(a.get("value", a.get("description", ""))) for a in params.get("args", [])))
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            report.console_errors.append(params["entry"].get("text", ""))
        elif method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            report.exceptions.append(details.get("exception", {}).get("description")
                                     or details.get("text", ""))
        elif method == "Network.requestWillBeSent":
            report.requests.append(params.get("request", {}).get("url", ""))
    report.seconds = time.monotonic() - start
    return report
