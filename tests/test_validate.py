"""`kso validate`: the summary line, and every refusal the API server would
make, reported as one line FILE:LINE:COL: what is wrong (field.path) with
exit status 1; usage errors exit 2.

Each case's manifest is written to a temporary file; LINE and COL are
counted by hand from the text (1-based; the column is where the offending
value starts), as the comment on each case says.  KSO names the binary.
"""
import json
import os
import pathlib
import subprocess

import json

import pytest

REPO = pathlib.Path(__file__).resolve().parent.parent
KSO = os.environ.get("KSO", str(REPO / "kso"))
FIXTURES = REPO / "fixtures" / "load"


def run(*args, stdin=None):
    return subprocess.run([KSO, *map(str, args)], capture_output=True,
                          text=True, timeout=60, input=stdin)


POD = """apiVersion: v1
kind: Pod
metadata:
  name: web-1
spec:
"""  # lines 1-5; the spec body starts at line 6

NODE = """apiVersion: v1
kind: Node
metadata:
  name: n1
spec:
"""  # lines 1-5; the spec body starts at line 6

AFFINITY = POD + """  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
        - matchExpressions:
"""  # line 11 is the first requirement ("          - key: ...")

NA = ("spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuring"
      "Execution.nodeSelectorTerms[0]")

