"""Match records (docs/record.md): built from a room's hand log (`format`), signed by the
server (`signing`), and checked hand by hand and as a whole by `rummy verify` (`verify`,
`checks`, `redeal`)."""
