"""Pictures of the board: the overlay with its lit pixels, the Gouda graph, the Gatenkaas deck."""

import json
import sys
from pathlib import Path


def write_svg(render_svg, rules_default, out_default, argv=None):
    """A picture's command line, `[rules.json [out.svg]]`: render_svg(rules) written to out."""
    args = sys.argv[1:] if argv is None else argv
    rules_path = Path(args[0]) if args else rules_default
    out_path = Path(args[1]) if len(args) > 1 else out_default
    rules = json.loads(rules_path.read_text(encoding="utf-8"))
    out_path.write_text(render_svg(rules), encoding="utf-8")
    print("wrote %s" % out_path)
    return 0
