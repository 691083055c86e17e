"""BLAKE2b for content digests, without loading OpenSSL: ``hashlib`` imports ``_hashlib``
(OpenSSL, about 3 ms of every cold command) even when only its built-in BLAKE2 is used."""

from __future__ import annotations

try:
    from _blake2 import blake2b
except ImportError:  # an interpreter without CPython's built-in module
    from hashlib import blake2b

__all__ = ["blake2b"]
