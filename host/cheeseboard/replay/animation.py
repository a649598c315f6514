"""A replay as one animated SVG: the board's picture (cheeseboard.picture), each pixel's colour
stepping through the replay's frames, and a caption per step.

SVG rather than GIF: no new dependency (the picture is SVG already), every browser and the
README's viewer play it, it stays sharp at any size, and a pixel that keeps its colour costs
nothing (a GIF of the same game is a bitmap per step). The animation is SMIL: a discrete
`<animate>` of each changing pixel's fill, and of each caption's visibility, looping.
"""

import re
from xml.sax.saxutils import escape

from cheeseboard.pictures import picture

CAPTION = 26  # px below the board for the step's words


def svg(profile, game, steps, seconds, caption):
    """The animated picture, `seconds` a step; caption(step) -> the words under it."""
    base = picture.svg(profile, game, steps[0].frame)
    width, height = picture.size(profile)
    total = "%gs" % (seconds * len(steps))
    base = base.replace('height="%d" viewBox="0 0 %d %d"' % (height, width, height),
                        'height="%d" viewBox="0 0 %d %d"' % (height + CAPTION, width,
                                                            height + CAPTION), 1)

    def animated(match):
        px = int(match.group(1))
        colours = [picture.rgb(step.frame, px) for step in steps]
        if len(set(colours)) == 1:
            return match.group(0)
        return "%s><animate attributeName=\"fill\" values=\"%s\" dur=\"%s\" calcMode=" \
               "\"discrete\" repeatCount=\"indefinite\"/></circle>" % (
                   match.group(0)[:-2], ";".join(_short(c) for c in colours), total)

    body = re.sub(r'<circle id="px-(\d+)"[^>]*/>', animated, base)
    captions = []
    n = len(steps)
    for i, step in enumerate(steps):
        shown = ";".join("visible" if k == i else "hidden" for k in range(n))
        captions.append(
            '<text x="%d" y="%d" font-size="13" fill="%s" visibility="%s">%s<animate '
            'attributeName="visibility" values="%s" dur="%s" calcMode="discrete" '
            'repeatCount="indefinite"/></text>\n'
            % (picture.MARGIN, height + CAPTION - 10, picture.INK,
               "visible" if i == 0 else "hidden", escape(caption(step)[:90]), shown, total))
    return body.replace("</svg>", "".join(captions) + "</svg>")


def _short(css):
    """rgb(r,g,b) as #rrggbb (a third of the bytes, in a file that repeats it per step)."""
    r, g, b = (int(v) for v in css[4:-1].split(","))
    return "#%02x%02x%02x" % (r, g, b)
