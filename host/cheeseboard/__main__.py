"""The `cheeseboard` command's entry point (`python -m cheeseboard`, and the installed script).

It imports the tool inside a guard, so that Ctrl-C pressed while Python is still loading it ends
with the same one line as Ctrl-C anywhere else, never a traceback.
"""

import sys


def main():
    try:
        from cheeseboard import cli
    except KeyboardInterrupt:
        print("cheeseboard: interrupted before it started; nothing was done", file=sys.stderr)
        return 130
    return cli.main()


if __name__ == "__main__":
    sys.exit(main())
