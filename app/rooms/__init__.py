"""The rooms: their reads (`reads`, over the snapshot cache `snapshots`), creation and joining
(`setup`), and the move path (`service`); and the port through which the turn drivers act
(`port`)."""
