"""Tests of app/views/: what each seat and spectator is shown."""
