"""python -m placeflow: the placeflow command."""
import sys

from .tools.cli import main

sys.exit(main())
