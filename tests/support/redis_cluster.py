"""A real Redis Cluster on local ports, for tests: masters (and replicas) as redis-server processes."""

from __future__ import annotations

import random
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import redis


def _port_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_cluster_ports(count: int) -> list[int]:
    """``count`` ports whose cluster bus ports (port + 10000) are free too."""
    found: list[int] = []
    while len(found) < count:
        port = random.randint(20000, 45000)
        if port in found or port + 10000 in found:
            continue
        if _port_free(port) and _port_free(port + 10000):
            found.append(port)
    return found


@dataclass
class Cluster:
    """A running cluster: its nodes' ports and processes."""

    ports: list[int]
    folder: Path
    processes: dict[int, subprocess.Popen[bytes]] = field(default_factory=dict)
    master_count: int = 0

    @property
    def url(self) -> str:
        """A URL naming one node (the cluster client finds the rest)."""
        return f"redis://127.0.0.1:{self.ports[0]}/0"

    def masters(self) -> list[int]:
        """The ports of the nodes that are masters now."""
        return sorted(p for p, role in _roles(self.alive()[0]).items() if role == "master")

    def alive(self) -> list[int]:
        """Ports of the nodes whose processes still run."""
        return [p for p, proc in self.processes.items() if proc.poll() is None]

    def kill(self, port: int) -> None:
        """kill -9 one node."""
        proc = self.processes[port]
        proc.kill()
        proc.wait(10)

    def start_node(self, port: int) -> None:
        """Start (or restart) the node on ``port`` from its folder."""
        node_dir = self.folder / str(port)
        node_dir.mkdir(parents=True, exist_ok=True)
        self.processes[port] = subprocess.Popen(
            [
                shutil.which("redis-server") or "redis-server",
                "--port",
                str(port),
                "--bind",
                "127.0.0.1",
                "--cluster-enabled",
                "yes",
                "--cluster-config-file",
                "nodes.conf",
                "--cluster-node-timeout",
                "2000",
                "--appendonly",
                "yes",
                "--appendfsync",
                "always",
                "--repl-diskless-sync-delay",
                "0",
                "--save",
                "",
                "--dir",
                str(node_dir),
                "--logfile",
                "redis.log",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def stop(self) -> None:
        """Stop every node."""
        for proc in self.processes.values():
            if proc.poll() is None:
                proc.kill()
        for proc in self.processes.values():
            proc.wait(10)


def _wait_answering(port: int, deadline: float) -> None:
    while True:
        try:
            redis.Redis(port=port, socket_timeout=0.5).ping()
            return
        except redis.RedisError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def wait_cluster_ok(port: int, timeout: float = 30.0) -> None:
    """Until the node on ``port`` says cluster_state:ok and every slot is served."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            info = redis.Redis(port=port, socket_timeout=0.5).cluster("info")
            if info.get("cluster_state") == "ok" and int(info.get("cluster_slots_ok", 0)) == 16384:
                return
        except redis.RedisError:
            pass
        if time.monotonic() > deadline:
            raise TimeoutError(f"the cluster did not become ok within {timeout} s")
        time.sleep(0.1)


def _roles(port: int) -> dict[int, str]:
    nodes = redis.Redis(port=port, socket_timeout=0.5).cluster("nodes")
    roles: dict[int, str] = {}
    for address, info in nodes.items():
        port_text = address.split("@")[0].rsplit(":", 1)[-1]
        if not port_text.isdigit() or port_text == "0":
            continue  # a node still in handshake has no address yet
        flags = info["flags"]
        roles[int(port_text)] = "fail" if "fail" in flags else ("master" if "master" in flags else "replica")
    return roles


def _linked(port: int) -> bool:
    info = redis.Redis(port=port, socket_timeout=0.5).info("replication")
    return info.get("master_link_status") == "up"


def replica_linked(port: int) -> bool:
    """Whether the node on ``port`` answers as a replica whose link to its master is up."""
    try:
        return _linked(port)
    except redis.RedisError:
        return False


def _wait_replicas(cluster: Cluster, count: int, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while sum(1 for port, r in _roles(cluster.ports[0]).items() if r == "replica" and _linked(port)) < count:
        if time.monotonic() > deadline:
            raise TimeoutError("the replicas did not attach")
        time.sleep(0.1)


def wait_failover(cluster: Cluster, killed: int, timeout: float = 30.0) -> float:
    """Until the killed master is marked failed and every slot is served again; the seconds it took."""
    start = time.monotonic()
    while True:
        port = cluster.alive()[0]
        try:
            roles = _roles(port)
            info = redis.Redis(port=port, socket_timeout=0.5).cluster("info")
            masters = sum(1 for role in roles.values() if role == "master")
            if (
                roles.get(killed) == "fail"
                and masters >= cluster.master_count
                and info.get("cluster_state") == "ok"
            ):
                return time.monotonic() - start
        except redis.RedisError:
            pass
        if time.monotonic() - start > timeout:
            raise TimeoutError(f"no failover within {timeout} s")
        time.sleep(0.1)


@contextmanager
def redis_cluster(folder: Path, masters: int = 3, replicas: int = 0) -> Iterator[Cluster]:
    """Start ``masters`` masters with ``replicas`` replicas each, form the cluster, stop it after."""
    ports = free_cluster_ports(masters * (1 + replicas))
    cluster = Cluster(ports, folder, master_count=masters)
    try:
        for port in ports:
            cluster.start_node(port)
        deadline = time.monotonic() + 20
        for port in ports:
            _wait_answering(port, deadline)
        subprocess.run(
            [
                shutil.which("redis-cli") or "redis-cli",
                "--cluster",
                "create",
                *[f"127.0.0.1:{p}" for p in ports],
                "--cluster-replicas",
                str(replicas),
                "--cluster-yes",
            ],
            check=True,
            capture_output=True,
            timeout=60,
        )
        for port in ports:
            wait_cluster_ok(port)
        _wait_replicas(cluster, masters * replicas)
        yield cluster
    finally:
        cluster.stop()
