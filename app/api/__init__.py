"""REST and websocket routes; each stays short and leaves decisions to app.service and rules."""
