"""Pictures of the board: the overlay with its lit pixels, the Gouda graph, the Gatenkaas deck."""
