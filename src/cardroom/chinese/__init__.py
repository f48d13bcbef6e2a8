"""Chinese poker and the Open Face family (RULEBOOK section 8)."""
