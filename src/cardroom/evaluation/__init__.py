"""Hand-ranking families of RULEBOOK section 2, lookup tables and equity."""
