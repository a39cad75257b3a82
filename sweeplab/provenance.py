"""Where results come from: the package version and the git commit of the source tree.

Every file of results (sweep manifests, bench manifests, the report index)
records :func:`source_commit`, so a figure can be traced to the code that made it.
"""

from __future__ import annotations

import subprocess
from functools import cache
from pathlib import Path

__all__ = ["source_commit"]


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
