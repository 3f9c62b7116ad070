"""Which encoding a source file is in, and writing a copy back in the same one.

TeX sources and .bib files are UTF-8 (a byte-order mark allowed) or, in old
arXiv sources, Latin-1. Some editors on Windows save UTF-16 (with a BOM, or
without one: then every other byte of ASCII text is NUL). The frontend reads
all of them as text (:func:`decode_source`). The annotated and fixed .bib
copies are written back in the encoding of the original (:func:`decode_copy`,
:func:`encode_copy`): UTF-16 stays UTF-16 with its BOM and byte order; any
other file keeps its bytes exactly (a UTF-8 BOM included) and the added
comment lines are UTF-8.
"""

from __future__ import annotations

import codecs
from collections.abc import Iterable, Iterator
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class TextEncoding:
    """How a file's bytes map to its text: a codec and whether a BOM leads."""

    codec: str = "utf-8"  # utf-8 (bytes kept as they are) | utf-16-le | utf-16-be
    bom: bool = False


_UTF16_BOMS = ((codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))


def sniff_utf16(data: bytes) -> TextEncoding | None:
    """The UTF-16 encoding of ``data``, or None when it is not UTF-16.

    A BOM decides; without one, NUL bytes at nearly every other position of the
    first 200 bytes (ASCII markup such as ``@article{``) mean UTF-16.
    """
    for bom, codec in _UTF16_BOMS:
        if data.startswith(bom):
            return TextEncoding(codec, bom=True)
    head = data[:200]
    if len(head) >= 4 and head.count(0) >= len(head) // 4:
        odd, even = head[1::2].count(0), head[0::2].count(0)
        if odd > even * 4:
            return TextEncoding("utf-16-le")
        if even > odd * 4:
            return TextEncoding("utf-16-be")
    return None


def _latin1_bytes(exc: UnicodeError) -> tuple[str, int]:
    """Codec error handler: the bytes UTF-8 cannot read, each as the Latin-1 letter it is."""
    if not isinstance(exc, UnicodeDecodeError):
        raise exc
    return exc.object[exc.start:exc.end].decode("latin-1"), exc.end


codecs.register_error("citecheck-latin1", _latin1_bytes)


def decode_source(data: bytes) -> str:
    """The text of a source file: UTF-16, else UTF-8 (BOM dropped) with any byte that is
    no UTF-8 read as Latin-1. An old Latin-1 file reads as Latin-1 (its accented letters
    are such bytes); a UTF-8 file with one stray Latin-1 byte (a pasted name) keeps its
    UTF-8 text, which reading the whole file as Latin-1 turned into "KrÃ¤mer"."""
    enc = sniff_utf16(data)
    if enc is not None:
        return data[2 if enc.bom else 0:].decode(enc.codec, errors="replace")
    return data.decode("utf-8-sig", errors="citecheck-latin1")


def decode_copy(data: bytes) -> tuple[str, TextEncoding]:
    """Text to annotate and the encoding to write the copy in (see :func:`encode_copy`).

    UTF-16 is decoded (without its BOM); anything else is read as UTF-8 with
    undecodable bytes kept as surrogates and a BOM kept as U+FEFF, so that the
    copy reproduces the original bytes.
    """
    enc = sniff_utf16(data)
    if enc is not None:
        return data[2 if enc.bom else 0:].decode(enc.codec, errors="replace"), enc
    return data.decode("utf-8", errors="surrogateescape"), TextEncoding()


def encode_copy(text: str, enc: TextEncoding) -> bytes:
    """``text`` as bytes in ``enc`` (the inverse of :func:`decode_copy`)."""
    return b"".join(iter_encode_copy(text, enc))


def iter_encode_copy(text: str | Iterable[str], enc: TextEncoding, *,
                     chunk: int = 1 << 20) -> Iterator[bytes]:
    """:func:`encode_copy` of ``text`` (or its pieces) in pieces of at most ``chunk``
    characters (a 70 MB .bib is then not held twice more, as one str and one bytes copy)."""
    if enc.codec == "utf-8":
        codec, errors = "utf-8", "surrogateescape"
    else:
        codec, errors = enc.codec, "surrogatepass"
        if enc.bom:
            yield next(b for b, c in _UTF16_BOMS if c == enc.codec)
    for piece in ([text] if isinstance(text, str) else text):
        for i in range(0, len(piece), chunk):
            yield piece[i:i + chunk].encode(codec, errors=errors)
