"""``python -m sweeplab``: the same command line as ``sweeplab`` (:mod:`sweeplab.cli`)."""

import sys

from .cli import main

sys.exit(main())
