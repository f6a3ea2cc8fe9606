"""Hostile input: forged, malformed and abusive requests against a real server."""
