"""A raw HTTP server on 127.0.0.1 that answers every request the way it is told, badly.

Unlike `mediawiki_server.FakeMediaWiki` it writes bytes to the socket itself, so it
can send what a well-behaved server never would: a body dripped a byte at a time,
a body far longer than anything the client should read, a redirect to itself or
to another host. `answer` is one of the `Answer` kinds; `stop()` frees the port.
"""

from __future__ import annotations

import socket
import threading
from dataclasses import dataclass

API_PATH = "/w/api.php"


@dataclass(frozen=True)
class Answer:
    """How to answer: `kind` is `body`, `drip`, `huge`, `redirect` or `offhost`.

    `huge` sends `huge_bytes` of blanks and says so in `Content-Length` only when
    `declare_length` is set (otherwise the body ends when the connection closes).
    """

    kind: str = "body"
    body: bytes = b""
    content_type: str = "application/json"
    drip_interval_s: float = 0.2
    huge_bytes: int = 100 * 1024 * 1024
    declare_length: bool = False


class HostileServer:
    """Serve `answer` to every request on 127.0.0.1; count the requests."""

    def __init__(self, answer: Answer) -> None:
        self.answer = answer
        self.requests = 0
        self._stopping = threading.Event()
        self._socket = socket.create_server(("127.0.0.1", 0))
        self._socket.settimeout(0.05)
        self.port = self._socket.getsockname()[1]
        self._thread = threading.Thread(target=self._accept, daemon=True)

    @property
    def url(self) -> str:
        """The API endpoint on this server."""
        return f"http://127.0.0.1:{self.port}{API_PATH}"

    def __enter__(self) -> HostileServer:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._stopping.set()
        self._thread.join(timeout=5)
        self._socket.close()

    def _accept(self) -> None:
        while not self._stopping.is_set():
            try:
                conn, _ = self._socket.accept()
            except TimeoutError:
                continue
            self.requests += 1
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        with conn:
            try:
                received = b""
                while b"\r\n\r\n" not in received:
                    chunk = conn.recv(65536)
                    if not chunk:
                        return
                    received += chunk
                self._send(conn)
            except OSError:
                return

    def _head(self, status: str, length: int | None, extra: str = "") -> bytes:
        declared = "" if length is None else f"Content-Length: {length}\r\n"
        return (
            f"HTTP/1.1 {status}\r\nContent-Type: {self.answer.content_type}\r\n"
            f"{declared}Connection: close\r\n{extra}\r\n"
        ).encode()

    def _send(self, conn: socket.socket) -> None:
        answer = self.answer
        if answer.kind == "drip":
            conn.sendall(self._head("200 OK", 1_000_000))
            while not self._stopping.wait(answer.drip_interval_s):
                conn.sendall(b" ")
        elif answer.kind == "huge":
            length = answer.huge_bytes if answer.declare_length else None
            conn.sendall(self._head("200 OK", length))
            block = b" " * 65536
            for _ in range(answer.huge_bytes // len(block)):
                if self._stopping.is_set():
                    return
                conn.sendall(block)
        elif answer.kind in ("redirect", "offhost"):
            host = "127.0.0.1" if answer.kind == "redirect" else "localhost"
            location = f"Location: http://{host}:{self.port}{API_PATH}?again=1\r\n"
            conn.sendall(self._head("302 Found", 0, location))
        else:
            conn.sendall(self._head("200 OK", len(answer.body)) + answer.body)
