"""Hand analysis: melds, decomposition, agari, waits and shanten."""
