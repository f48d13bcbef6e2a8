"""Bot players that speak the public protocol."""
