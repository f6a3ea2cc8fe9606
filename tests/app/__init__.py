"""Tests of app/ (the server), one folder per app/ folder; app's top-level modules here."""
