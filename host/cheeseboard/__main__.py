"""The `cheeseboard` command's entry point (`python -m cheeseboard`, and the installed script).

It imports the tool inside a guard, so that Ctrl-C pressed while Python is still loading it ends
with the same one line as Ctrl-C anywhere else, never a traceback; and once the command has
done its work, Ctrl-C is ignored, since all it could still interrupt is Python's own exit
(which prints the traceback of whatever it was waiting on, "Exception ignored in ...").
"""

import signal
import sys

from cheeseboard import NOT_STARTED


def main():
    try:
        from cheeseboard import cli
    except KeyboardInterrupt:
        print(NOT_STARTED, file=sys.stderr)
        return 130
    status = cli.main()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    return status


if __name__ == "__main__":
    sys.exit(main())
