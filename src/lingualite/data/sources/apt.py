"""apt helpers: download .deb files, unpack them, and run ``apt-get update`` into a private state folder
(so the system's apt lists and caches are never touched)."""

from __future__ import annotations

import bz2
import gzip
import lzma
import os
import re
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

from lingualite.core.errors import LinguaLiteError
from lingualite.data.sources.common import SourceUnavailableError, require_tool, run_tool

__all__ = ["apt_download", "apt_update", "find_deb", "private_apt_options", "read_index_file", "unpack_deb"]

APT_HELPER = Path("/usr/lib/apt/apt-helper")


def private_apt_options(state_dir: Path) -> list[str]:
    """``-o`` options that point apt's lists and caches at ``state_dir`` (created if missing).

    Paths are made absolute: apt would read a relative one as relative to its own folders (/var/lib/apt).
    """
    state_dir = Path(state_dir).resolve()
    lists = state_dir / "lists"
    cache = state_dir / "cache"
    for d in (lists / "partial", cache / "archives" / "partial"):
        d.mkdir(parents=True, exist_ok=True)
    opts = [f"Dir::State::Lists={lists}", f"Dir::Cache={cache}"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        # apt's download sandbox user (_apt) cannot write into a root-owned private folder.
        opts.append("APT::Sandbox::User=root")
    return [x for o in opts for x in ("-o", o)]


_LANGUAGE_CODE = re.compile(r"[a-z]{2,3}(?:_[A-Z]{2})?")


def apt_update(state_dir: Path, languages: Sequence[str] = (), packages: bool = True) -> Path:
    """Run ``apt-get update`` into ``state_dir/lists`` with the given description-translation languages.

    ``packages=False`` skips the (large) Packages indices and fetches only the Translation files.
    Returns the lists folder.
    """
    bad = [lang for lang in languages if not _LANGUAGE_CODE.fullmatch(lang)]
    if bad:  # they are written into an apt config file: never anything but a language code
        raise LinguaLiteError(
            f"apt: not language codes: {', '.join(map(repr, bad))} (expected e.g. fr, pt_BR)"
        )
    apt = require_tool("apt-get", "download Debian package indices")
    state_dir = Path(state_dir).resolve()
    state_dir.mkdir(parents=True, exist_ok=True)
    conf = state_dir / "apt.conf"
    langs = " ".join(f'"{lang}";' for lang in languages) if languages else '"none";'
    # "#clear" drops the system setting (e.g. Docker images set Acquire::Languages "none").
    conf.write_text(f"#clear Acquire::Languages;\nAcquire::Languages {{ {langs} }};\n", encoding="utf-8")
    cmd = [apt, "-q", "-c", str(conf), *private_apt_options(state_dir)]
    if not packages:
        cmd += ["-o", "Acquire::IndexTargets::deb::Packages::DefaultEnabled=false"]
    run_tool([*cmd, "update"], "apt-get update (private lists folder)")
    return state_dir / "lists"


def known_packages(packages: Sequence[str]) -> set[str] | None:
    """Those of ``packages`` that apt knows (``apt-cache show``, one call); None where that cannot be told:
    apt-cache is missing, or it knows none of them, which is what empty package lists look like (a fresh
    container before ``apt-get update``): the fetch, which updates its own lists, then says what is missing."""
    apt_cache = shutil.which("apt-cache")
    if apt_cache is None or not packages:
        return None if apt_cache is None else set()
    proc = subprocess.run(
        [apt_cache, "show", "--no-all-versions", *packages], capture_output=True, text=True, check=False
    )
    known = {m.group(1) for m in re.finditer(r"^Package: (\S+)$", proc.stdout, re.M)}
    return known or None


def find_deb(deb_dir: Path, package: str) -> Path | None:
    """The most recently downloaded ``<package>_*.deb`` in ``deb_dir`` (any version), or None."""
    found = [p for p in deb_dir.glob(f"{package}_*.deb") if p.is_file()]
    return max(found, key=lambda p: (p.stat().st_mtime, p.name)) if found else None


def apt_download(packages: Sequence[str], deb_dir: Path, state_dir: Path) -> None:
    """``apt-get download`` the packages into ``deb_dir``; if the system's package lists are missing or
    stale, retry once with a fresh private ``apt-get update`` in ``state_dir``."""
    apt = require_tool("apt-get", "download Debian packages")
    deb_dir.mkdir(parents=True, exist_ok=True)
    what = f"apt-get download {' '.join(packages)}"
    try:
        run_tool([apt, "-q", "download", *packages], what, cwd=deb_dir)
    except SourceUnavailableError:
        apt_update(state_dir, packages=True)
        run_tool([apt, "-q", *private_apt_options(state_dir), "download", *packages], what, cwd=deb_dir)
    missing = [p for p in packages if find_deb(deb_dir, p) is None]
    if missing:
        raise SourceUnavailableError(f"{what} did not produce {', '.join(missing)}")


def unpack_deb(deb: Path, dest: Path) -> None:
    """Unpack a .deb's files into ``dest`` (``dpkg-deb -x``; no root needed, nothing is installed)."""
    dpkg_deb = require_tool("dpkg-deb", "unpack .deb files")
    dest.mkdir(parents=True, exist_ok=True)
    run_tool([dpkg_deb, "-x", str(deb), str(dest)], f"dpkg-deb -x {deb.name}")


def read_index_file(path: Path) -> str:
    """Text of an apt index file: plain, .gz, .xz, .lzma, .bz2 (Python), or .lz4/.zst (``apt-helper``)."""
    suffix = path.suffix
    if suffix == ".gz":
        data = gzip.decompress(path.read_bytes())
    elif suffix in (".xz", ".lzma"):
        data = lzma.decompress(path.read_bytes())
    elif suffix == ".bz2":
        data = bz2.decompress(path.read_bytes())
    elif suffix in (".lz4", ".zst"):
        if not APT_HELPER.exists():
            raise SourceUnavailableError(f"{APT_HELPER} is needed to read {path.name}")
        return run_tool([APT_HELPER, "cat-file", str(path)], f"apt-helper cat-file {path.name}")
    else:
        data = path.read_bytes()
    return data.decode("utf-8", errors="replace")


def download_and_unpack(packages: Sequence[str], cache_dir: Path) -> Path:
    """Each package downloaded into ``cache_dir/debs`` and unpacked into ``cache_dir/root`` once (a
    ``.unpacked-<package>`` marker per package, any version); returns ``cache_dir/root``."""
    root, debs = cache_dir / "root", cache_dir / "debs"
    todo = [pkg for pkg in dict.fromkeys(packages) if not (root / f".unpacked-{pkg}").exists()]
    absent = [pkg for pkg in todo if find_deb(debs, pkg) is None]
    if absent:
        apt_download(absent, debs, cache_dir / "apt")
    for pkg in todo:
        deb = find_deb(debs, pkg)
        if deb is None:
            raise SourceUnavailableError(f"{pkg}: no .deb in {debs}")
        root.mkdir(parents=True, exist_ok=True)
        unpack_deb(deb, root)
        (root / f".unpacked-{pkg}").write_text(deb.name + "\n", encoding="utf-8")
    return root
