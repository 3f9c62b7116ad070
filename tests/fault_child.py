"""Run the CLI in a child process under a local fault: read-only files, a full disk.

* Read-only: the test ``chmod``s the paths; when the tests run as root (containers),
  the child first drops the capabilities that let root ignore file permissions
  (``CAP_DAC_OVERRIDE``, ``CAP_DAC_READ_SEARCH``, ``CAP_FOWNER``) so that the
  permissions bind it as they bind a user. :func:`permissions_bind` says whether
  that works here; tests skip with that reason otherwise.
* Full disk: ``RLIMIT_FSIZE`` makes every write past ``fsize`` bytes fail with
  ``EFBIG`` (SIGXFSZ ignored), the same ``OSError`` on write that ENOSPC gives.

Nothing is mocked: the child runs the real ``citecheck_tex.cli.main``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path

_PRELUDE = textwrap.dedent("""
    import ctypes, os, resource, signal, sys
    if os.geteuid() == 0:
        class _Hdr(ctypes.Structure):
            _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]
        class _Data(ctypes.Structure):
            _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                        ("inheritable", ctypes.c_uint32)]
        libc = ctypes.CDLL(None, use_errno=True)
        hdr, data = _Hdr(0x20080522, 0), (_Data * 2)()
        if libc.capget(ctypes.byref(hdr), data) == 0:
            drop = (1 << 1) | (1 << 2) | (1 << 3)
            data[0].effective &= ~drop
            data[0].permitted &= ~drop
            libc.capset(ctypes.byref(hdr), data)
    fsize = int(os.environ.pop("FAULT_FSIZE", "0"))
    if fsize:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
""")


def run_cli(argv: Sequence[str], *, fsize: int = 0, env: dict[str, str] | None = None,
            cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``citecheck-tex ARGV`` in a child (permissions binding; writes capped at ``fsize``)."""
    code = _PRELUDE + textwrap.dedent(f"""
        from citecheck_tex.cli import main
        sys.exit(main({json.dumps(list(argv))}))
    """)
    child_env = dict(os.environ if env is None else env)
    if fsize:
        child_env["FAULT_FSIZE"] = str(fsize)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False, env=child_env, cwd=cwd, timeout=300)


def permissions_bind(folder: Path) -> str:
    """'' when a read-only file in ``folder`` cannot be written by the child; else why not."""
    probe = folder / "probe-readonly"
    probe.write_text("x")
    probe.chmod(0o444)
    code = _PRELUDE + textwrap.dedent(f"""
        try:
            open({str(probe)!r}, "a").close()
        except PermissionError:
            sys.exit(0)
        sys.exit(1)
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, check=False)
    probe.chmod(0o644)
    probe.unlink()
    return "" if done.returncode == 0 else "file permissions do not bind here (root without " \
        "a way to drop CAP_DAC_OVERRIDE)"
