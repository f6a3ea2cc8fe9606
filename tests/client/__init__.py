"""Tests of client/ and of clients generated from /openapi.json."""
