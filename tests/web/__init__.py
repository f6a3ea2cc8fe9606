"""Tests of web/: the SPA in Debian's Chromium."""
