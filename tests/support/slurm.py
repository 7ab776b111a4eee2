"""A real single-node SLURM on the test machine, for testing the workflow's SLURM path.

Recipe: Debian packages ``slurmctld slurmd slurm-client munge``; a munge
key and ``munged`` running as the munge user; a minimal /etc/slurm/slurm.conf (no
accounting, linuxproc process tracking, cons_tres with core and memory scheduling, one node
with this machine's CPUs and ~80 % of its memory, one default partition); ``slurmctld`` then
``slurmd``; wait until ``sinfo`` shows the node idle.

Needs root. Every daemon is started in the foreground (``-D`` / ``-F``) as a child process,
so that :meth:`SlurmCluster.stop` ends exactly the processes it started, by pid. An existing
/etc/slurm/slurm.conf is backed up and restored (or ours removed) at :meth:`stop`. State,
spool, logs and pid files live in a fresh temporary folder. Every failure raises
:class:`ClusterError` with the daemons' log tails.

Usage::

    with SlurmCluster() as cluster:        # or cluster.start() ... cluster.stop()
        print(cluster.partition)           # "debug"
"""
from __future__ import annotations

import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

PACKAGES = ("slurmctld", "slurmd", "slurm-client", "munge")
#: the binaries the packages provide (installed when one is missing)
BINARIES = ("slurmctld", "slurmd", "sinfo", "sbatch", "squeue", "scancel", "munged", "munge", "unmunge")
SLURM_CONF = Path("/etc/slurm/slurm.conf")
CONF_MARKER = "# written by tests/support/slurm.py"
MUNGE_KEY = Path("/etc/munge/munge.key")
SBIN_PATHS = ("/usr/sbin", "/sbin", "/usr/bin", "/bin")


def _is_ours(conf: Path) -> bool:
    """Whether ``conf`` was written by this module (its first line is our marker)."""
    try:
        with open(conf) as f:
            return f.readline().startswith(CONF_MARKER)
    except OSError:
        return False


def remove_stale_conf() -> bool:
    """Remove a slurm.conf left by a test cluster that was killed before :meth:`SlurmCluster.stop`
    (no SLURM daemon running, first line our marker). Returns whether one was removed.

    Such a file is not harmless: it names a controller that no longer exists, and the SLURM
    executor plugin runs ``scontrol show config`` whenever Snakemake loads its plugins, which then
    waits ~9 s for that controller on every Snakemake start (every job of a ``run:`` rule too)."""
    if SLURM_CONF.exists() and _is_ours(SLURM_CONF) and not _foreign_daemons():
        SLURM_CONF.unlink()
        return True
    return False


class ClusterError(RuntimeError):
    """The single-node SLURM could not be installed or started (the message says why)."""


def _which(name: str) -> str | None:
    path = os.environ.get("PATH", "") + os.pathsep + os.pathsep.join(SBIN_PATHS)
    return shutil.which(name, path=path)


def _run(cmd: list[str], timeout: float, **kwargs) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              timeout=timeout, **kwargs)
    except subprocess.TimeoutExpired as exc:
        raise ClusterError(f"`{' '.join(cmd)}` did not finish within {timeout:.0f} s:\n"
                           f"{(exc.output or '')[-3000:] if isinstance(exc.output, str) else ''}") from exc
    except FileNotFoundError as exc:
        raise ClusterError(f"`{cmd[0]}` not found: {exc}") from exc


def _tail(path: Path, lines: int = 30) -> str:
    try:
        text = path.read_text(errors="replace").splitlines()
    except OSError as exc:
        return f"  (cannot read {path}: {exc})"
    return "\n".join("  " + line for line in text[-lines:]) or "  (empty)"


def missing_binaries() -> list[str]:
    """The SLURM and munge binaries that are not installed."""
    return [b for b in BINARIES if _which(b) is None]


def install_packages(timeout: float = 600) -> bool:
    """apt-get install the SLURM and munge packages if a binary is missing; True if it installed."""
    missing = missing_binaries()
    if not missing:
        return False
    if _which("apt-get") is None:
        raise ClusterError(f"SLURM binaries missing ({', '.join(missing)}) and no apt-get to install "
                           f"{' '.join(PACKAGES)}")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    install = ["apt-get", "install", "-y", "-q", "--no-install-recommends", *PACKAGES]
    proc = _run(install, timeout, env=env)
    if proc.returncode != 0:        # stale package lists (fresh container): update once, retry
        update = _run(["apt-get", "update", "-q"], timeout, env=env)
        if update.returncode != 0:
            raise ClusterError(f"apt-get update failed ({update.returncode}):\n{update.stdout[-3000:]}")
        proc = _run(install, timeout, env=env)
    if proc.returncode != 0:
        raise ClusterError(f"`{' '.join(install)}` failed ({proc.returncode}):\n{proc.stdout[-3000:]}")
    still = [b for b in BINARIES if _which(b) is None]
    if still:
        raise ClusterError(f"after installing {' '.join(PACKAGES)}, still missing: {', '.join(still)}")
    return True


