"""Where results come from: the package version, the git commit and a fingerprint of the source.

Every file of results (sweep manifests, bench manifests, the report index)
records :func:`source_commit`, so a figure can be traced to the code that made
it.  Resumable runs also record :func:`code_fingerprint` and refuse to resume
under other code (:func:`check_same_code`): games played by two versions of an
agent must not be counted as one sample.
"""

from __future__ import annotations

import hashlib
import subprocess
from functools import cache
from pathlib import Path
from typing import Any

__all__ = ["source_commit", "code_fingerprint", "check_same_code"]

#: The package's source directory (what :func:`code_fingerprint` reads by default).
PACKAGE_DIR = Path(__file__).resolve().parent


@cache
def source_commit() -> tuple[str | None, bool | None]:
    """``(commit, dirty)`` of the git checkout sweeplab is imported from; ``(None, None)`` outside one.

    ``dirty`` says whether tracked files differ from that commit.  Cached: the
    answer does not change while a process runs.
    """
    root = Path(__file__).resolve().parent.parent
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True,
                                check=True, timeout=10).stdout.strip()
        dirty = bool(subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root,
                                    capture_output=True, text=True, check=True, timeout=10).stdout.strip())
    except (OSError, subprocess.SubprocessError):
        return None, None
    return commit or None, dirty


@cache
def code_fingerprint(root: Path = PACKAGE_DIR) -> str:
    """A hash of every ``.py`` file under ``root`` (the installed sweeplab by default): names and bytes.

    Unlike the git commit it sees uncommitted edits, and it exists outside a
    git checkout.  Cached: the code does not change while a process runs.

    Examples
    --------
    >>> len(code_fingerprint()), code_fingerprint() == code_fingerprint()
    (16, True)
    """
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def check_same_code(manifest: dict[str, Any], path: Path) -> None:
    """Raise ``ValueError`` if the run in ``path`` was started by other sweeplab code.

    Manifests written before fingerprints were recorded pass.
    """
    theirs, mine = manifest.get("code"), code_fingerprint()
    if theirs is not None and theirs != mine:
        raise ValueError(
            f"{path} was started by other sweeplab code (fingerprint {theirs} there, {mine} here: the "
            f"package changed since); resuming would count games of two versions as one sample. Choose "
            f"another output directory, or delete this one to start again")
