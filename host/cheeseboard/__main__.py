import sys

from cheeseboard.command import main

sys.exit(main())