def _foreign_daemons() -> list[str]:
    """SLURM daemons already running on this machine (not started by us)."""
    proc = subprocess.run(["ps", "-eo", "pid=,comm="], stdout=subprocess.PIPE, text=True)
    return [line.strip() for line in proc.stdout.splitlines()
            if line.split()[-1:] and line.split()[-1] in ("slurmctld", "slurmd")]


def node_line() -> str:
    """This machine's NodeName line (``slurmd -C``), with RealMemory cut to ~80 %."""
    proc = _run([_which("slurmd") or "slurmd", "-C"], 60)
    line = next((l for l in proc.stdout.splitlines() if l.startswith("NodeName=")), None)
    if proc.returncode != 0 or line is None:
        raise ClusterError(f"`slurmd -C` failed ({proc.returncode}):\n{proc.stdout[-2000:]}")
    fields = dict(item.split("=", 1) for item in line.split())
    memory = int(fields.get("RealMemory", "0"))
    if memory <= 0:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2**20
    fields["RealMemory"] = str(max(int(memory * 0.8), 500))
    fields["NodeName"] = socket.gethostname().split(".")[0]
    fields["NodeAddr"] = "127.0.0.1"
    fields["State"] = "UNKNOWN"
    return " ".join(f"{k}={v}" for k, v in fields.items())


