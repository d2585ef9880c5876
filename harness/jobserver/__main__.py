"""``python -m harness.jobserver --socket PATH [--watch-pid PID]``: run a job server."""

import sys

from harness.jobserver.server import main

sys.exit(main())
