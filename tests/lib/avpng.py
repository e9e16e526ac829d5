"""Real PNG files made in the tests, standard library only: one colour,
a grey mask, noise that does not compress, and the chunks to put
together an odd one (png_limits.py); data: URLs of them.

Every builder gives 8-bit (or the depth asked) non-interlaced PNGs whose
rows all use filter 0."""

import base64
import os
import struct
import zlib

SIGNATURE = b"\x89PNG\r\n\x1a\n"
# Colour types and the samples per pixel of each.
GREY, RGB, GREY_ALPHA, RGBA = 0, 2, 4, 6
SAMPLES = {GREY: 1, RGB: 3, GREY_ALPHA: 2, RGBA: 4}


def chunk(kind, data):
    """One chunk: length, type, data, CRC."""
    return (struct.pack(">I", len(data)) + kind + data +
            struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))


def ihdr(w, h, depth=8, ctype=RGB):
    return chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, ctype, 0, 0, 0))


def build(w, h, rows, depth=8, ctype=RGB, level=-1):
    """A PNG of the raw rows (each starting with its filter byte),
    compressed at zlib level `level`."""
    return (SIGNATURE + ihdr(w, h, depth, ctype) + chunk(b"IDAT", zlib.compress(rows, level)) +
            chunk(b"IEND", b""))


def solid(w, h, rgb):
    """w x h pixels of one RGB colour, 8-bit truecolour."""
    return build(w, h, b"".join(b"\0" + bytes(rgb) * w for _ in range(h)))


def mask(w=8, h=8, on=lambda x, y: x >= 4):
    """An 8-bit grey mask: white where on(x, y), black elsewhere (by
    default the right half of 8 x 8)."""
    rows = b"".join(b"\0" + b"".join(b"\xff" if on(x, y) else b"\0" for x in range(w))
                    for y in range(h))
    return build(w, h, rows, ctype=GREY)


def noise(n):
    """Random RGB pixels, 256 wide, about n bytes (noise does not
    compress), so storing it needs that much room."""
    w = 256
    h = max(1, n // (w * 3))
    return build(w, h, b"".join(b"\x00" + os.urandom(w * 3) for _ in range(h)))


def data_url(b):
    return "data:image/png;base64," + base64.b64encode(b).decode()
