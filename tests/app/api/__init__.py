"""Tests of app/api/: the REST routes, the websocket and the published documents."""
