"""The distribution's metadata: a free PyPI name, one version, the licence and the typing marker."""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys
import tomllib
from pathlib import Path

import vaultkit
from vaultkit.base import dist

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def test_the_distribution_name_is_the_one_every_install_message_names() -> None:
    assert PROJECT["name"] == dist.DISTRIBUTION != "vaultkit"  # "vaultkit" is another project's
    assert dist.INSTALL.split() == ["pipx", "install", dist.DISTRIBUTION]
    assert set(PROJECT["scripts"]) == {dist.CLI, dist.HOOK}


def test_the_version_has_one_source_and_the_cli_prints_it() -> None:
    assert "version" not in PROJECT and PROJECT["dynamic"] == ["version"]
    assert importlib.metadata.version(dist.DISTRIBUTION) == vaultkit.__version__
    for flag in ("--version", "-V"):
        done = subprocess.run(
            [sys.executable, "-m", "vaultkit", flag], capture_output=True, text=True, timeout=60
        )
        assert done.stdout == f"{vaultkit.__version__}\n", done.stderr


def test_the_metadata_names_licence_urls_classifiers_and_typing() -> None:
    meta = importlib.metadata.metadata(dist.DISTRIBUTION)
    assert meta["License-Expression"] == "MIT"
    assert "MIT License" in (ROOT / "LICENSE").read_text(encoding="utf-8")
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL") or [])
    assert urls["Homepage"] == f"https://pypi.org/project/{dist.DISTRIBUTION}/"
    assert "Typing :: Typed" in (meta.get_all("Classifier") or [])
    assert (Path(vaultkit.__file__).parent / "py.typed").is_file()


def test_doctor_fails_when_the_other_vaultkit_distribution_shares_the_environment(
    tmp_path: Path,
) -> None:
    """PyPI's ``vaultkit`` is another project with the same import package: doctor says so."""
    other = tmp_path / "site" / "vaultkit-0.3.0.dist-info"
    other.mkdir(parents=True)
    (other / "METADATA").write_text("Metadata-Version: 2.1\nName: vaultkit\nVersion: 0.3.0\n")
    (tmp_path / "proj" / ".git").mkdir(parents=True)
    env = {"PYTHONPATH": str(tmp_path / "site"), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "vaultkit", "doctor"],
        capture_output=True,
        text=True,
        cwd=tmp_path / "proj",
        env=env,
        timeout=60,
    )
    assert done.returncode == 1
    line = next(ln for ln in done.stdout.splitlines() if ln.startswith("fail  install:"))
    assert "a distribution named 'vaultkit' (0.3.0) is installed in this environment too" in line
    assert f"pip uninstall vaultkit && pip install --force-reinstall {dist.DISTRIBUTION}" in (
        done.stdout
    )
