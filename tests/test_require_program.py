"""``require_program``: a missing program skips with its install command, and fails under CI."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from conftest import require_program

MISSING = "vaultkit-no-such-program"


@pytest.mark.parametrize("value", ["", "0", "false", "No"])
def test_a_missing_program_skips_with_the_install_command(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("CI", value)
    with pytest.raises(pytest.skip.Exception) as skipped:
        require_program(MISSING, "apt-get install it-please")
    assert (
        str(skipped.value)
        == f"{MISSING} is not installed; install it with: apt-get install it-please"
    )


def test_without_ci_set_at_all_it_skips_with_apt_get_by_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match=f"apt-get install {MISSING}$"):
        require_program(MISSING)


@pytest.mark.parametrize("value", ["true", "1", "yes", "True"])
def test_under_ci_a_missing_program_fails(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("CI", value)
    with pytest.raises(pytest.fail.Exception, match="CI is set, so a missing program is a failure"):
        require_program(MISSING)


def test_a_present_program_gives_its_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    monkeypatch.setenv("PATH", str(Path(sys.executable).parent))
    assert Path(require_program(Path(sys.executable).name)).samefile(sys.executable)
