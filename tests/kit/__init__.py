"""What tests share: ports, deals, clients, response helpers, servers and an in-memory store."""
