"""A throwaway PostgreSQL server for tests and benchmarks, from the machine's binaries.

    python tests/postgres_server.py start DIR   # prints the server's URL
    python tests/postgres_server.py stop DIR

`initdb` and `pg_ctl` run in a fresh temporary directory on a free loopback port (as the `postgres`
user when run as root, because `initdb` refuses root), with trust
authentication and no fsync. `.ci/run` starts one before pytest and exports
its URL as `REACT_AGENT_TEST_POSTGRES_URL`; without that variable the test
fixtures start their own. Exit status 3 means the binaries are absent.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

URL_VARIABLE = "REACT_AGENT_TEST_POSTGRES_URL"
SERVICE_USER = "postgres"
DATABASE = "react_agent_test"
NO_BINARIES = 3
TOOLS = ("initdb", "pg_ctl", "postgres", "createdb")


class PostgresUnavailable(RuntimeError):
    """The PostgreSQL server binaries are not on this machine."""


def find_bindir() -> Path:
    """The directory holding `initdb`, `pg_ctl` and `postgres` (newest version first)."""
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    on_path = shutil.which("initdb")
    if on_path:
        candidates.insert(0, str(Path(on_path).parent))
    for directory in candidates:
        if all((Path(directory) / tool).exists() for tool in TOOLS):
            return Path(directory)
    raise PostgresUnavailable(
        "PostgreSQL server binaries (initdb, pg_ctl) not found on PATH or in "
        "/usr/lib/postgresql/*/bin; install the Debian 'postgresql' package"
    )


def _as_service_user(command: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return command
    return ["runuser", "-u", SERVICE_USER, "--", *command]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _run(command: list[str]) -> None:
    done = subprocess.run(_as_service_user(command), capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed: {done.stderr.strip() or done.stdout}")


def _cluster_dir(directory: Path) -> Path:
    """Where the cluster lives: a fresh directory the service user owns (`initdb` refuses
    root, and the caller's directory may not be reachable by that user)."""
    cluster = Path(tempfile.mkdtemp(prefix="react-agent-pg-"))
    cluster.chmod(0o700)
    if os.geteuid() == 0:
        shutil.chown(cluster, SERVICE_USER, SERVICE_USER)
    (directory / "cluster").write_text(str(cluster))
    return cluster


def start(directory: Path) -> str:
    """Create and start a server for `directory`; return its URL (database `react_agent_test`).

    `directory` receives `url` and `cluster` (the path of the server's own files).
    """
    bindir = find_bindir()
    directory = directory.resolve()
    directory.mkdir(parents=True, exist_ok=True)
    cluster = _cluster_dir(directory)
    data = cluster / "data"
    initdb = [str(bindir / "initdb"), "-D", str(data), "-A", "trust", "-U", SERVICE_USER]
    _run([*initdb, "--no-sync", "-E", "UTF8", "--locale", "C"])
    try:
        return _serve(bindir, cluster, directory)
    except BaseException:
        stop(directory)
        raise


def _serve(bindir: Path, cluster: Path, directory: Path) -> str:
    data = cluster / "data"
    port = _free_port()
    options = (
        f"-c listen_addresses=127.0.0.1 -p {port} -c unix_socket_directories={cluster} "
        "-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
    )
    pg_ctl = [str(bindir / "pg_ctl"), "-D", str(data), "-l", str(cluster / "server.log")]
    _run([*pg_ctl, "-o", options, "-w", "-t", "60", "start"])
    host = ["-h", "127.0.0.1", "-p", str(port), "-U", SERVICE_USER]
    _run([str(bindir / "createdb"), *host, DATABASE])
    url = f"postgresql://{SERVICE_USER}@127.0.0.1:{port}/{DATABASE}"
    (directory / "url").write_text(url)
    return url


def stop(directory: Path) -> None:
    """Stop the server started for `directory` and delete its files."""
    marker = directory.resolve() / "cluster"
    if not marker.exists():
        return
    cluster = Path(marker.read_text().strip())
    data = cluster / "data"
    if (data / "postmaster.pid").exists():
        _run([str(find_bindir() / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"])
    shutil.rmtree(cluster, ignore_errors=True)
    marker.unlink()


def main(argv: list[str]) -> int:
    """`start DIR` or `stop DIR`."""
    if len(argv) != 2 or argv[0] not in ("start", "stop"):
        print("usage: postgres_server.py start|stop DIR", file=sys.stderr)
        return 2
    try:
        if argv[0] == "start":
            print(start(Path(argv[1])))
        else:
            stop(Path(argv[1]))
    except PostgresUnavailable as error:
        print(f"postgres_server: {error}", file=sys.stderr)
        return NO_BINARIES
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
