"""The checkpoint serializer: LangGraph's, with larger blobs compressed.

A checkpoint blob is mostly channel versions (32-digit zero-padded counters,
the scheme the LangGraph server imposes: see `graph.store.sqlite_format`) and the
writes hold the trajectory's text; zlib at its fastest level shrinks both
to about a third and two thirds. A compressed value's type tag gets a
`+zlib` suffix, as LangGraph's `EncryptedSerializer` marks its values, so an
uncompressed value (small, or written before) still reads as it is.
"""

from __future__ import annotations

import zlib
from typing import Any

from langgraph.checkpoint.serde.base import SerializerProtocol
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

SUFFIX = "+zlib"
MIN_COMPRESSED_BYTES = 256
LEVEL = 1


class CompressingSerializer(SerializerProtocol):
    """`inner` (LangGraph's serializer by default), compressing values of at least
    `MIN_COMPRESSED_BYTES` when that makes them smaller."""

    def __init__(self, inner: SerializerProtocol | None = None) -> None:
        self.inner = inner or JsonPlusSerializer()

    def dumps_typed(self, obj: Any) -> tuple[str, bytes]:
        """Serialize `obj`, compressed when worth it."""
        type_tag, data = self.inner.dumps_typed(obj)
        if len(data) >= MIN_COMPRESSED_BYTES:
            packed = zlib.compress(data, LEVEL)
            if len(packed) < len(data):
                return type_tag + SUFFIX, packed
        return type_tag, data

    def loads_typed(self, data: tuple[str, bytes]) -> Any:
        """Deserialize a value written by `dumps_typed` (or by the plain serializer)."""
        type_tag, payload = data
        if type_tag.endswith(SUFFIX):
            return self.inner.loads_typed((type_tag[: -len(SUFFIX)], zlib.decompress(payload)))
        return self.inner.loads_typed(data)
