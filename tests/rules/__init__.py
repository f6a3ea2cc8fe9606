"""Tests of rules/: the engine, through its public API."""
