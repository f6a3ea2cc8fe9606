"""Tests of app/rooms/: room modes, options, votes and whole hands."""
