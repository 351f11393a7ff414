"""``-cluster``: the games of a match on a Dask distributed cluster (see docs/cluster.md).

This module only reads the option; ``distributed`` is imported by ``cluster_run`` when a
cluster run starts, so the runner works without Dask installed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

LOCAL_PREFIX = "local:"
DEFAULT_TIMEOUT = 10.0  # seconds to reach the scheduler and find a worker
MAX_LOCAL_WORKERS = 256


@dataclass(frozen=True)
class ClusterSpec:
    """Where the games run: a scheduler address, or ``local_workers`` processes started here."""

    address: str
    local_workers: int = 0  # -cluster local:N
    timeout: float = DEFAULT_TIMEOUT
    tcscale: bool = False  # scale time controls by each worker's measured speed


def parse_cluster(address: str, keys: dict[str, str]) -> ClusterSpec:
    """``-cluster ADDRESS|local:N [timeout=S] [tcscale=on|off]``; raises ``ValueError``.

    >>> parse_cluster("local:2", {})
    ClusterSpec(address='local:2', local_workers=2, timeout=10.0, tcscale=False)
    >>> parse_cluster("tcp://10.0.0.5:8786", {"tcscale": "on"}).tcscale
    True
    """
    unknown = set(keys) - {"timeout", "tcscale"}
    if unknown:
        raise ValueError(f"unknown key {min(unknown)!r} (timeout=S, tcscale=on|off)")
    workers = 0
    if address.startswith(LOCAL_PREFIX):
        count = address[len(LOCAL_PREFIX) :]
        if not count.isdigit() or not 1 <= int(count) <= MAX_LOCAL_WORKERS:
            raise ValueError(f"{address}: expected local:N with N from 1 to {MAX_LOCAL_WORKERS}")
        workers = int(count)
    elif not address or address.startswith("-") or any(c.isspace() for c in address):
        raise ValueError(f"bad scheduler address {address!r}: expected tcp://HOST:PORT or local:N")
    try:
        timeout = float(keys.get("timeout", DEFAULT_TIMEOUT))
    except ValueError:
        raise ValueError(f"bad timeout {keys['timeout']!r}: expected seconds") from None
    if not (math.isfinite(timeout) and 0 < timeout <= 3600):
        raise ValueError(f"bad timeout {keys['timeout']!r}: expected seconds, more than 0 and at most 3600")
    scale = keys.get("tcscale", "off").lower()
    if scale not in ("on", "off", "true", "false"):
        raise ValueError(f"tcscale={keys['tcscale']}: expected on or off")
    return ClusterSpec(address, workers, timeout, scale in ("on", "true"))
