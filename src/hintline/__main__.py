"""``python -m hintline``."""

import sys

from hintline.cli import main

sys.exit(main())
