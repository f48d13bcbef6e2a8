"""The pure rules engine: variants as data, betting, pots, showdown, hand histories."""
