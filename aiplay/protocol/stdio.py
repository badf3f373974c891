"""The stdio transport: the protocol over standard input and output (``aiplay serve``).

Lines are read with the length limit applied while reading (:data:`~aiplay.protocol.wire.MAX_LINE`
characters): a longer line is read in chunks and thrown away as it comes, never held whole, and
gets one error reply. The memory a line takes is thus bounded whatever the client sends.
"""

from __future__ import annotations

import codecs
import io
import sys
from typing import Any, BinaryIO, Dict, Iterator, Optional, TextIO, Union

from aiplay.protocol.server import Server, ServerLimits
from aiplay.protocol.wire import MAX_LINE, ProtocolError, encode_reply

#: Bytes read at once while a line past the limit is skipped.
_CHUNK = 1 << 16
#: The most bytes a line of MAX_LINE characters can take in UTF-8 (with its CR LF).
_MAX_LINE_BYTES = 4 * MAX_LINE + 2


class LineTooLong:
    """A line past the limit that was skipped: its length in characters (its end of line left out)."""

    def __init__(self, chars: int):
        self.chars = chars

    def error(self) -> ProtocolError:
        return ProtocolError(f"line too long ({self.chars} characters; the limit is {MAX_LINE})")


def read_lines(source: Union[TextIO, BinaryIO], limit: int = MAX_LINE) -> Iterator[Union[str, LineTooLong]]:
    """The lines of ``source`` (its end-of-line characters removed), each read with ``limit`` applied.

    A line up to ``limit`` characters is yielded as text; a longer one is read on in chunks of
    64 KiB, thrown away, and yielded as a :class:`LineTooLong`: at most about ``4 * limit``
    bytes are ever held. Binary input is decoded as UTF-8 (bad bytes replaced).
    """
    binary = getattr(source, "buffer", None)
    stream: Any = binary if binary is not None else source
    is_bytes = binary is not None or isinstance(source, (io.BufferedIOBase, io.RawIOBase))
    newline: Any = b"\n" if is_bytes else "\n"
    most = 4 * limit + 2 if is_bytes else limit + 2
    while True:
        raw = stream.readline(most)
        if not raw:
            return
        if is_bytes:
            decoder = codecs.getincrementaldecoder("utf-8")("replace")
            text = decoder.decode(raw, final=raw.endswith(newline) or len(raw) < most)
        else:
            decoder, text = None, raw
        if raw.endswith(newline) or len(raw) < most:  # the whole line (or the last one, at the end of input)
            line = text.rstrip("\r\n")
            if len(line) <= limit:
                yield line
                continue
            yield LineTooLong(len(line))
            continue
        chars = len(text)
        ending = ""
        while True:  # skip the rest of the line, counting its characters
            chunk = stream.readline(_CHUNK)
            if not chunk:
                break
            part = decoder.decode(chunk) if decoder is not None else chunk
            chars += len(part)
            ending = (ending + part)[-2:]
            if chunk.endswith(newline):
                break
        chars -= len(ending) - len(ending.rstrip("\r\n"))
        yield LineTooLong(chars)


def serve_stdio(stdin: Optional[TextIO] = None, stdout: Optional[TextIO] = None,
                limits: Optional[ServerLimits] = None) -> int:
    """Serve the protocol over standard input and output until ``quit`` or end of input (caps: ``limits``)."""
    out = stdout if stdout is not None else sys.stdout
    source = stdin if stdin is not None else sys.stdin

    def emit(obj: Dict[str, Any]) -> None:
        out.write(encode_reply(obj) + "\n")
        out.flush()

    server = Server(emit, limits)
    for line in read_lines(source):
        if isinstance(line, LineTooLong):
            server.fail(None, None, line.error())
            continue
        if not server.handle_line(line):
            break
    server.shutdown()
    return 0


__all__ = ["LineTooLong", "read_lines", "serve_stdio"]
