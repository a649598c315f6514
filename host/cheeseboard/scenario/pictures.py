"""The board as a picture, for snapshot steps and failures: the project's one drawing
(cheeseboard.picture, the same as the web board's and `cheeseboard snapshot`'s)."""


class NoPicture(Exception):
    """The picture cannot be drawn here."""


def draw(profile, game, frame, table, suffix):
    """The picture's bytes: SVG, or PNG for a .png file."""
    try:
        from cheeseboard import picture
    except ImportError:
        raise NoPicture("no picture: cheeseboard.picture is not in this checkout") from None
    if suffix == ".png":
        try:
            return picture.png(profile, game, frame, table)
        except ImportError as e:
            raise NoPicture("no PNG here (%s): name the snapshot .svg" % e) from None
    return picture.svg(profile, game, frame, table).encode()
