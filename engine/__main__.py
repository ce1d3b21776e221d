"""``python -m engine``: see :mod:`engine.cli`."""

import sys

from engine.cli import main
from engine.gc_settings import settle_for_batch_work

settle_for_batch_work()
sys.exit(main())
