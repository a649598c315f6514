"""The engine every game shares: the die, the journal, turn flow, menus, rendering."""