class SlurmCluster:
    """A single-node SLURM (controller and compute node on this machine), started by :meth:`start`."""

    def __init__(self, partition: str = "debug", cluster_name: str = "ssitest", timeout: float = 120,
                 keep_files: bool = False):
        self.partition = partition
        self.cluster_name = cluster_name
        self.timeout = timeout
        #: keep the temporary folder (state, spool, daemon logs) after stop(), for debugging
        self.keep_files = keep_files
        self.host = socket.gethostname().split(".")[0]
        self.base: Path | None = None
        self.procs: dict[str, subprocess.Popen] = {}
        self._backup: Path | None = None
        self._conf_written = False

    # --- paths ---------------------------------------------------------------------------
    def log(self, daemon: str) -> Path:
        return self.base / "log" / f"{daemon}.log"

    def logs(self) -> str:
        """The tails of every daemon's log (for error messages)."""
        if self.base is None:
            return "(no logs: the cluster was not started)"
        parts = []
        for daemon in ("munged", "slurmctld", "slurmd"):
            for path in (self.log(daemon), self.base / "log" / f"{daemon}.out"):
                if path.is_file() and path.stat().st_size:
                    parts.append(f"--- {path}:\n{_tail(path)}")
        return "\n".join(parts) or f"(the daemons wrote no logs in {self.base / 'log'})"

    def fail(self, message: str) -> ClusterError:
        return ClusterError(f"{message}\n{self.logs()}")

    # --- start -------------------------------------------------------------------------------
    def start(self) -> "SlurmCluster":
        if os.geteuid() != 0:
            raise ClusterError("starting a SLURM cluster needs root (apt-get, munge key, /etc/slurm)")
        install_packages()
        foreign = _foreign_daemons()
        if foreign:
            raise ClusterError(f"SLURM daemons are already running on this machine ({foreign}); "
                               "refusing to rewrite /etc/slurm/slurm.conf under them")
        self.base = Path(tempfile.mkdtemp(prefix="ssi-slurm-"))
        os.chmod(self.base, 0o755)
        for sub in ("state", "spool", "log", "run"):
            (self.base / sub).mkdir()
        try:
            self._start_munge()
            self._write_conf()
            self._spawn("slurmctld", [_which("slurmctld"), "-D", "-i", "-f", str(SLURM_CONF),
                                      "-L", str(self.log("slurmctld"))])
            self._wait_for(lambda: _run(["scontrol", "ping"], 30).stdout.count("UP") > 0,
                           "slurmctld to answer `scontrol ping`", ["slurmctld"])
            self._spawn("slurmd", [_which("slurmd"), "-D", "-f", str(SLURM_CONF), "-N", self.host,
                                   "-L", str(self.log("slurmd"))])
            self._wait_for(self.node_idle, f"sinfo to show node {self.host} idle",
                           ["slurmctld", "slurmd"])
        except BaseException:
            self.keep_files = True       # leave the daemons' logs for inspection
            self.stop()
            raise
        return self

    def _spawn(self, name: str, cmd: list[str], **kwargs) -> subprocess.Popen:
        out = open(self.base / "log" / f"{name}.out", "w")
        self.procs[name] = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL, start_new_session=True, **kwargs)
        out.close()
        return self.procs[name]

    def _wait_for(self, predicate, what: str, daemons: list[str]) -> None:
        deadline = time.monotonic() + self.timeout
        while True:
            for name in daemons:
                proc = self.procs.get(name)
                if proc is not None and proc.poll() is not None:
                    raise self.fail(f"{name} exited ({proc.returncode}) while waiting for {what}; "
                                    f"its output:\n{_tail(self.base / 'log' / f'{name}.out')}")
            try:
                if predicate():
                    return
            except ClusterError:
                pass
            if time.monotonic() > deadline:
                raise self.fail(f"timed out after {self.timeout:.0f} s waiting for {what}; sinfo:\n"
                                f"{_run(['sinfo', '-N', '-l'], 30).stdout[-2000:]}")
            time.sleep(0.5)

    def _munge_works(self) -> bool:
        try:
            cred = subprocess.run(["munge", "-n"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=10)
            if cred.returncode != 0:
                return False
            back = subprocess.run(["unmunge"], input=cred.stdout, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL, timeout=10)
            return back.returncode == 0
        except (OSError, subprocess.TimeoutExpired):
            return False

    def _start_munge(self) -> None:
        if self._munge_works():          # a munged of the system is running: use it
            return
        user = pwd.getpwnam("munge")
        if not MUNGE_KEY.is_file() or MUNGE_KEY.stat().st_size < 32:
            MUNGE_KEY.parent.mkdir(parents=True, exist_ok=True)
            MUNGE_KEY.write_bytes(os.urandom(1024))
        for path in (MUNGE_KEY.parent, MUNGE_KEY):
            os.chown(path, user.pw_uid, user.pw_gid)
        os.chmod(MUNGE_KEY.parent, 0o700)
        os.chmod(MUNGE_KEY, 0o400)
        for folder in ("/run/munge", "/var/lib/munge", "/var/log/munge"):
            Path(folder).mkdir(parents=True, exist_ok=True)
            os.chown(folder, user.pw_uid, user.pw_gid)
        os.chmod("/run/munge", 0o755)
        munged = _which("munged")
        # foreground (-F), as the munge user; its log goes to our log folder (stderr)
        self._spawn("munged", [munged, "-F", "--force"], user=user.pw_uid, group=user.pw_gid,
                    extra_groups=[])
        # munged -F logs to stderr, which _spawn sends to log/munged.out
        self._wait_for(self._munge_works, "munged to answer `munge -n | unmunge`", ["munged"])

    def _write_conf(self) -> None:
        b = self.base
        conf = f"""{CONF_MARKER} for a single-node test cluster; restored at teardown
ClusterName={self.cluster_name}
SlurmctldHost={self.host}(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
StateSaveLocation={b}/state
SlurmdSpoolDir={b}/spool
SlurmctldPidFile={b}/run/slurmctld.pid
SlurmdPidFile={b}/run/slurmd.pid
SlurmctldLogFile={self.log('slurmctld')}
SlurmdLogFile={self.log('slurmd')}
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=2
MinJobAge=300
KillWait=5
InactiveLimit=0
SlurmctldTimeout=30
SlurmdTimeout=30
{node_line()}
PartitionName={self.partition} Nodes={self.host} Default=YES MaxTime=INFINITE State=UP
"""
        SLURM_CONF.parent.mkdir(parents=True, exist_ok=True)
        if SLURM_CONF.exists() and self._backup is None and not _is_ours(SLURM_CONF):
            self._backup = SLURM_CONF.with_name(f"slurm.conf.ssi-backup-{os.getpid()}")
            shutil.copy2(SLURM_CONF, self._backup)
        SLURM_CONF.write_text(conf)
        self._conf_written = True

    # --- state -------------------------------------------------------------------------------
    def node_idle(self) -> bool:
        proc = _run(["sinfo", "-h", "-N", "-n", self.host, "-o", "%t"], 30)
        return proc.returncode == 0 and proc.stdout.strip() == "idle"

    # --- stop ---------------------------------------------------------------------------------
    def stop(self) -> None:
        """Stop the daemons we started (slurmd, slurmctld, munged; by pid), restore slurm.conf and
        remove the temporary folder (unless keep_files)."""
        for name in ("slurmd", "slurmctld", "munged"):
            proc = self.procs.pop(name, None)
            if proc is None or proc.poll() is not None:
                continue
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=30)
        if self._conf_written:
            if self._backup is not None:
                shutil.move(self._backup, SLURM_CONF)
                self._backup = None
            else:
                SLURM_CONF.unlink(missing_ok=True)
            self._conf_written = False
        if self.base is not None and not self.keep_files:
            shutil.rmtree(self.base, ignore_errors=True)
            self.base = None

    def __enter__(self) -> "SlurmCluster":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
