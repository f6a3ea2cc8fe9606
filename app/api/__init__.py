"""REST and websocket routes; each stays short and leaves decisions to app.rooms,
app.turns and rules."""
