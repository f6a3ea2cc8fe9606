"""Tests of app/social/: chat, rematch and challenges."""
