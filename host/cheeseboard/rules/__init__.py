"""Rule tables: checking them as a board does, and syncing them with a board."""
