"""Tests of app/records/: the match record built, signed and checked."""
