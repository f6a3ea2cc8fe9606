"""Alembic migrations for the rummy database (async env; SQLite and PostgreSQL)."""
