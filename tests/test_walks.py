"""
test_walks.py - directory walks as a person's checkout has them (issue
38): a Helm chart's templates are recognised and the walk goes on with a
warning to render them with `helm template` (an error when the template
is named itself); dot-directories (.git, .github) are skipped; under -v
the objects of kinds the scheduler does not read are counted by kind, one line.
"""
import subprocess

from conftest import KSO

NODE = ("apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n"
        "status: {allocatable: {cpu: \"2\", pods: \"10\"}}\n")
POD = ("apiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: default}\n"
       "spec: {containers: [{name: c, image: x}]}\n")
# a chart template: line 4 col 13 is the first action ("{{ .Values")
TEMPLATE = ("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n"
            "  name: web-{{ .Values.suffix }}\nspec:\n"
            "  replicas: {{ .Values.replicas }}\n"
            "  {{- include \"labels\" . | nindent 2 }}\n")
CONFIGMAP = ("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: rules}\n"
             "data:\n  alert: 'instance {{ $labels.instance }} down'\n")


def kso(*args):
    return subprocess.run([KSO, *map(str, args)], capture_output=True,
                          text=True, timeout=60)


def checkout(tmp_path):
    d = tmp_path / "repo"
    (d / "chart" / "templates").mkdir(parents=True)
    (d / "chart" / "Chart.yaml").write_text("apiVersion: v2\nname: web\n"
                                            "version: 0.1.0\n")
    (d / "chart" / "templates" / "deploy.yaml").write_text(TEMPLATE)
    (d / ".git").mkdir()
    # would be an error if read: a Pod without spec.containers' names
    (d / ".git" / "broken.yaml").write_text("kind: Pod\napiVersion: v1\n"
                                            "metadata: {name: x}\nspec: 7\n")
    (d / "cluster.yaml").write_text(NODE + "---\n" + POD)
    (d / "rules.yaml").write_text(CONFIGMAP)
    return d


def test_walk_skips_templates_and_dot_directories(tmp_path):
    d = checkout(tmp_path)
    r = kso("validate", d)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("ok: 1 nodes, 1 pods (0 bound, 1 pending)")
    # the one warning: the template; the ConfigMap's "{{ $labels" is a
    # Prometheus rule's text, no Helm action
    assert r.stderr == (f"{d}/chart/templates/deploy.yaml:4:13: warning: "
                        "skipped: a Helm chart template; render the chart "
                        "with `helm template` and give kso its output\n")
    r = kso("validate", d, "--strict")
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr == (f"{d}/chart/templates/deploy.yaml:4:13: skipped: a "
                        "Helm chart template; render the chart with `helm "
                        "template` and give kso its output\n")


def test_verbose_lists_what_was_skipped(tmp_path):
    d = checkout(tmp_path)
    r = kso("validate", d, "-v")
    assert r.returncode == 0, r.stderr
    # the files in walk order: .git (dot entries sort first),
    # chart/Chart.yaml; then the objects skipped, counted by kind (the
    # ConfigMap of rules.yaml); then the warnings
    assert r.stderr.splitlines() == [
        f"{d}/.git: note: skipped: a dot-directory",
        f"{d}/chart/Chart.yaml: note: skipped: no Kubernetes object in it "
        "(a document with a kind)",
        "note: skipped, kinds the scheduler does not read: 1 ConfigMap",
        f"{d}/chart/templates/deploy.yaml:4:13: warning: skipped: a Helm "
        "chart template; render the chart with `helm template` and give kso "
        "its output"]


def test_a_template_named_on_the_command_line_is_an_error(tmp_path):
    d = checkout(tmp_path)
    f = d / "chart" / "templates" / "deploy.yaml"
    r = kso("validate", f)
    assert (r.returncode, r.stdout) == (1, "")
    assert r.stderr == (f"{f}:4:13: a Helm chart template, not a manifest: "
                        "render the chart with `helm template` and give kso "
                        "its output\n")
    # a dot-directory named itself is read: the user asked for it
    r = kso("validate", d / ".git")
    assert r.returncode == 1


def test_verbose_counts_the_skipped_objects_by_kind(tmp_path):
    # three ConfigMaps, a CronJob (its Jobs are made on a schedule: not
    # expanded) and a Kustomization, in two files: one line, the kinds in
    # name order with their counts; the objects kso reads are not in it
    (tmp_path / "a.yaml").write_text(
        CONFIGMAP + "---\napiVersion: kustomize.config.k8s.io/v1beta1\n"
        "kind: Kustomization\nresources: []\n---\n" +
        CONFIGMAP.replace("rules", "rules-2") + "---\n" + NODE)
    (tmp_path / "b.yaml").write_text(
        "apiVersion: batch/v1\nkind: CronJob\n"
        "metadata: {name: cleanup, namespace: ops}\n"
        "spec: {schedule: '0 * * * *', jobTemplate: {spec: {template: "
        "{spec: {restartPolicy: Never, containers: [{name: c, image: x}]}}}}}"
        "\n---\n" + CONFIGMAP.replace("rules", "rules-3") + "---\n" + POD)
    r = kso("validate", tmp_path, "-v")
    assert r.returncode == 0, r.stderr
    assert r.stderr == ("note: skipped, kinds the scheduler does not read: "
                        "3 ConfigMap, 1 CronJob (not expanded), "
                        "1 Kustomization\n")
    # without -v: nothing
    assert kso("validate", tmp_path).stderr == ""
