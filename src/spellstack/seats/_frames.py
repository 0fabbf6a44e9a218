"""Length-prefixed frames over a byte stream: a 4-byte big-endian length, then that many bytes.
Bot processes speak them (``_stdio``, ``_bot_host``), and so do the tournament and its worker
processes; this module is the framing alone, whatever the frames hold."""

from __future__ import annotations

import trio

__all__ = ["FrameError", "FrameReader", "frame"]


class FrameError(ValueError):
    """A frame that is not what the other side may send, or a stream cut inside a frame."""

    def __init__(self, message: str, *, size: int | None = None, head: bytes = b"",
                 partial: bytes = b"") -> None:
        super().__init__(message)
        self.size = size
        """For a frame over the limit: the length it declared."""
        self.head = head
        """For a frame over the limit: the four bytes of that length."""
        self.partial = partial
        """For a stream that ended inside a frame: the bytes of it that came (length included)."""


def frame(payload: bytes) -> bytes:
    """``payload`` as one frame: its length, then its bytes."""
    return len(payload).to_bytes(4, "big") + payload


class FrameReader:
    """Reads frames from a byte stream, each at most ``limit`` bytes. Cancelling a read loses
    nothing: bytes read but not yet a whole frame wait in the reader for the next call."""

    def __init__(self, stream: trio.abc.ReceiveStream, limit: int) -> None:
        self.stream = stream
        """The stream it reads."""
        self.limit = limit
        """The largest frame it takes, in bytes."""
        self.buffer = bytearray()
        """Bytes read and not yet returned as a frame."""

    async def receive_payload(self) -> bytes | None:
        """The next frame's bytes, or None if the stream ended between frames.

        Raises:
            FrameError: a frame longer than ``limit`` (``size`` and ``head`` say what came), or
                the stream ended inside a frame (``partial``).
        """
        while True:
            if len(self.buffer) >= 4:
                size = int.from_bytes(self.buffer[:4], "big")
                if size > self.limit:
                    raise FrameError(f"a frame of {size} bytes (at most {self.limit})", size=size,
                                     head=bytes(self.buffer[:4]))
                if len(self.buffer) >= 4 + size:
                    payload = bytes(self.buffer[4:4 + size])
                    del self.buffer[:4 + size]
                    return payload
            chunk = await self.stream.receive_some(65536)
            if not chunk:
                if self.buffer:
                    raise FrameError(f"the stream ended inside a frame ({len(self.buffer)} bytes of it)",
                                     partial=bytes(self.buffer))
                return None
            self.buffer += chunk
