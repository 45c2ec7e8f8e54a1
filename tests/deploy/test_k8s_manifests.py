"""The Kubernetes manifests (deploy/k8s, docs/deploy.md "Kubernetes"): valid against the API
schemas (kubernetes-validate, offline, strict: an unknown field fails), and consistent with
the server they run: its probes, its drain time, its settings and its URL shapes."""

from __future__ import annotations

import ipaddress
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from geniusnight.server.lifecycle import DRAIN_TIMEOUT, RECONNECT_GRACE

K8S = Path(__file__).resolve().parents[2] / "deploy" / "k8s"
# the oldest Kubernetes the manifests are written for, and the newest schema the validator has
VERSIONS = ("1.30.0", "1.37.0")
UVICORN_SLACK = 5  # cli.serve: timeout_graceful_shutdown = RECONNECT_GRACE + DRAIN_TIMEOUT + 5


def documents() -> list[tuple[str, dict[str, Any]]]:
    return [
        (path.name, doc)
        for path in sorted(K8S.glob("*.yaml"))
        for doc in yaml.safe_load_all(path.read_text())
        if doc is not None
    ]


def one(kind: str, name: str | None = None) -> dict[str, Any]:
    found = [d for _, d in documents() if d["kind"] == kind and name in (None, d.get("metadata", {}).get("name"))]
    assert len(found) == 1, (kind, name, found)
    return found[0]


def app_container() -> dict[str, Any]:
    return dict(one("Deployment")["spec"]["template"]["spec"]["containers"][0])


@pytest.mark.parametrize("version", VERSIONS)
def test_every_manifest_is_valid_against_the_kubernetes_schemas(version: str) -> None:
    validator = pytest.importorskip("kubernetes_validate")  # in the dev extra: present in CI
    checked = 0
    for name, doc in documents():
        if doc["kind"] == "Kustomization":
            continue  # kustomize's own file, no Kubernetes resource
        try:
            validator.validate(doc, version, strict=True)
        except validator.ValidationError as e:  # pragma: no cover - the failure's message
            pytest.fail(f"{name}: {doc['kind']} {doc['metadata']['name']}: {e}")
        checked += 1
    assert checked >= 8


def test_the_kustomization_applies_every_resource_but_the_secret_and_the_migration() -> None:
    listed = set(one("Kustomization")["resources"])
    assert listed == {p.name for p in K8S.glob("*.yaml")} - {
        "kustomization.yaml",
        "secret.example.yaml",  # made by the operator with real values
        "migrate-job.yaml",  # applied and awaited before the replicas
    }


def test_probes_are_the_servers_health_and_readiness() -> None:
    from geniusnight.server.ops import router

    c = app_container()
    assert c["livenessProbe"]["httpGet"]["path"] == "/healthz"
    assert c["startupProbe"]["httpGet"]["path"] == "/healthz"
    assert c["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert {"/healthz", "/readyz"} <= {getattr(r, "path", None) for r in router.routes}
    assert c["readinessProbe"]["timeoutSeconds"] > 2  # /readyz gives each dependency 2 s


def test_the_grace_period_covers_the_pre_stop_sleep_and_the_whole_drain() -> None:
    pod = one("Deployment")["spec"]["template"]["spec"]
    sleep = app_container()["lifecycle"]["preStop"]["exec"]["command"]
    assert sleep[0] == "sleep"
    needed = int(sleep[1]) + RECONNECT_GRACE + DRAIN_TIMEOUT + UVICORN_SLACK
    assert pod["terminationGracePeriodSeconds"] >= needed
    assert one("Deployment")["spec"]["strategy"]["rollingUpdate"]["maxUnavailable"] == 0


def test_selectors_and_targets_meet_the_pods() -> None:
    deployment = one("Deployment")
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert deployment["spec"]["selector"]["matchLabels"].items() <= labels.items()
    assert one("Service")["spec"]["selector"].items() <= labels.items()
    assert one("PodDisruptionBudget")["spec"]["selector"]["matchLabels"].items() <= labels.items()
    target = one("HorizontalPodAutoscaler")["spec"]["scaleTargetRef"]
    assert (target["kind"], target["name"]) == ("Deployment", deployment["metadata"]["name"])
    assert one("HorizontalPodAutoscaler")["spec"]["minReplicas"] >= 2  # the PDB lets one go


def test_a_rooms_sockets_and_requests_hash_to_one_replica_by_its_id() -> None:
    """docs/protocol.md: the websocket is /ws/{room_id}, the room's API /api/rooms/{room_id}/..."""
    protocol = (K8S.parents[1] / "docs" / "protocol.md").read_text()
    assert "`/ws/{room_id}`" in protocol and "/api/rooms/{room_id}/start" in protocol
    rooms = one("Ingress", "geniusnight-rooms")
    notes = rooms["metadata"]["annotations"]
    assert notes["nginx.ingress.kubernetes.io/use-regex"] == "true"
    variable = notes["nginx.ingress.kubernetes.io/upstream-hash-by"]
    assert variable.startswith("$")
    paths = [p["path"] for rule in rooms["spec"]["rules"] for p in rule["http"]["paths"]]
    room_id = "CGRBv7_vIAw1"
    for url in (f"/ws/{room_id}", f"/api/rooms/{room_id}/start", f"/api/rooms/{room_id}"):
        # nginx's named capture (?<room>...) sets $room; Python spells it (?P<room>...)
        matches = [re.match(p.replace("(?<", "(?P<"), url) for p in paths]
        hits = [m for m in matches if m is not None]
        assert hits and all(m.group(variable[1:]) == room_id for m in hits), url
    every = one("Ingress", "geniusnight")
    assert [p["path"] for r in every["spec"]["rules"] for p in r["http"]["paths"]] == ["/"]
    assert "nginx.ingress.kubernetes.io/upstream-hash-by" not in every["metadata"]["annotations"]


def test_the_config_and_the_secret_make_a_production_server(monkeypatch: pytest.MonkeyPatch) -> None:
    from geniusnight.settings import Settings

    config = one("ConfigMap")["data"]
    secret = one("Secret")["stringData"]
    refs = {r.get("configMapRef", r.get("secretRef"))["name"] for r in app_container()["envFrom"]}
    assert refs == {one("ConfigMap")["metadata"]["name"], one("Secret")["metadata"]["name"]}
    for key, value in {**config, **secret}.items():
        monkeypatch.setenv(key, value)
    settings = Settings()  # production refuses to start without a real token and key
    assert settings.env == "production"
    assert settings.database_url.startswith("postgresql+asyncpg://") and "ssl=require" in settings.database_url
    assert settings.redis_url is not None and settings.redis_url.startswith("rediss://")
    # the ingress controller's pods: networks, as uvicorn's forwarded_allow_ips takes them
    assert all(ipaddress.ip_network(n.strip()) for n in config["GENIUSNIGHT_TRUSTED_PROXIES"].split(","))
    metrics_port = settings.metrics_address.rpartition(":")[2]
    ports = {p["name"]: p["containerPort"] for p in app_container()["ports"]}
    assert ports == {"http": 8000, "metrics": int(metrics_port)}
    assert "--no-migrate" in app_container()["args"]
    assert one("Job")["spec"]["template"]["spec"]["containers"][0]["command"] == ["geniusnight", "db", "upgrade"]
