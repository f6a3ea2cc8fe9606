"""Hosts of their own on one machine, for bench/hostkill.py: Linux network namespaces.

Each host is a network namespace joined to this one by a veth pair (10.99.<i>.1 here,
10.99.<i>.2 inside), so its processes have their own network stack: the proxy reaches them
over the pair, and cutting the pair makes the host fall silent the way a machine that
dies does (no reset, no FIN: connections simply stop answering), which a process killed on
a shared loopback never shows.

PostgreSQL and Redis listen on 127.0.0.1 only, which a namespace cannot reach, so one
HAProxy in TCP mode relays each host's 10.99.<i>.1:5432 and :6379 to them. Its TCP
keepalives to the hosts close a dead host's relayed connections within seconds, so
PostgreSQL does not fill up with the backends of hosts that died.

Needs root (CAP_NET_ADMIN) and iproute2, as `ip netns` allows here.
"""

from __future__ import annotations

import os
import socket
import subprocess
import time
from pathlib import Path

SERVICES = {"postgres": 5432, "redis": 6379}


def _ip(*args: str, ns: str | None = None, check: bool = True) -> None:
    cmd = ["ip", "netns", "exec", ns, "ip", *args] if ns else ["ip", *args]
    subprocess.run(cmd, check=check, capture_output=True)


class Namespace:
    """One host: a namespace, its veth pair and its two addresses."""

    def __init__(self, index: int) -> None:
        tag = f"{os.getpid() % 10000}{index}"
        self.name = f"rummy-host-{tag}"
        self.outer, self.inner = f"rko{tag}", f"rki{tag}"  # interface names: 15 bytes at most
        self.gateway = f"10.99.{index}.1"  # this side: the proxy and the relays
        self.address = f"10.99.{index}.2"  # the host's own

    def create(self) -> None:
        self.delete()
        subprocess.run(["ip", "netns", "add", self.name], check=True, capture_output=True)
        _ip("link", "add", self.outer, "type", "veth", "peer", "name", self.inner)
        _ip("link", "set", self.inner, "netns", self.name)
        _ip("addr", "add", f"{self.gateway}/24", "dev", self.outer)
        _ip("link", "set", self.outer, "up")
        _ip("addr", "add", f"{self.address}/24", "dev", self.inner, ns=self.name)
        _ip("link", "set", self.inner, "up", ns=self.name)
        _ip("link", "set", "lo", "up", ns=self.name)

    def command(self, cmd: list[str]) -> list[str]:
        """`cmd` run inside the namespace."""
        return ["ip", "netns", "exec", self.name, *cmd]

    def cut(self) -> None:
        """The host falls silent: packets to and from it go nowhere."""
        _ip("link", "set", self.outer, "down")

    def mend(self) -> None:
        _ip("link", "set", self.outer, "up")

    def delete(self) -> None:
        for pid in subprocess.run(
            ["ip", "netns", "pids", self.name], capture_output=True, text=True
        ).stdout.split():
            subprocess.run(["kill", "-9", pid], capture_output=True)
        subprocess.run(["ip", "netns", "del", self.name], capture_output=True)
        _ip("link", "del", self.outer, check=False)


def relay_config(hosts: list[Namespace]) -> str:
    """HAProxy relaying each host's gateway ports to this machine's PostgreSQL and Redis."""
    lines = [
        "global",
        "    maxconn 4000",
        "defaults",
        "    mode tcp",
        "    timeout connect 5s",
        # Pooled connections sit idle for long; a dead host's are found by keepalive.
        "    timeout client 1h",
        "    timeout server 1h",
        "    option clitcpka",
        "    clitcpka-idle 3s",
        "    clitcpka-intvl 1s",
        "    clitcpka-cnt 3",
    ]
    for name, port in SERVICES.items():
        binds = ",".join(f"{h.gateway}:{port}" for h in hosts)
        lines += [f"listen {name}", f"    bind {binds}", f"    server {name} 127.0.0.1:{port}"]
    return "\n".join(lines) + "\n"


def start_relay(hosts: list[Namespace], logs: Path) -> subprocess.Popen[bytes]:
    """The relays, once they accept connections (10 s at most)."""
    config = logs / "relay.cfg"
    config.write_text(relay_config(hosts))
    with open(logs / "relay.log", "ab") as log:
        relay = subprocess.Popen(["haproxy", "-f", str(config), "-db"], stdout=log, stderr=log)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and relay.poll() is None:
        try:
            socket.create_connection((hosts[0].gateway, SERVICES["redis"]), timeout=1).close()
            return relay
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"the relay did not start; see {logs / 'relay.log'}")


def through(url: str, host: Namespace) -> str:
    """A service URL on 127.0.0.1 as the host reaches it (its gateway's relay)."""
    return url.replace("127.0.0.1", host.gateway).replace("localhost", host.gateway)
