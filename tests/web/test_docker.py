"""The container image (``Dockerfile``, docs/deploy.md).

By default: what the file says is checked as text (it serves ``tactica[web]`` on
0.0.0.0 behind ``tactica serve``'s guards, its health check asks ``/healthz``, the build
context leaves out the checkout's caches), and ``TACTICA_ALLOW_HOST`` reaches the Host
allow-list. In the slow suite, where a docker engine is reachable: the image is built and
run, answers ``/healthz`` and refuses a Host it was not given; elsewhere the test is
skipped, saying why.
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import time
import uuid
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]


def instructions() -> dict[str, str]:
    """The Dockerfile's last instruction of each kind, continuation lines joined."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8").replace("\\\n", " ")
    out: dict[str, str] = {}
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            word, _, rest = line.strip().partition(" ")
            out[word.upper()] = rest.strip()
    return out


def test_the_image_serves_the_web_extra_on_every_address_behind_the_guards() -> None:
    found = instructions()
    assert "tactica serve" not in found["RUN"]  # nothing is served while building
    entry = json.loads(found["ENTRYPOINT"])
    assert entry[:2] == ["tactica", "serve"]
    assert entry[entry.index("--host") + 1] == "0.0.0.0"
    assert "--allow-host" not in entry  # localhost only unless the deployment names hosts
    assert found["EXPOSE"] == entry[entry.index("--port") + 1] == "8000"
    assert "/healthz" in found["HEALTHCHECK"]
    assert found["USER"] != "root"
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert 'pip install ".[web]"' in text
    ignored = [line.strip() for line in (ROOT / ".dockerignore").read_text("utf-8").splitlines()
               if line.strip() and not line.startswith("#")]
    assert ignored[0] == "*" and "!src/" in ignored  # no .venv, .git or caches sent


def test_the_allowed_hosts_come_from_the_environment_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """A container is configured by its environment: TACTICA_ALLOW_HOST (names separated
    by spaces) is --allow-host."""
    import uvicorn
    from typer.testing import CliRunner

    from tactica.cli import commands
    from tactica.web import app as web_app
    from tactica.web import serve

    hosts: list[list[str]] = []
    real_take = serve.take_address
    monkeypatch.setattr(serve, "take_address", lambda host, port: real_take("127.0.0.1", 0))
    monkeypatch.setattr(web_app, "create_app",
                        lambda **kw: hosts.append(sorted(kw["allowed_hosts"])))
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets: sockets[0].close())
    result = CliRunner().invoke(commands.app, ["--no-dataset", "serve"],
                                env={"TACTICA_ALLOW_HOST": "tactica.example.org 10.0.0.5"})
    assert result.exit_code == 0, result.output
    assert hosts == [sorted(["localhost", "127.0.0.1", "::1", "tactica.example.org",
                             "10.0.0.5"])]


def docker_engine() -> str | None:
    """Why no image can be built here, or ``None`` when a docker engine answers."""
    docker = shutil.which("docker")
    if docker is None:
        return "no docker client on this machine"
    try:
        info = subprocess.run([docker, "info", "--format", "{{.ServerVersion}}"],
                              capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return "the docker engine did not answer within 60 s"
    if info.returncode != 0:
        said = (info.stderr.strip().splitlines() or ["no answer"])[-1]
        return f"no docker engine reachable ({said})"
    return None


def docker(*args: str, timeout: float = 120) -> str:
    done = subprocess.run(["docker", *args], capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"docker {shlex.join(args)}: {done.stderr[-2000:]}"
    return done.stdout.strip()


@pytest.mark.slow
def test_the_image_builds_and_serves_healthz() -> None:
    reason = docker_engine()
    if reason is not None:
        pytest.skip(reason)
    image = f"tactica-test:{uuid.uuid4().hex[:12]}"
    docker("build", "--tag", image, str(ROOT), timeout=3600)
    container = None
    try:
        container = docker("run", "--detach", "--publish", "127.0.0.1::8000", image,
                           "--workers", "1")
        address = docker("port", container, "8000/tcp").splitlines()[0]
        url = f"http://{address}"
        deadline = time.monotonic() + 300
        health = None
        while time.monotonic() < deadline:
            try:
                health = httpx.get(url + "/healthz", timeout=5)
                if health.status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(2)
        assert health is not None and health.status_code == 200
        assert health.json()["status"] == "ok"
        assert httpx.get(url + "/", timeout=30).status_code == 200
        # behind its guards: a Host the deployment did not name is refused
        refused = httpx.get(url + "/", headers={"host": "evil.example"}, timeout=30)
        assert refused.status_code == 400
    finally:
        if container is not None:
            subprocess.run(["docker", "rm", "--force", container], capture_output=True)
        subprocess.run(["docker", "rmi", "--force", image], capture_output=True)
