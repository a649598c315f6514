import sys

from cheeseboard.cli import main

sys.exit(main())
