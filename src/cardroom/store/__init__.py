"""Durable storage: SQLAlchemy models, repositories, migrations, event log."""
