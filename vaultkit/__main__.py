"""``python -m vaultkit`` runs the command-line interface."""

import sys

from vaultkit.cli import main

sys.exit(main())
