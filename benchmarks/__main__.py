"""``python -m benchmarks``: run the whole benchmark suite (see benchmarks/run.py)."""

from __future__ import annotations

import sys

from benchmarks.run import main

sys.exit(main())
