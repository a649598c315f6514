"""What the games whose state follows from their history alone (Kalle, Katz, Gatenkaas) share of
the contract (docs/game-contract.md): equality, the player of an action, and from_dict by
replaying the history. (The kitchen and Gouda read their dicts back field by field, so that a
test can set up any position: their from_dict is their own.)"""

from cheesefw.games import as_action


class Replayed:
    """The base of such a game's State."""

    def action_player(self, a):
        """The player who takes action `a`: the player to act (no reaction windows)."""
        return self.current_player()

    @classmethod
    def from_dict(cls, rules, d):
        """The state saved by to_dict: its history replayed, then its other fields checked
        against the replay's; ValueError when `d` is malformed or does not follow from it."""
        try:
            s = cls(rules, d["options"])
            for a in d["history"]:
                s.apply_action(as_action(a))
            again = s.to_dict()
            for key in again:  # (the options and the history made the state: not checked again)
                if key != "options" and key != "history" and again[key] != d[key]:
                    raise ValueError("state.%s expected %r (from the history), got %r"
                                     % (key, again[key], d[key]))
        except (KeyError, TypeError, AttributeError) as e:
            raise ValueError("state expected the fields of to_dict, got %r" % (e,)) from None
        return s

    def __eq__(self, other):
        return type(other) is type(self) and self.to_dict() == other.to_dict()
