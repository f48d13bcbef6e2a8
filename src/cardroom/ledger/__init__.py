"""Accounts and the double-entry ledger: every chip accounted for."""
