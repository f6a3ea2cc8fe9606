"""Tests of app/guards/: HEAD, connection limits and authorization."""
