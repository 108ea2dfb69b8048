"""`python -m pipelines.cli ...` (the Makefile's form of `foresci ...`)."""

import sys

from pipelines.cli import main

sys.exit(main())
