"""server/stdio.py: LSP framing read from a pipe in chunks, whatever the chunk boundaries; the message
loop's log, one line for what the client got wrong."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import threading

from pygls.exceptions import JsonRpcInvalidParams

from cass_lsp.server import stdio


def framed(body: dict[str, object]) -> bytes:
    data = json.dumps(body).encode()
    return b"Content-Length: %d\r\n\r\n" % len(data) + data


async def read_messages(reader: stdio.ChunkedReader) -> list[bytes]:
    """What pygls's message loop reads: header lines up to a blank one, then the body."""
    bodies = []
    while True:
        length = 0
        while (line := await reader.readline()) not in (b"\r\n", b""):
            if line.startswith(b"Content-Length:"):
                length = int(line.split(b":")[1])
        if not line:
            return bodies
        bodies.append(await reader.readexactly(length))


def test_messages_split_anywhere_are_read_whole() -> None:
    messages = [{"jsonrpc": "2.0", "method": "m", "params": {"text": "ü" * size}} for size in (0, 10, 70_000, 3)]
    stream = b"".join(framed(m) for m in messages)
    read_fd, write_fd = os.pipe()

    def write_in_odd_pieces() -> None:
        for start in range(0, len(stream), 4093):  # boundaries inside headers and bodies
            os.write(write_fd, stream[start : start + 4093])
        os.close(write_fd)

    writer = threading.Thread(target=write_in_odd_pieces)
    writer.start()
    bodies = asyncio.run(read_messages(stdio.ChunkedReader(read_fd)))
    writer.join()
    os.close(read_fd)
    assert [json.loads(body) for body in bodies] == messages


def test_a_burst_is_read_in_one_round_trip() -> None:
    read_fd, write_fd = os.pipe()
    burst = b"".join(framed({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"n": i}}) for i in range(50))
    os.write(write_fd, burst)
    os.close(write_fd)
    reader = stdio.ChunkedReader(read_fd)
    fills = 0
    fill = reader._fill

    async def counting_fill() -> bool:
        nonlocal fills
        fills += 1
        return await fill()

    reader._fill = counting_fill  # type: ignore[method-assign]
    bodies = asyncio.run(read_messages(reader))
    os.close(read_fd)
    assert len(bodies) == 50
    assert fills == 2  # the burst, then the end of the input


def test_input_ending_inside_a_message_returns_what_is_left() -> None:
    read_fd, write_fd = os.pipe()
    os.write(write_fd, b"Content-Length: 100\r\n\r\n{\"jsonrpc\"")
    os.close(write_fd)
    reader = stdio.ChunkedReader(read_fd)

    async def read() -> tuple[bytes, bytes, bytes, bytes]:
        return await reader.readline(), await reader.readline(), await reader.readexactly(100), await reader.readline()

    assert asyncio.run(read()) == (b"Content-Length: 100\r\n", b"\r\n", b"{\"jsonrpc\"", b"")
    os.close(read_fd)


def record_of(message: str, error: BaseException | None) -> logging.LogRecord:
    exc_info = (type(error), error, None) if error is not None else None
    return logging.LogRecord("pygls.protocol.json_rpc", logging.ERROR, __file__, 1, message, ("7",), exc_info)


def test_client_faults_are_one_line_and_server_faults_keep_their_traceback() -> None:
    logger = stdio.message_loop_logger()
    client_faults = logger.filters[0]
    assert client_faults in logging.getLogger("pygls.protocol.json_rpc").filters

    refused = record_of('Exception occurred for message "%s"', JsonRpcInvalidParams(message="not open"))
    assert client_faults.filter(refused)
    assert refused.getMessage() == 'Exception occurred for message "7": not open' and refused.exc_info is None

    ours = record_of('Exception occurred for message "%s"', RuntimeError("a bug"))
    assert client_faults.filter(ours) and ours.exc_info is not None  # the traceback stays

    assert not client_faults.filter(record_of("Unable to deserialize message\n%s", None))
    not_json = json.JSONDecodeError("Expecting value", "{x", 1)
    assert not client_faults.filter(record_of("Unable to handle message", not_json))  # reported in a line
