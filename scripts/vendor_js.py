"""Vendor the browser client's JavaScript libraries from the npm registry, at pinned versions.

The pages import them as ES modules from the package (`server/static/vendor/`), never from a CDN, and no
Node.js is needed to install or run ninjatable. Run this script to refresh them after changing a version:

    python scripts/vendor_js.py

Each tarball is checked against the integrity hash the registry publishes for it; the library's licence is
copied beside its files, and VERSIONS.json records what was taken from where.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import tarfile
import urllib.request
from pathlib import Path

REGISTRY = "https://registry.npmjs.org"
TARGET = Path(__file__).resolve().parents[1] / "src" / "ninjatable" / "server" / "static" / "vendor"

# package: (version, [(file in the package, file written)])
PACKAGES = {
    "preact": ("11.2.0", [("dist/preact.mjs", "preact.mjs"), ("hooks/dist/hooks.mjs", "preact-hooks.mjs"),
                          ("LICENSE", "preact.LICENSE")]),
    "htm": ("3.1.1", [("dist/htm.module.js", "htm.mjs"), ("LICENSE", "htm.LICENSE")]),
}


def fetch(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=60) as answer:
        return answer.read()


def vendor(name: str, version: str, files: list[tuple[str, str]]) -> dict[str, str]:
    meta = json.loads(fetch(f"{REGISTRY}/{name}/{version}"))
    dist = meta["dist"]
    tarball = fetch(dist["tarball"])
    algorithm, _, expected = dist["integrity"].partition("-")
    actual = base64.b64encode(hashlib.new(algorithm, tarball).digest()).decode()
    if actual != expected:
        raise SystemExit(f"{name}@{version}: the tarball does not match the registry's {algorithm} integrity")
    with tarfile.open(fileobj=io.BytesIO(tarball)) as archive:
        for inside, written in files:
            data = archive.extractfile(f"package/{inside}").read()
            (TARGET / written).write_bytes(data)
    return {"version": version, "tarball": dist["tarball"], "integrity": dist["integrity"],
            "files": {written: inside for inside, written in files}}


def main() -> None:
    TARGET.mkdir(parents=True, exist_ok=True)
    record = {name: vendor(name, version, files) for name, (version, files) in PACKAGES.items()}
    (TARGET / "VERSIONS.json").write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    for name, info in record.items():
        print(f"{name}@{info['version']}: {', '.join(info['files'])}")


if __name__ == "__main__":
    main()
