"""A minimal headless-Chromium driver for the report test: the DevTools protocol over
``--remote-debugging-pipe`` (file descriptors 3 and 4, NUL-separated JSON), so that no
websocket client and no network port are needed."""
from __future__ import annotations

import base64
import fcntl
import json
import os
import shutil
import subprocess
import tempfile
import time

#: flags for a sandboxed CI container running as root, with no network
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--remote-debugging-pipe")


def find_chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


class Browser:
    """``with Browser() as b: b.open(url); b.evaluate(js); b.screenshot(path)``."""

    def __init__(self, executable=None, width=1400, height=1000, timeout=60.0):
        self.executable = executable or find_chromium()
        if self.executable is None:
            raise RuntimeError("no chromium on PATH (Debian: apt-get install -y chromium)")
        self.width, self.height, self.timeout = width, height, timeout
        self._id = 0
        self._buffer = b""

    def __enter__(self):
        self._profile = tempfile.TemporaryDirectory(prefix="ssi-chromium-")
        self._log = open(os.path.join(self._profile.name, "chromium.log"), "wb")
        to_child_r, self._to_child = os.pipe()
        self._from_child, from_child_w = os.pipe()

        def wire():             # in the child: fd 3 reads our commands, fd 4 carries the replies
            # (through fds >= 10 first: the pipe ends may themselves be 3 or 4)
            high = [fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in (to_child_r, from_child_w)]
            for target, fd in zip((3, 4), high):
                os.dup2(fd, target)
                os.set_inheritable(target, True)

        self.proc = subprocess.Popen(
            [self.executable, *FLAGS, f"--user-data-dir={self._profile.name}",
             f"--window-size={self.width},{self.height}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self._log,
            preexec_fn=wire, close_fds=False)
        os.close(to_child_r)
        os.close(from_child_w)
        targets = self.send("Target.getTargets")["targetInfos"]
        page = next(t for t in targets if t["type"] == "page")
        self.session = self.send("Target.attachToTarget", targetId=page["targetId"], flatten=True)["sessionId"]
        self.send("Page.enable", session=True)
        self.send("Emulation.setDeviceMetricsOverride", session=True, width=self.width, height=self.height,
                  deviceScaleFactor=1, mobile=False)
        return self

    def __exit__(self, *exc):
        try:
            self.send("Browser.close")
        except Exception:  # noqa: BLE001 - the browser may be gone already
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._to_child, self._from_child):
            os.close(fd)
        self._log.close()
        self._profile.cleanup()

    def _read_message(self, deadline) -> dict:
        while b"\0" not in self._buffer:
            if time.monotonic() > deadline:
                raise TimeoutError("chromium did not answer in time")
            chunk = os.read(self._from_child, 1 << 20)
            if not chunk:
                raise RuntimeError(f"chromium closed the pipe (exit {self.proc.poll()})")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def send(self, method, session=False, **params) -> dict:
        """Send one DevTools command and return its result (events in between are skipped)."""
        self._id += 1
        message = {"id": self._id, "method": method, "params": params}
        if session:
            message["sessionId"] = self.session
        os.write(self._to_child, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self._id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})

    def open(self, url, settle=1.0) -> None:
        self.send("Page.navigate", session=True, url=url)
        deadline = time.monotonic() + self.timeout
        while self.evaluate("document.readyState") != "complete":
            if time.monotonic() > deadline:
                raise TimeoutError(f"{url} did not load")
            time.sleep(0.1)
        time.sleep(settle)

    def evaluate(self, expression):
        """The JSON value of a JavaScript expression (promises awaited)."""
        result = self.send("Runtime.evaluate", session=True, expression=expression, awaitPromise=True,
                           returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"javascript error: {result['exceptionDetails']}")
        return result["result"].get("value")

    def screenshot(self, path) -> None:
        data = self.send("Page.captureScreenshot", session=True, format="png")["data"]
        with open(path, "wb") as handle:
            handle.write(base64.b64decode(data))
