"""Two test hosts on this machine: network namespaces joined by a veth pair (needs root and iproute2).

`TwoHosts()` makes namespaces `pf<pid>a` (10.231.<n>.1) and `pf<pid>b` (10.231.<n>.2) and removes them on
`close()`; `run_in(i, ...)` starts a process in host i; `link(False)` takes the link down (a partition:
no reset reaches either side). Nothing else on the machine is touched and no other address is used.
"""

import os
import shutil
import subprocess

from . import loopback


def available() -> str:
    """'' when two namespace hosts can be made here, else why not."""
    if os.geteuid() != 0:
        return "needs root for network namespaces"
    if shutil.which("ip") is None:
        return "needs iproute2 (the `ip` command)"
    probe = f"pfprobe{os.getpid()}"
    made = subprocess.run(["ip", "netns", "add", probe], capture_output=True, text=True)
    if made.returncode:
        return f"cannot create network namespaces: {made.stderr.strip()}"
    subprocess.run(["ip", "netns", "del", probe], capture_output=True)
    return ""


def _ip(*args) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, text=True)


class TwoHosts:
    """Two namespaces with one address each, joined by a veth pair."""

    def __init__(self):
        subnet = os.getpid() % 200 + 20
        self.names = [f"pf{os.getpid()}a", f"pf{os.getpid()}b"]
        self.addresses = [f"10.231.{subnet}.1", f"10.231.{subnet}.2"]
        self.veths = [f"pfv{os.getpid()}a", f"pfv{os.getpid()}b"]
        for name in self.names:
            _ip("netns", "add", name)
        try:
            _ip("link", "add", self.veths[0], "type", "veth", "peer", "name", self.veths[1])
            for name, veth, address in zip(self.names, self.veths, self.addresses):
                _ip("link", "set", veth, "netns", name)
                _ip("-n", name, "addr", "add", f"{address}/24", "dev", veth)
                _ip("-n", name, "link", "set", veth, "up")
                _ip("-n", name, "link", "set", "lo", "up")
        except subprocess.CalledProcessError:
            self.close()
            raise

    def run_in(self, host: int, args, env) -> subprocess.Popen:
        """A process in host `host`."""
        return subprocess.Popen(["ip", "netns", "exec", self.names[host], *args], env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)

    def link(self, up: bool) -> None:
        """Bring host 1's end of the link up or down."""
        _ip("-n", self.names[1], "link", "set", self.veths[1], "up" if up else "down")

    def close(self) -> None:
        """Kill what runs in the namespaces and remove them."""
        for name in self.names:
            pids = subprocess.run(["ip", "netns", "pids", name], capture_output=True, text=True).stdout.split()
            for pid in pids:
                subprocess.run(["kill", "-9", pid], capture_output=True)
            subprocess.run(["ip", "netns", "del", name], capture_output=True)


def tf_config(hosts: TwoHosts, index: int, port: int = 23456) -> str:
    """TF_CONFIG of worker `index` of a 2-worker cluster, one worker per host."""
    return loopback.tf_config_for({"worker": [f"{a}:{port}" for a in hosts.addresses]}, "worker", index)
