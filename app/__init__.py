"""The rummy server: FastAPI over SQLAlchemy async, calling `rules` for every decision."""
