"""Talking to a running board: finding its port, opening it, the line protocol."""
