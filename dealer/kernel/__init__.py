"""The shared kernel: errors, money, cards and their decks, the ruling value, digests, documents.

Everything else may import it; it imports nothing of dealer above it."""
