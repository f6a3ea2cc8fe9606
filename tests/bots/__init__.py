"""Tests of bots/: the computer players and the websocket bot client."""
