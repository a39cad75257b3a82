"""The sweeplab command line: --help, --version, report."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import sweeplab
from sweeplab.cli import main

SCRIPT = Path(sys.executable).with_name("sweeplab")


def test_version_and_help(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out.strip() == f"sweeplab {sweeplab.__version__}"
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert "usage: sweeplab" in out and "report" in out


def test_no_command_prints_help(capsys):
    assert main([]) == 0
    assert "usage: sweeplab" in capsys.readouterr().out


def test_unknown_command_fails(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["frobnicate"])
    assert exc.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_every_sub_command_has_help(capsys):
    from sweeplab.cli import build_parser

    sub = next(a for a in build_parser()._actions if a.dest == "command")
    assert "report" in sub.choices
    for name in sub.choices:
        with pytest.raises(SystemExit) as exc:
            main([name, "--help"])
        assert exc.value.code == 0
        assert f"usage: sweeplab {name}" in capsys.readouterr().out


@pytest.mark.skipif(not SCRIPT.exists(), reason="the sweeplab script is not installed next to this python")
def test_installed_script():
    out = subprocess.run([str(SCRIPT), "--version"], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.strip() == f"sweeplab {sweeplab.__version__}"
    out = subprocess.run([str(SCRIPT), "--help"], capture_output=True, text=True, timeout=120, check=True)
    assert "report" in out.stdout


def test_report_runs(capsys):
    """``report --list`` runs the main job's entry without the experiments (those are tested elsewhere)."""
    assert main(["report", "--list"]) == 0
    assert "report 000" in capsys.readouterr().out
