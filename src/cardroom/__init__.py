"""cardroom: an online poker room."""

__version__ = "0.1.0"