# (id, manifest, line, col, message, field path); message is the text
# between "L:C: " and " (field)"; a message ending in "..." is a prefix.
CASES = [
    # line 10 "        cpu: 12x": 8 spaces + "cpu: " -> column 14
    ("bad-quantity", POD + """  containers:
  - name: c
    resources:
      requests:
        cpu: 12x
""", 10, 14, 'invalid quantity "12x": quantities must match the regular '
     "expression ...", "spec.containers[0].resources.requests.cpu"),
    # same place, a negative request
    ("negative-request", POD + """  containers:
  - name: c
    resources:
      requests:
        memory: "-1Mi"
""", 10, 17, 'invalid quantity "-1Mi": must be greater than or equal to 0',
     "spec.containers[0].resources.requests.memory"),
    # 1e16 cores is 1e19 millicores > 2^63-1: the MilliValue overflows
    ("quantity-overflow", POD + """  containers:
  - name: c
    resources:
      limits:
        cpu: "10000000000000000"
""", 10, 14, 'quantity "10000000000000000": value does not fit in 64 bits',
     "spec.containers[0].resources.limits.cpu"),
    # line 8 "      matchExpressions:"; line 9 "      - key: app";
    # line 10 "        operator: Like": value at column 19
    ("selector-operator", POD + """  topologySpreadConstraints:
  - labelSelector:
      matchExpressions:
      - key: app
        operator: Like
        values: [web]
    maxSkew: 1
    topologyKey: zone
    whenUnsatisfiable: DoNotSchedule
""", 10, 19, 'unknown operator "Like" (want In, NotIn, Exists, DoesNotExist)',
     "spec.topologySpreadConstraints[0].labelSelector.matchExpressions[0]"
     ".operator"),
    # Gt is not a label-selector operator
    ("selector-gt", POD + """  topologySpreadConstraints:
  - labelSelector:
      matchExpressions:
      - {key: app, operator: Gt, values: ["1"]}
    maxSkew: 1
    topologyKey: zone
    whenUnsatisfiable: DoNotSchedule
""", 9, 30, 'unknown operator "Gt" (want In, NotIn, Exists, DoesNotExist)',
     "spec.topologySpreadConstraints[0].labelSelector.matchExpressions[0]"
     ".operator"),
    # line 8 "    effect: NoRun": value at column 13
    ("taint-effect", NODE + """  taints:
  - key: k
    effect: NoRun
""", 8, 13, 'unknown taint effect "NoRun" (want NoSchedule, PreferNoSchedule, '
     "NoExecute)", "spec.taints[0].effect"),
    ("toleration-operator", POD + """  tolerations:
  - key: k
    operator: Like
""", 8, 15, 'unknown toleration operator "Like" (want Equal, Exists)',
     "spec.tolerations[0].operator"),
    # line 9 "    value: v": value at column 12
    ("toleration-exists-value", POD + """  tolerations:
  - key: k
    operator: Exists
    value: v
""", 9, 12, "value must be empty when operator is Exists",
     "spec.tolerations[0].value"),
    # line 11 "          - key: gen"; line 12 "            operator: Gt";
    # line 13 "            values: ["1", "2"]": the list at column 21
    ("gt-two-values", AFFINITY + """          - key: gen
            operator: Gt
            values: ["1", "2"]
""", 13, 21, "operator Gt needs exactly one value, got 2",
     NA + ".matchExpressions[0].values"),
    # (a single Gt/Lt value that is not an integer is accepted by the API
    # server - ValidateNodeSelectorRequirement checks only the count - and
    # makes the term unparsable for the scheduler: tests/test_node_affinity_parse.py)
    # Gt without values: reported at the requirement (line 11, col 13)
    ("gt-no-values", AFFINITY + """          - key: gen
            operator: Gt
""", 11, 13, "operator Gt needs exactly one value, got 0",
     NA + ".matchExpressions[0].values"),
    ("in-no-values", AFFINITY + """          - key: zone
            operator: In
            values: []
""", 13, 21, "operator In needs at least one value",
     NA + ".matchExpressions[0].values"),
    ("exists-with-values", AFFINITY + """          - key: zone
            operator: Exists
            values: [a]
""", 13, 21, "operator Exists takes no values",
     NA + ".matchExpressions[0].values"),
    # matchFields: line 11 "        - matchFields:", line 12 "          - key:
    # metadata.labels" with the value at column 18
    ("matchfields-key", POD + """  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
        - matchFields:
          - key: metadata.labels
            operator: In
            values: [n1]
""", 11, 18, 'matchFields key "metadata.labels" is not supported (want '
     "metadata.name)", NA + ".matchFields[0].key"),
    ("matchfields-two-values", POD + """  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
        - matchFields:
          - key: metadata.name
            operator: NotIn
            values: [n1, n2]
""", 13, 21, "matchFields operator NotIn needs exactly one value, got 2",
     NA + ".matchFields[0].values"),
    ("matchfields-exists", POD + """  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
        - matchFields:
          - key: metadata.name
            operator: Exists
""", 12, 23, 'unknown operator "Exists" (want In, NotIn)',
     NA + ".matchFields[0].operator"),
    # line 9 "      - weight: 0": value at column 17
    ("weight-zero", POD + """  affinity:
    nodeAffinity:
      preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 0
        preference:
          matchExpressions: [{key: a, operator: Exists}]
""", 9, 17, "weight must be in the range 1-100, got 0",
     "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuring"
     "Execution[0].weight"),
    ("weight-101", POD + """  affinity:
    podAntiAffinity:
      preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 101
        podAffinityTerm:
          topologyKey: zone
""", 9, 17, "weight must be in the range 1-100, got 101",
     "spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuring"
     "Execution[0].weight"),
    # line 7 "  - maxSkew: 0": value at column 14
    ("max-skew", POD + """  topologySpreadConstraints:
  - maxSkew: 0
    topologyKey: zone
    whenUnsatisfiable: DoNotSchedule
""", 7, 14, "maxSkew must be at least 1, got 0",
     "spec.topologySpreadConstraints[0].maxSkew"),
    ("min-domains-zero", POD + """  topologySpreadConstraints:
  - maxSkew: 1
    topologyKey: zone
    whenUnsatisfiable: DoNotSchedule
    minDomains: 0
""", 10, 17, "minDomains must be at least 1, got 0",
     "spec.topologySpreadConstraints[0].minDomains"),
    ("min-domains-schedule-anyway", POD + """  topologySpreadConstraints:
  - maxSkew: 1
    topologyKey: zone
    whenUnsatisfiable: ScheduleAnyway
    minDomains: 2
""", 10, 17, "minDomains may only be set with whenUnsatisfiable DoNotSchedule",
     "spec.topologySpreadConstraints[0].minDomains"),
    # line 9 "    whenUnsatisfiable: Sometimes": value at column 24
    ("when-unsatisfiable", POD + """  topologySpreadConstraints:
  - maxSkew: 1
    topologyKey: zone
    whenUnsatisfiable: Sometimes
""", 9, 24, 'unknown whenUnsatisfiable "Sometimes" (want DoNotSchedule, '
     "ScheduleAnyway)", "spec.topologySpreadConstraints[0].whenUnsatisfiable"),
    # the second constraint (line 8 "  - maxSkew: 2", its map at column 5)
    # repeats {zone, DoNotSchedule}
    ("spread-duplicate", POD + """  topologySpreadConstraints:
  - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}
  - maxSkew: 2
    topologyKey: zone
    whenUnsatisfiable: DoNotSchedule
""", 8, 5, "duplicate constraint {zone, DoNotSchedule}: another constraint "
     "has the same topologyKey and whenUnsatisfiable",
     "spec.topologySpreadConstraints[1]"),
    # line 8 '    topologyKey: ""': value at column 18
    ("spread-empty-topology-key", POD + """  topologySpreadConstraints:
  - maxSkew: 1
    topologyKey: ""
    whenUnsatisfiable: DoNotSchedule
""", 8, 18, "topologyKey must not be empty",
     "spec.topologySpreadConstraints[0].topologyKey"),
    # missing topologyKey: reported at the term (line 9, column 9)
    ("affinity-missing-topology-key", POD + """  affinity:
    podAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - labelSelector: {matchLabels: {app: db}}
""", 9, 9, "topologyKey must not be empty",
     "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuring"
     "Execution[0].topologyKey"),
    # line 6 "  priorityClassName: gold": 2 + 19 characters, column 22
    ("unknown-priority-class", POD + """  priorityClassName: gold
""", 6, 22, "no PriorityClass with name gold was found",
     "spec.priorityClassName"),
    # priority 5 without any class: admission computes 0
    ("priority-mismatch", POD + """  priority: 5
""", 6, 13, "the integer value of priority (5) must not be provided in pod "
     "spec; priority admission controller computed 0 from the given "
     "PriorityClass name", "spec.priority"),
    # the second document starts at line 5; its name (line 8) at column 9
    ("duplicate", """apiVersion: v1
kind: Pod
metadata: {name: web-1}
---
apiVersion: v1
kind: Pod
metadata:
  name: web-1
""", 8, 9, "duplicate Pod default/web-1 (first defined at {file}:1)",
     "metadata.name"),
    # same name, other namespace: no duplicate; other kind: neither
    # (checked in test_not_duplicates).
    # line 5 "    Bad Key: x": the key at column 5
    ("label-key", """apiVersion: v1
kind: Pod
metadata:
  name: web-1
  labels:
    Bad Key: x
""", 6, 5, 'invalid label key "Bad Key": ...', "metadata.labels.Bad Key"),
    ("label-value", """apiVersion: v1
kind: Node
metadata:
  name: n1
  labels:
    app: "-web"
""", 6, 10, 'invalid label value "-web": ...', "metadata.labels.app"),
    ("node-selector-value", POD + """  nodeSelector:
    disk: "has space"
""", 7, 11, 'invalid label value "has space": ...', "spec.nodeSelector.disk"),
    ("selector-value", POD + """  affinity:
    podAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - topologyKey: zone
        labelSelector:
          matchLabels: {app: "a b"}
""", 11, 30, 'invalid label value "a b": ...',
     "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuring"
     "Execution[0].labelSelector.matchLabels.app"),
    # line 4 "  name: Web_1": value at column 9
    ("object-name", """apiVersion: v1
kind: Pod
metadata:
  name: Web_1
""", 4, 9, 'invalid name "Web_1": ...', "metadata.name"),
    # no name: reported at the metadata map (line 4, column 3)
    ("missing-name", """apiVersion: v1
kind: Pod
metadata:
  namespace: default
""", 4, 3, "name is required", "metadata.name"),
    ("name-is-a-map", """apiVersion: v1
kind: Pod
metadata:
  name: {first: web}
""", 4, 9, "expected a string, got a map", "metadata.name"),
    # line 6 "    version: 1": a plain number where a label value (a
    # string) is expected, as kubectl's decoding refuses it; column 14
    ("label-number", """apiVersion: v1
kind: Pod
metadata:
  name: web-1
  labels:
    version: 1
""", 6, 14, "expected a string, got the number 1 (quote it)",
     "metadata.labels.version"),
    # a plain true is a boolean: line 7 "    ssd: true", column 10
    ("node-selector-boolean", POD + """  nodeSelector:
    ssd: true
""", 7, 10, "expected a string, got the boolean true (quote it)",
     "spec.nodeSelector.ssd"),
    ("priority-not-integer", POD + """  priority: 1.5
""", 6, 13, 'expected an integer, got "1.5"', "spec.priority"),
    ("priority-quoted", POD + """  priority: "10"
""", 6, 13, 'expected an integer, got string "10"', "spec.priority"),
    ("containers-not-a-list", POD + """  containers:
    name: c
""", 7, 5, "expected a list, got a map", "spec.containers"),
    # line 10 "      hostPort: 70000": value at column 17
    ("host-port", POD + """  containers:
  - name: c
    ports:
    - containerPort: 80
      hostPort: 70000
""", 10, 17, "hostPort must be in 0..65535, got 70000",
     "spec.containers[0].ports[0].hostPort"),
    ("protocol", POD + """  containers:
  - name: c
    ports:
    - containerPort: 53
      protocol: ICMP
""", 10, 17, 'unknown protocol "ICMP" (want TCP, UDP, SCTP)',
     "spec.containers[0].ports[0].protocol"),
    # line 1 "apiVersion: v2": value at column 13
    ("api-version", """apiVersion: v2
kind: Pod
metadata: {name: p}
""", 1, 13, 'unsupported apiVersion "v2" for kind Pod (want v1)',
     "apiVersion"),
    ("pdb-api-version", """apiVersion: policy/v1beta1
kind: PodDisruptionBudget
metadata: {name: p}
""", 1, 13, 'unsupported apiVersion "policy/v1beta1" for kind '
     "PodDisruptionBudget (want policy/v1)", "apiVersion"),
    # inside a List the path names the item: line 7 "    name: x_y"
    ("list-item", """apiVersion: v1
kind: List
items:
- kind: Node
  apiVersion: v1
  metadata:
    name: x_y
""", 7, 11, 'invalid name "x_y": ...', "items[0].metadata.name"),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_refused(tmp_path, case):
    name, text, line, col, message, field = case
    path = tmp_path / f"{name}.yaml"
    path.write_text(text)
    proc = run("validate", path)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    head = f"{path}:{line}:{col}: "
    tail = f" ({field})"
    got = lines[0]
    assert got.startswith(head), got
    assert got.endswith(tail), got
    what = got[len(head):-len(tail)]
    message = message.replace("{file}", str(path))
    if message.endswith("..."):
        assert what.startswith(message[:-3]), what
    else:
        assert what == message


def test_not_duplicates(tmp_path):
    """Same name in another namespace, or of another kind, is no clash."""
    path = tmp_path / "ok.yaml"
    path.write_text("""apiVersion: v1
kind: Pod
metadata: {name: web-1}
---
apiVersion: v1
kind: Pod
metadata: {name: web-1, namespace: other}
---
apiVersion: v1
kind: Service
metadata: {name: web-1}
""")
    proc = run("validate", path)
    assert proc.returncode == 0, proc.stderr
    # 2 pods, namespaces default and other (implicit), 1 Service
    assert proc.stdout == ("ok: 0 nodes, 2 pods (0 bound, 2 pending), "
                           "2 namespaces, 0 priority classes, 0 PDBs, "
                           "1 spreading selectors (1 Service)\n")


def test_summary_basic():
    """fixtures/load/basic.yaml: nodes node-a, node-b; pods web-1 (nodeName
    node-a) and batch-1 (pending); Namespace team-a plus the implicit
    default of batch-1; PriorityClass high; the ConfigMap is skipped (a kind the
    scheduler does not read)."""
    proc = run("validate", FIXTURES / "basic.yaml")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert proc.stdout == ("ok: 2 nodes, 2 pods (1 bound, 1 pending), "
                           "2 namespaces, 1 priority classes, 0 PDBs, "
                           "0 spreading selectors\n")


def test_summary_with_config():
    proc = run("validate", FIXTURES / "basic.yaml", "--config",
               FIXTURES / "config-multi.yaml", "--extension",
               "SelectorSpread")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.endswith(", 0 spreading selectors, 2 profiles\n")


def test_config_error(tmp_path):
    # line 5 "  percentageOfNodesToScore: 101": value at column 29
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text("""apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: a
  percentageOfNodesToScore: 101
""")
    proc = run("validate", FIXTURES / "basic.yaml", "--config", cfg)
    assert proc.returncode == 1
    assert proc.stderr == (f"{cfg}:5:29: not in valid range [0-100] "
                           "(profiles[0].percentageOfNodesToScore)\n")


def test_stdin():
    text = (FIXTURES / "basic.yaml").read_text()
    proc = run("validate", "-", stdin=text)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("ok: 2 nodes, 2 pods")


def test_missing_file(tmp_path):
    proc = run("validate", tmp_path / "nope.yaml")
    assert proc.returncode == 1
    assert len(proc.stderr.splitlines()) == 1
    assert "nope.yaml" in proc.stderr


@pytest.mark.parametrize("args", [[], ["--bogus", "x.yaml"],
                                  ["--config"]])
def test_usage(args):
    proc = run("validate", *args)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "usage: kso validate" in proc.stderr


def test_help():
    proc = run("validate", "--help")
    assert proc.returncode == 0
    assert "usage: kso validate" in proc.stdout


CONFIG_HEAD = ("apiVersion: kubescheduler.config.k8s.io/v1\n"
               "kind: KubeSchedulerConfiguration\n")


@pytest.mark.parametrize("body,err", [
    # Plugin.weight is an int32 in the API (issue 18: an int64 weight made
    # the weighted total overflow)
    ("profiles:\n- schedulerName: default-scheduler\n  plugins:\n"
     "    score:\n      enabled: [{name: NodeResourcesFit, weight: "
     "9223372036854775807}]\n",
     ":7:50: weight 9223372036854775807 does not fit the API's int32 "
     "(profiles[0].plugins.score.enabled[0].weight)\n"),
    ("parallelism: 0\n",
     ":3:14: should be an integer value greater than zero (parallelism)\n"),
])
def test_config_numeric_ranges(tmp_path, body, err):
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(CONFIG_HEAD + body)
    proc = run("validate", FIXTURES / "basic.yaml", "--config", cfg)
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert proc.stderr == f"{cfg}{err}"


def test_config_largest_weight_scores_without_overflow(tmp_path):
    # weight 2147483647 (the int32 maximum) on NodeResourcesFit over
    # fixtures/scoring/strategies.yaml, whose LeastAllocated scores are
    # a 62 and b 81 (tests/test_scoring.py): weighted 62 x 2147483647 and
    # 81 x 2147483647, far inside int64
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(CONFIG_HEAD + "profiles:\n- schedulerName: default-scheduler\n"
                   "  plugins:\n    score:\n      enabled: "
                   "[{name: NodeResourcesFit, weight: 2147483647}]\n")
    proc = run("explain", REPO / "fixtures" / "scoring" / "strategies.yaml",
               "--pod", "default/p", "--config", cfg, "-o", "json")
    assert proc.returncode == 0, proc.stderr
    nodes = json.loads(proc.stdout)["nodes"]
    assert nodes["a"]["scores"]["NodeResourcesFit"] == 133143986114
    assert nodes["b"]["scores"]["NodeResourcesFit"] == 173946175407


def test_request_above_limit(tmp_path):
    # API validation: a container's request may not exceed its limit; the
    # error points at the request ("2" at line 9, column 23)
    f = tmp_path / "p.yaml"
    f.write_text("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n"
                 "  containers:\n  - name: c\n    image: x\n    resources:\n"
                 "      requests: {cpu: \"2\"}\n      limits: {cpu: \"1\"}\n")
    proc = run("validate", f)
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert proc.stderr == (f"{f}:9:23: request must be less than or equal to "
                           "the cpu limit (spec.containers[0].resources."
                           "requests.cpu)\n")


EXPORTED = """apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "2", pods: "110"}}
---
apiVersion: v1
kind: Pod
metadata: {name: a, namespace: default}
spec:
  priorityClassName: batch-high
  priority: 5000
  containers: [{name: c, image: x}]
---
apiVersion: v1
kind: Pod
metadata: {name: b, namespace: default}
spec:
  priorityClassName: batch-high
  priority: 5000
  containers: [{name: c, image: x}]
"""


def test_exported_pod_keeps_priority_of_missing_class(tmp_path):
    # `kubectl get nodes,pods -o yaml` exports no PriorityClass: the
    # priority admission gave the pods stands, with one warning per class
    f = tmp_path / "export.yaml"
    f.write_text(EXPORTED)
    proc = run("dump", f, "-o", "json")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == (
        f"{f}:10:22: warning: PriorityClass \"batch-high\" is not in the "
        "input; the pods naming it keep the spec.priority admission gave "
        "them (5000 for default/a) (spec.priorityClassName)\n")
    pods = json.loads(proc.stdout)["pods"]
    assert [p["spec"]["priority"] for p in pods] == [5000, 5000]
    # without spec.priority the class is still required
    f.write_text(EXPORTED.replace("  priority: 5000\n", "", 1))
    proc = run("validate", f)
    assert proc.returncode == 1
    assert proc.stderr == (f"{f}:10:22: no PriorityClass with name "
                           "batch-high was found (spec.priorityClassName)\n")


def test_directory_walk_skips_files_without_objects(tmp_path):
    # a Helm chart's Chart.yaml and values.yaml hold no object with a kind
    (tmp_path / "chart").mkdir()
    (tmp_path / "chart" / "Chart.yaml").write_text(
        "apiVersion: v2\nname: mychart\nversion: 0.1.0\n")
    (tmp_path / "chart" / "values.yaml").write_text("replicaCount: 3\n")
    (tmp_path / "nodes.yaml").write_text(
        "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n")
    proc = run("validate", tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("ok: 1 nodes, 0 pods")
    assert proc.stderr == ""
    # -v says which were skipped, in the walk's (strcmp) order
    proc = run("validate", tmp_path, "-v")
    assert proc.returncode == 0, proc.stderr
    chart = tmp_path / "chart"
    assert proc.stderr == (
        f"{chart / 'Chart.yaml'}: note: skipped: no Kubernetes object in it "
        "(a document with a kind)\n"
        f"{chart / 'values.yaml'}: note: skipped: no Kubernetes object in it "
        "(a document with a kind)\n")
    # named on the command line, such a file is still an error
    proc = run("validate", tmp_path / "chart" / "Chart.yaml")
    assert proc.returncode == 1
    assert proc.stderr.endswith("Chart.yaml:1:1: kind is required (kind)\n")


def test_storage_the_input_lacks_is_a_warning(tmp_path):
    # a claim the input does not hold: kube's answer is "not found", which
    # a listing of pods alone seldom means; a class it does not hold
    # makes kube bind the claim as Immediate; an in-tree cinder volume is
    # modelled (migrated to its CSI driver): no warning
    f = tmp_path / "db.yaml"
    f.write_text("apiVersion: v1\nkind: Pod\nmetadata: {name: db, namespace: "
                 "default}\nspec:\n  containers: [{name: c, image: x}]\n"
                 "  volumes:\n  - name: cfg\n    configMap: {name: cfg}\n"
                 "  - name: data\n    persistentVolumeClaim: {claimName: d}\n"
                 "  - name: disk\n    cinder: {volumeID: v}\n"
                 "---\napiVersion: v1\nkind: PersistentVolumeClaim\n"
                 "metadata: {name: e}\nspec:\n  accessModes: [ReadWriteOnce]\n"
                 "  storageClassName: fast\n"
                 "  resources: {requests: {storage: 1Gi}}\n")
    proc = run("validate", f)
    assert proc.returncode == 0
    assert proc.stderr == (
        f"{f}:9:5: warning: PersistentVolumeClaim default/d is not in the "
        "input; kube leaves pod default/db pending (persistentvolumeclaim "
        "\"d\" not found) (spec.volumes[1])\n"
        f"{f}:14:1: warning: StorageClass \"fast\" of PersistentVolumeClaim "
        "default/e is not in the input; kube binds the claim as Immediate "
        "(spec.storageClassName)\n")


TYPOS = """apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  nodeSelecter: {disk: ssd}
  containers:
  - name: c
    image: x
    resources: {request: {cpu: 1}}
  affinity:
    nodeAffinity:
      requiredDuringScheduling: {}
  tolerations:
  - {key: a, operater: Exists}
"""


def test_unknown_fields_are_warnings_naming_the_near_field(tmp_path):
    # each typo is a field its type (PodSpec, ResourceRequirements,
    # NodeAffinity, Toleration) does not have; the suggestion is the field
    # one or two edits away, or the one the key cuts short
    f = tmp_path / "typo.yaml"
    f.write_text(TYPOS)
    r = run("validate", f)
    assert r.returncode == 0
    assert r.stderr.splitlines() == [
        '%s:5:3: warning: unknown field "nodeSelecter" in a pod\'s spec (did '
        'you mean nodeSelector?); kso ignores it (spec.nodeSelecter)' % f,
        '%s:9:17: warning: unknown field "request" in a container\'s '
        'resources (did you mean requests?); kso ignores it '
        '(spec.containers[0].resources.request)' % f,
        '%s:12:7: warning: unknown field "requiredDuringScheduling" in a node '
        'affinity (did you mean requiredDuringSchedulingIgnoredDuringExecution'
        '?); kso ignores it (spec.affinity.nodeAffinity.'
        'requiredDuringScheduling)' % f,
        '%s:14:14: warning: unknown field "operater" in a toleration (did you '
        'mean operator?); kso ignores it (spec.tolerations[0].operater)' % f]
    # --strict: every one of them an error, in file order, worded as one
    # (no "warning: ", no "kso ignores it")
    r = run("validate", f, "--strict")
    assert (r.returncode, r.stdout) == (1, "")
    assert r.stderr.splitlines() == [
        '%s:5:3: unknown field "nodeSelecter" in a pod\'s spec (did you mean '
        'nodeSelector?) (spec.nodeSelecter)' % f,
        '%s:9:17: unknown field "request" in a container\'s resources (did '
        'you mean requests?) (spec.containers[0].resources.request)' % f,
        '%s:12:7: unknown field "requiredDuringScheduling" in a node affinity '
        '(did you mean requiredDuringSchedulingIgnoredDuringExecution?) '
        '(spec.affinity.nodeAffinity.requiredDuringScheduling)' % f,
        '%s:14:14: unknown field "operater" in a toleration (did you mean '
        'operator?) (spec.tolerations[0].operater)' % f]


def test_a_kubectl_export_has_no_unknown_fields():
    # every field kubectl prints for these kinds is a field of its type
    for rel in ("load/kubectl-list.yaml", "load/rich.yaml"):
        r = run("validate", REPO / "fixtures" / rel)
        assert r.returncode == 0, r.stderr
        assert "unknown field" not in r.stderr


def test_unknown_fields_in_workloads_and_their_pod_templates(tmp_path):
    # a ReplicaSet's spec and its template's pod spec are checked too
    f = tmp_path / "rs.yaml"
    f.write_text("apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: web}\n"
                 "spec:\n  replica: 3\n  selector: {matchLabels: {app: web}}\n"
                 "  template:\n    metadata: {labels: {app: web}}\n    spec:\n"
                 "      containers: [{name: c, image: x}]\n"
                 "      tolerationz: []\n")
    r = run("validate", f)
    assert r.returncode == 0
    assert r.stderr.splitlines() == [
        '%s:5:3: warning: unknown field "replica" in a ReplicaSet\'s spec '
        '(did you mean replicas?); kso ignores it (spec.replica)' % f,
        '%s:11:7: warning: unknown field "tolerationz" in a pod\'s spec (did '
        'you mean tolerations?); kso ignores it '
        '(spec.template.spec.tolerationz)' % f]


def test_json_scanner_and_libyaml_read_json_alike(tmp_path):
    # a JSON text is read by kso's JSON scanner (yaml/json_events.c); a
    # trailing tab makes it libyaml's: the same dump, the same error at
    # the same FILE:LINE:COL
    doc = {"apiVersion": "v1", "kind": "List", "items": [
        {"apiVersion": "v1", "kind": "Node",
         "metadata": {"name": "n1", "labels": {"zone": "z1"}},
         "status": {"allocatable": {"cpu": "4", "memory": "8Gi",
                                    "pods": 110}}},
        {"apiVersion": "v1", "kind": "Pod",
         "metadata": {"name": "p", "annotations": {"note": "a\"b\n\t\u00e9"}},
         "spec": {"containers": [{"name": "c", "image": "caf\u00e9\u20ac",
                                  "resources": {
             "requests": {"cpu": 0.5, "memory": "1e3"}}}]}}]}
    text = json.dumps(doc, indent=2, ensure_ascii=False)   # raw UTF-8
    fast, slow = tmp_path / "fast.json", tmp_path / "slow.json"
    fast.write_text(text + "\n")
    slow.write_text(text + "\t\n")
    a, b = run("dump", fast, "-o", "json"), run("dump", slow, "-o", "json")
    assert a.returncode == 0 and b.returncode == 0, a.stderr + b.stderr
    assert a.stdout == b.stdout
    bad = text.replace('"cpu": "4"', '"cpu": "four"')
    fast.write_text(bad + "\n")
    slow.write_text(bad + "\t\n")
    a, b = run("validate", fast), run("validate", slow)
    assert a.returncode == b.returncode == 1
    assert a.stderr.replace("fast.json", "X") == b.stderr.replace("slow.json", "X")
    # json.dumps(indent=2): "cpu" is on line 16 (the List's 4 lines, the
    # Node's {, apiVersion, kind, metadata's 6, status, allocatable),
    # indented 10, its value after '"cpu": ' at column 18
    assert ":16:18: " in a.stderr, a.stderr


def test_summary_tells_the_expansion_and_what_is_not_expanded(tmp_path):
    # 1 listed pod; Deployment web (replicas 2) creates 2 through its
    # made-up ReplicaSet; Job once (completions 1) creates 1; the CronJob
    # ops/cleanup makes Jobs on a schedule: not expanded.  Under -v the
    # skipped kinds are noted, namespace/name.
    f = tmp_path / "w.yaml"
    f.write_text(
        "apiVersion: v1\nkind: Pod\nmetadata: {name: solo}\n"
        "spec: {containers: [{name: c, image: x}]}\n---\n"
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n"
        "spec:\n  replicas: 2\n  selector: {matchLabels: {app: web}}\n"
        "  template:\n    metadata: {labels: {app: web}}\n"
        "    spec: {containers: [{name: c, image: x}]}\n---\n"
        "apiVersion: batch/v1\nkind: Job\nmetadata: {name: once}\n"
        "spec:\n  template:\n    spec: {restartPolicy: Never, containers: "
        "[{name: c, image: x}]}\n---\n"
        "apiVersion: batch/v1\nkind: CronJob\n"
        "metadata: {name: cleanup, namespace: ops}\n"
        "spec: {schedule: '0 * * * *', jobTemplate: {spec: {template: "
        "{spec: {restartPolicy: Never, containers: [{name: c, image: x}]}}}}}"
        "\n")
    p = run("validate", f)
    assert p.returncode == 0, p.stderr
    first, second = p.stdout.splitlines()
    assert first.startswith("ok: 0 nodes, 4 pods (0 bound, 4 pending)")
    import re
    assert re.fullmatch(r"4 pods: 1 listed, 3 created by 2 controllers "
                        r"\(ReplicaSet default/web-[a-z0-9]+ 2, Job "
                        r"default/once 1\); CronJob ops/cleanup not expanded "
                        r"\(kso does not run CronJobs\)", second), second
    v = run("validate", "-v", f)
    assert v.stderr.splitlines() == [
        "note: skipped, kinds the scheduler does not read: 1 CronJob (not "
        "expanded)"]
