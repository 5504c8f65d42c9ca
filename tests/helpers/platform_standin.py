"""A stand-in for CodaLab's and Codabench's compute worker: a bundle
unpacked, one phase's reference data and the scoring program laid out as
program/ input/ref input/res output/, and the program's metadata command run
with a Python that has numpy, pandas, scipy and pyyaml but no scorer of its
own (nor msgspec, which the platform's image lacks)."""
from __future__ import annotations

import io
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import zipfile

import yaml


def play_platform(tmp_path, bundle_zip: str, submission: dict,
                  reference: str = "reference_data", codalab: bool = False) -> tuple:
    """Score ``submission`` ({name in res/: text or bytes}) against the
    bundle's ``reference`` data (CodaLab: ``reference``.zip, the program in
    scoring_program.zip); (status, stderr, OUTPUT)."""
    place = tmp_path / f"platform-{len(list(tmp_path.glob('platform-*')))}"
    unpacked = place / "unpacked"
    with zipfile.ZipFile(bundle_zip) as z:
        z.extractall(unpacked)
        if codalab:
            zipfile.ZipFile(io.BytesIO(z.read("scoring_program.zip"))).extractall(
                unpacked / "scoring_program")
            zipfile.ZipFile(io.BytesIO(z.read(f"{reference}.zip"))).extractall(
                unpacked / reference)
    app = place / "app"
    shutil.copytree(unpacked / "scoring_program", app / "program")
    shutil.copytree(unpacked / reference, app / "input" / "ref")
    res = app / "input" / "res"
    res.mkdir()
    for name, content in submission.items():
        target = res / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content if isinstance(content, bytes) else content.encode())
    (app / "output").mkdir()
    # (CodaLab reads 'metadata', Codabench 'metadata.yaml' or 'metadata')
    metadata_file = app / "program" / ("metadata" if codalab else "metadata.yaml")
    command = yaml.safe_load(metadata_file.read_text())["command"]
    for variable, folder in (("$program", app / "program"), ("$input", app / "input"),
                             ("$output", app / "output")):
        command = command.replace(variable, str(folder))
    words = shlex.split(command)
    assert words[0] == "python3"
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": platform_path(tmp_path),
           "LANG": "C.UTF-8", "TMPDIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-S", *words[1:]], cwd=str(tmp_path), env=env,
                          capture_output=True, text=True, timeout=120)
    return done.returncode, done.stderr, app / "output"


def platform_path(tmp_path) -> str:
    """PYTHONPATH of the platform stand-in: this interpreter's packages, but
    msgspec, which the platform's image does not have (an import of it
    fails, so that the scorer reads JSON lines with the standard library)."""
    blocker = tmp_path / "image-without-msgspec"
    blocker.mkdir(exist_ok=True)
    (blocker / "msgspec.py").write_text("raise ImportError('msgspec is not on the image')\n")
    return os.pathsep.join([str(blocker), sysconfig.get_paths()["purelib"]])
