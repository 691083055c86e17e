"""blake2b without OpenSSL, for the caches a one-note lint reads at start-up.

``hashlib`` loads ``_hashlib`` (OpenSSL's libcrypto: about 11 M instructions, 2-3 ms, of every
process that imports it) only to offer the same blake2b that CPython builds in as ``_blake2``.
The digests are identical; a Python built without its own hash modules takes hashlib's.
"""

from __future__ import annotations

try:
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - CPython configured --without-builtin-hashlib-hashes
    from hashlib import blake2b

__all__ = ["blake2b"]
