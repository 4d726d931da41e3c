"""``python -m eson``: the same as the ``eson`` command."""

from __future__ import annotations

import sys

from eson.cli import main

sys.exit(main())
