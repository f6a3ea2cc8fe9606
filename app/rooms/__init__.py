"""The rooms: their reads, creation and joining, and the move path (`service`), the
snapshot cache behind them, and the port through which the turn drivers act (`port`)."""
