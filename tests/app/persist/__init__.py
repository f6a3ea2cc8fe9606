"""Tests of app/persist/: the store, its writers, sealing and durability."""
