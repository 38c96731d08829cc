"""DynamicResources for pods with claims under kube v1.34 (issue 35), in
both engines: each fixture under fixtures/dra/ has a header working out
kube v1.34.1's answer by hand (dynamicresources.go's PreFilter, Filter and
PostFilter, the structured allocator); here each is run through
`kso explain --kube-version 1.34` by the model and the oracle, the two
outputs byte-identical and the values the header's.  `kso schedule`
carries Reserve / PreBind, PostFilter's deallocation and a victim's
released claims from step to step, both engines alike.  What kso declines
to judge (kube's answer depends on a Go map's order) is refused, exit 3.
"""
import json

import pytest

from conftest import FIXTURES, fixture_path, run_kso

ENGINES = ["oracle", "model"]
DRA = "DynamicResources"
UAU = "UnschedulableAndUnresolvable"
NO_ALLOC = "cannot allocate all claims"
NOT_HERE = "resourceclaim not available on the node"
NEVER = "preemption: not eligible due to preemptionPolicy=Never."


def explain(fixture, pod, engine):
    p = run_kso("explain", fixture_path("dra/" + fixture), "--pod", pod,
                "--engine", engine, "--kube-version", "1.34", "-o", "json")
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def verdicts(d):
    return {n: (v["code"], v["rejected_by"], v["reasons"])
            for n, v in d["nodes"].items()}


OK = ("Success", "", [])


def dra_fail(reason):
    return (UAU, DRA, [reason])


@pytest.mark.parametrize("engine", ENGINES)
def test_one_gpu_from_a_template(engine):
    d = explain("gpu-from-template.yaml", "default/p", engine)
    assert verdicts(d) == {"n1": dra_fail(NO_ALLOC), "n2": OK,
                           "n3": dra_fail(NO_ALLOC)}
    assert d["viable"] == ["n2"]
    assert d["code"] == "Success" and d["message"] == ""


@pytest.mark.parametrize("engine", ENGINES)
def test_a_shared_claim(engine):
    d = explain("shared-claim.yaml", "default/b", engine)
    assert verdicts(d) == {"n1": dra_fail(NOT_HERE), "n2": OK}
    assert d["viable"] == ["n2"]
    d = explain("shared-claim-cpu.yaml", "default/c", engine)
    assert verdicts(d) == {
        "n1": dra_fail(NOT_HERE),
        "n2": ("Unschedulable", "NodeResourcesFit", ["Insufficient cpu"])}
    assert d["code"] == "Unschedulable"
    assert d["message"] == (
        "0/2 nodes are available: 1 Insufficient cpu, 1 " + NOT_HERE +
        ". still not schedulable, " + NEVER)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_class_selecting_on_a_driver_attribute(engine):
    d = explain("class-selector.yaml", "default/p", engine)
    assert verdicts(d) == {"n1": dra_fail(NO_ALLOC), "n2": OK}
    assert d["viable"] == ["n2"]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("selector", [
    # cel.bind: kube's device environment has cel-go's Bindings since v1.31
    "cel.bind(gpu, device.attributes['gpu.example.com'], "
    "device.driver == 'gpu.example.com' && gpu.model == 'a100')",
    # matches: RE2, unanchored unless anchored - t4 has no 'a1', a100 has
    "device.driver.matches('^gpu[.]example[.]com$') && "
    "device.attributes['gpu.example.com'].model.matches('a1[0-9]{2}')",
    # cel-go's string extensions: t4 starts with t, a100 with a
    "device.driver.split('.')[0] == 'gpu' && "
    "device.attributes['gpu.example.com'].model.substring(0, 1) == 'a'",
    # a macro over a list literal
    "['a100', 'h100'].exists(m, "
    "device.attributes['gpu.example.com'].model == m)"])
def test_a_class_selector_kso_refused_before(engine, selector, tmp_path):
    # class-selector.yaml's class written with cel.bind, matches(), the
    # string extensions or a macro: the same selector, the same verdicts - n1's t4
    # fails it, n2's a100 passes.  kso refused them all at load.
    text = (FIXTURES / "dra" / "class-selector.yaml").read_text()
    old = ("device.driver == 'gpu.example.com' && "
           "device.attributes['gpu.example.com'].model == 'a100'")
    assert old in text
    path = tmp_path / "sel.yaml"
    path.write_text(text.replace(old, selector))
    p = run_kso("explain", path, "--pod", "default/p", "--engine", engine,
                "--kube-version", "1.34", "-o", "json")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert verdicts(d) == {"n1": dra_fail(NO_ALLOC), "n2": OK}
    assert d["viable"] == ["n2"]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_prioritized_list(engine):
    d = explain("first-available.yaml", "default/p", engine)
    assert verdicts(d) == {"n1": dra_fail(NO_ALLOC), "n2": OK, "n3": OK}
    assert sorted(d["viable"]) == ["n2", "n3"]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_prioritized_list_of_two_all_alternatives(engine):
    # the second All alternative reads the first's cached matches
    # (validateDeviceRequest's key): n3's small device is never listed
    d = explain("first-available-all.yaml", "default/p", engine)
    assert verdicts(d) == {"n1": dra_fail(NO_ALLOC), "n2": OK,
                           "n3": dra_fail(NO_ALLOC)}
    assert d["viable"] == ["n2"]


@pytest.mark.parametrize("engine", ENGINES)
def test_waiting_for_a_device_another_pod_holds(engine):
    d = explain("waiting.yaml", "default/b", engine)
    assert verdicts(d) == {"n1": dra_fail(NO_ALLOC), "n2": dra_fail(NO_ALLOC)}
    assert d["code"] == "Unschedulable"
    assert d["message"] == ("0/2 nodes are available: 2 " + NO_ALLOC +
                            ". still not schedulable, " + NEVER)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_missing_device_class_rejects_at_prefilter(engine):
    d = explain("missing-class.yaml", "default/p", engine)
    why = "request gpu: device class gpu.example.com does not exist"
    assert verdicts(d) == {"n1": dra_fail(why), "n2": dra_fail(why)}
    assert d["message"] == (
        "0/2 nodes are available: " + why + ". no new claims to deallocate, "
        "preemption: 0/2 nodes are available: 2 Preemption is not helpful "
        "for scheduling.")


DRA_FILES = sorted((FIXTURES / "dra").glob("*.yaml"))


def pending(path):
    p = run_kso("dump", path, "--kube-version", "1.34", "-o", "json")
    assert p.returncode == 0, p.stderr
    return ["%s/%s" % (q["metadata"].get("namespace", "default"),
                       q["metadata"]["name"])
            for q in json.loads(p.stdout)["pods"]
            if not q.get("spec", {}).get("nodeName")]


@pytest.mark.parametrize("path", DRA_FILES, ids=lambda p: p.name)
def test_engines_identical_under_1_34(path):
    assert pending(path)
    for pod in pending(path):
        out = [run_kso("explain", path, "--pod", pod, "--engine", e,
                       "--kube-version", "1.34", "-o", "json")
               for e in ENGINES]
        assert out[0].returncode == out[1].returncode == 0
        assert out[0].stdout == out[1].stdout
    out = [run_kso("schedule", path, "--engine", e, "--kube-version", "1.34",
                   "-o", "json") for e in ENGINES]
    assert out[0].returncode == out[1].returncode
    assert out[0].returncode in (0, 1), out[0].stderr
    assert out[0].stdout == out[1].stdout


def test_the_schedule_run_places_the_pod_with_claims():
    p = run_kso("schedule", fixture_path("dra/gpu-from-template.yaml"),
                "--kube-version", "1.34", "-o", "json")
    assert p.returncode == 0, p.stderr
    steps = json.loads(p.stdout)["steps"]
    assert [(s["pod"], s.get("node")) for s in steps] == [("default/p", "n2")]


# ------------------------------------------------------ the scheduler loop

def schedule(path, engine, *extra):
    return run_kso("schedule", path, "--engine", engine, "--kube-version",
                   "1.34", "-o", "json", *extra)


def steps(d):
    return [(s["pod"], s["action"], s["node"], s["victims"], s["message"])
            for s in d["steps"]]


NOT_HELPFUL = "preemption: 0/%d nodes are available: %d Preemption is not " \
    "helpful for scheduling."


@pytest.mark.parametrize("engine", ENGINES)
def test_the_loop_carries_reserve_and_prebind(engine):
    # fixtures/dra/loop-claims.yaml's header: s1 takes n1's device for the
    # shared claim, s2 follows the claim to n1, t's template claim takes
    # n2's, x finds none
    p = schedule(fixture_path("dra/loop-claims.yaml"), engine)
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert steps(d) == [
        ("default/s1", "bind", "n1", [], ""),
        ("default/s2", "bind", "n1", [], ""),
        ("default/t", "bind", "n2", [], ""),
        ("default/x", "unschedulable", None, [],
         "0/2 nodes are available: 2 " + NO_ALLOC + ". still not schedulable, " +
         NOT_HELPFUL % (2, 2))]
    # x's retry after the 5-minute timeout finds no device either
    assert d["summary"]["stopped"] == "fixpoint"


@pytest.mark.parametrize("engine", ENGINES)
def test_postfilter_deallocates_and_the_pod_retries(engine):
    # fixtures/dra/loop-deallocate.yaml's header
    p = schedule(fixture_path("dra/loop-deallocate.yaml"), engine)
    assert p.returncode == 0, p.stderr
    assert steps(json.loads(p.stdout)) == [
        ("default/p", "unschedulable", None, [],
         "0/2 nodes are available: 1 node(s) didn't match Pod's node "
         "affinity/selector, 1 " + NOT_HERE + ". deallocation of ResourceClaim "
         "completed, " + NOT_HELPFUL % (2, 2)),
        ("default/p", "bind", "n1", [], "")]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_deallocation_before_a_preemption_is_an_event(engine):
    # fixtures/dra/loop-dealloc-wakes.yaml's header: h's PostFilter
    # deallocates old, then evicts v; the deallocation moves w (rejected by
    # DynamicResources) as the deletion alone would not, though old is not
    # w's claim; h's PreBind writing old later (not w's, not a
    # deallocation) leaves w parked: isSchedulableAfterClaimChange's Skip
    p = schedule(fixture_path("dra/loop-dealloc-wakes.yaml"), engine)
    assert p.returncode == 0, p.stderr
    w = ("default/w", "unschedulable", None, [],
         "0/2 nodes are available: 2 " + NO_ALLOC + ". still not "
         "schedulable, " + NOT_HELPFUL % (2, 2))
    assert steps(json.loads(p.stdout)) == [
        w,
        ("default/h", "preempt", "n2", ["default/v"],
         "0/2 nodes are available: 1 Insufficient cpu, 1 " + NOT_HERE + "."),
        w,
        ("default/h", "bind", "n2", [], "")]


@pytest.mark.parametrize("engine", ENGINES)
def test_preemption_does_not_free_devices(engine):
    # fixtures/dra/preempt-for-device.yaml's header: no PreFilterExtensions,
    # the dry run keeps v's device in use
    path = fixture_path("dra/preempt-for-device.yaml")
    d = explain("preempt-for-device.yaml", "default/h", engine)
    assert d["message"] == (
        "0/1 nodes are available: 1 Insufficient cpu. still not schedulable, "
        "preemption: 0/1 nodes are available: 1 " + NO_ALLOC + ".")
    d = explain("preempt-for-device.yaml", "default/g", engine)
    assert d["message"] == (
        "0/1 nodes are available: 1 " + NO_ALLOC + ". still not schedulable, " +
        NOT_HELPFUL % (1, 1))
    p = schedule(path, engine)
    assert p.returncode == 0, p.stderr
    assert [s[:3] for s in steps(json.loads(p.stdout))] == [
        ("default/h", "unschedulable", None),
        ("default/g", "unschedulable", None)]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_victims_claim_is_released(engine):
    # fixtures/dra/loop-victim-claims.yaml's header
    p = schedule(fixture_path("dra/loop-victim-claims.yaml"), engine)
    assert p.returncode == 0, p.stderr
    assert steps(json.loads(p.stdout)) == [
        ("default/h", "preempt", "n1", ["default/v"],
         "0/1 nodes are available: 1 Insufficient cpu."),
        ("default/h", "bind", "n1", [], ""),
        ("default/w", "bind", "n1", [], "")]


CLASS = """apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.example.com}
spec: {}
---
apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4", pods: "10"}}
---
"""


def claim(name, status=""):
    return """apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: %s, namespace: default}
spec:
  devices:
    requests:
    - name: gpu
      exactly: {deviceClassName: gpu.example.com}
%s---
""" % (name, status)


def slice_(pool):
    return """apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: %s}
spec:
  driver: gpu.example.com
  nodeName: n1
  pool: {name: %s, generation: 1, resourceSliceCount: 1}
  devices:
  - name: gpu-0
---
""" % (pool, pool)


def pod(name, *claims):
    return """apiVersion: v1
kind: Pod
metadata: {name: %s, namespace: default, uid: uid-%s}
spec:
  containers: [{name: c, image: x}]
  resourceClaims: [%s]
---
""" % (name, name, ", ".join("{name: c%d, resourceClaimName: %s}" % (i, c)
                             for i, c in enumerate(claims)))


ON_N2 = """status:
  allocation:
    devices:
      results:
      - {request: gpu, driver: gpu.example.com, pool: n2, device: gpu-0}
    nodeSelector:
      nodeSelectorTerms:
      - matchFields:
        - {key: metadata.name, operator: In, values: [n2]}
"""


@pytest.mark.parametrize("engine", ENGINES)
def test_a_random_deallocation_stops_the_loop(engine, tmp_path):
    # p's claims a and b are both allocated for n2 (not in the input) and
    # reserved for no pod: both unavailable on n1, PostFilter deallocates
    # one of them, picked by a Go map's iteration order - random.  The
    # cycle's message is the same either way; the state after is not.
    path = tmp_path / "p.yaml"
    path.write_text(CLASS + claim("a", ON_N2) + claim("b", ON_N2) +
                    pod("p", "a", "b"))
    p = schedule(path, engine)
    assert p.returncode == 3
    d = json.loads(p.stdout)
    assert steps(d) == [
        ("default/p", "unschedulable", None, [],
         "0/1 nodes are available: 1 " + NOT_HERE + ". deallocation of "
         "ResourceClaim completed, " + NOT_HELPFUL % (1, 1))]
    assert d["summary"]["stopped"] == "unjudged"
    assert p.stderr == (
        "kso schedule: stopped: pod default/p: DynamicResources' PostFilter "
        "deallocates one of several of its claims, picked at random (a Go "
        "map's order)\n")


@pytest.mark.parametrize("engine", ENGINES)
def test_devices_picked_in_map_order_stop_the_loop(engine, tmp_path):
    # n1 holds gpu-0 of pool p1 and gpu-0 of pool p2: kube's allocator walks
    # its pools in a Go map's order, so a's claim gets either; b, still to
    # schedule, would find the other in use.  The bind itself is kube's.
    path = tmp_path / "p.yaml"
    path.write_text(CLASS + slice_("p1") + slice_("p2") + claim("a-gpu") +
                    claim("b-gpu") + pod("a", "a-gpu") + pod("b", "b-gpu"))
    p = schedule(path, engine)
    assert p.returncode == 3
    d = json.loads(p.stdout)
    assert steps(d) == [("default/a", "bind", "n1", [], "")]
    assert d["summary"]["stopped"] == "unjudged"
    assert p.stderr.startswith(
        "kso schedule: stopped: pod default/a bound to n1: the devices kube's "
        "allocator picks there for its claims (first default/a-gpu) depend on "
        "the order of its pools (a Go map) and slices")
    # one pool: the device order decides, no refusal
    path.write_text(CLASS + slice_("p1") + claim("a-gpu") + claim("b-gpu") +
                    pod("a", "a-gpu") + pod("b", "b-gpu"))
    p = schedule(path, engine)
    assert p.returncode == 0, p.stderr
    assert [s[:3] for s in steps(json.loads(p.stdout))] == [
        ("default/a", "bind", "n1"), ("default/b", "unschedulable", None)]


@pytest.mark.parametrize("engine", ENGINES)
def test_pool_orders_picking_the_same_devices_do_not_stop_the_loop(engine):
    # fixtures/dra/two-pools-same-devices.yaml's header: a's claim takes
    # nic-0 and x-0 in either pool order (only the results' order differs),
    # so b, still to schedule, is judged: it follows the claim's node
    # selector (rack In [r1]) to n2.  kso compared the orders' picks
    # bytewise, padding and all, and stopped after a's bind.
    path = fixture_path("dra/two-pools-same-devices.yaml")
    p = schedule(path, engine)
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert steps(d) == [("default/a", "bind", "n1", [], ""),
                        ("default/b", "bind", "n2", [], "")]
    assert d["summary"]["stopped"] == "quiescent"
    import yaml
    p = run_kso("schedule", path, "--engine", engine, "--kube-version", "1.34",
                "-o", "yaml")
    assert p.returncode == 0, p.stderr
    docs = [d for d in yaml.safe_load_all(p.stdout) if d]
    (status,) = [d["status"] for d in docs if d["kind"] == "ResourceClaim"]
    assert sorted(r["device"] for r in status["allocation"]["devices"]
                  ["results"]) == ["nic-0", "x-0"]
    assert status["allocation"]["nodeSelector"] == {"nodeSelectorTerms": [
        {"matchExpressions": [{"key": "rack", "operator": "In",
                               "values": ["r1"]}]}]}
    assert [r["name"] for r in status["reservedFor"]] == ["a", "b"]


@pytest.mark.parametrize("engine", ENGINES)
def test_counts_are_go_ints(engine, tmp_path):
    # fixtures/dra/first-available-huge-count.yaml's header: huge's check
    # wraps below 32 after r0's device, huge finds no fit, small takes d1
    import yaml
    path = fixture_path("dra/first-available-huge-count.yaml")
    p = run_kso("schedule", path, "--engine", engine, "--kube-version", "1.34",
                "-o", "yaml")
    assert p.returncode == 0, p.stderr
    docs = [d for d in yaml.safe_load_all(p.stdout) if d]
    (status,) = [d["status"] for d in docs if d["kind"] == "ResourceClaim"]
    assert [(r["request"], r["device"]) for r in
            status["allocation"]["devices"]["results"]] == [
        ("r0", "d0"), ("fa/small", "d1")]
    # two counts whose sum wraps below zero: kube's Allocate panics making
    # the claim's result slice; kso does not judge it
    text = path.read_text().replace(
        "    - {name: r0, exactly: {deviceClassName: gpu}}\n",
        "    - {name: r0, exactly: {deviceClassName: gpu, count: 2}}\n").replace(
        "      - {name: small, deviceClassName: gpu}\n", "").replace(
        "    - name: fa\n      firstAvailable:\n"
        "      - {name: huge, deviceClassName: gpu, count: 9223372036854775807}",
        "    - {name: fa, exactly: {deviceClassName: gpu, count: "
        "9223372036854775807}}")
    assert "count: 2}" in text and "firstAvailable:\n" not in text
    wrapped = tmp_path / "wrapped.yaml"
    wrapped.write_text(text)
    p = run_kso("explain", wrapped, "--engine", engine, "--kube-version", "1.34")
    assert p.returncode == 3 and p.stdout == ""
    assert ("claim default/c: the requests' counts add up past int64 "
            "(-9223372036854775807): kube-scheduler v1.34.1 panics") in p.stderr


@pytest.mark.parametrize("engine", ENGINES)
def test_created_pods_get_their_template_claims(engine):
    # fixtures/dra/deployment-claim-template.yaml's header: the three pods
    # the Deployment's controllers create each get a claim from gpu-t, as
    # the resourceclaim controller makes it; two bind, one finds no device
    import yaml
    path = fixture_path("dra/deployment-claim-template.yaml")
    p = schedule(path, engine)
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    got = [(s["action"], s["node"], s["message"]) for s in d["steps"]]
    assert got == [
        ("bind", "n1", ""), ("bind", "n1", ""),
        ("unschedulable", None, "0/1 nodes are available: 1 " + NO_ALLOC +
         ". still not schedulable, " + NOT_HELPFUL % (1, 1))]
    p = run_kso("schedule", path, "--engine", engine, "--kube-version", "1.34",
                "-o", "yaml")
    assert p.returncode == 0, p.stderr
    docs = [x for x in yaml.safe_load_all(p.stdout) if x]
    pods = {x["metadata"]["name"]: x for x in docs if x["kind"] == "Pod"}
    claims = {x["metadata"]["name"]: x for x in docs
              if x["kind"] == "ResourceClaim"}
    assert len(pods) == 3 and len(claims) == 3
    devices = []
    for name, pod in pods.items():
        (st,) = pod["status"]["resourceClaimStatuses"]
        assert st["name"] == "gpu"
        claim = claims[st["resourceClaimName"]]
        # generateName "<pod>-gpu-" and five letters
        assert st["resourceClaimName"].startswith(name + "-gpu-")
        assert len(st["resourceClaimName"]) == len(name) + 5 + 5
        (owner,) = claim["metadata"]["ownerReferences"]
        assert (owner["kind"], owner["name"], owner["controller"]) == (
            "Pod", name, True)
        assert owner["uid"] == pod["metadata"]["uid"]
        assert claim["spec"]["devices"]["requests"][0]["exactly"][
            "deviceClassName"] == "gpu"
        alloc = claim.get("status", {}).get("allocation")
        devices += [r["device"] for r in alloc["devices"]["results"]] \
            if alloc else []
    assert sorted(devices) == ["d0", "d1"]


def test_a_long_claim_base_is_cut_in_proportion(tmp_path):
    # a StatefulSet's pod "a" * 40 + "-0" (42 bytes) with claim entry
    # accelerator-claim (17): "<pod>-<claim>-" is 61 bytes, past 57, so
    # handleClaim keeps 42 * 57 / 61 = 39 bytes of the pod's name and
    # 17 * 57 / 61 = 15 of the claim's, joined by "-" with no trailing one
    import yaml
    text = (FIXTURES / "dra" / "deployment-claim-template.yaml").read_text()
    text = text[:text.index("apiVersion: apps/v1")] + """apiVersion: apps/v1
kind: StatefulSet
metadata: {name: %s, namespace: default}
spec:
  replicas: 1
  serviceName: s
  selector: {matchLabels: {app: st}}
  template:
    metadata: {labels: {app: st}}
    spec:
      containers:
      - {name: c, image: x, resources: {claims: [{name: accelerator-claim}]}}
      resourceClaims:
      - {name: accelerator-claim, resourceClaimTemplateName: gpu-t}
""" % ("a" * 40)
    path = tmp_path / "sts.yaml"
    path.write_text(text)
    p = run_kso("schedule", path, "--kube-version", "1.34", "-o", "yaml")
    assert p.returncode == 0, p.stderr
    (pod,) = [x for x in yaml.safe_load_all(p.stdout)
              if x and x["kind"] == "Pod"]
    assert pod["spec"]["nodeName"] == "n1"
    (st,) = pod["status"]["resourceClaimStatuses"]
    name = st["resourceClaimName"]
    assert name[:-5] == "a" * 39 + "-accelerator-cla" and len(name) == 60


@pytest.mark.parametrize("engine", ENGINES)
def test_a_long_error_is_kept_whole(engine):
    # fixtures/dra/long-error.yaml's header: cel-go's "no such key: " and
    # the 600-letter key, wrapped by the allocator and by RunFilterPlugins,
    # kube cutting none of it: 708 bytes, past a status's 512
    why = ('running "DynamicResources" filter plugin: claim default/p-gpu: '
           "selector #0: CEL runtime error: no such key: " + "k" * 600)
    assert len(why) == 708
    d = explain("long-error.yaml", "default/p", engine)
    assert verdicts(d) == {"n1": ("Error", DRA, [why])}
    assert d["code"] == "Error" and d["message"] == why


@pytest.mark.parametrize("engine", ENGINES)
def test_every_pool_order_meets_the_same_error(engine):
    # fixtures/dra/pool-order.yaml's header: pools n1 and shared in either
    # order, the same CEL runtime error at gpu-0
    d = explain("pool-order.yaml", "default/p", engine)
    why = ('running "DynamicResources" filter plugin: claim default/p-gpu: '
           "selector #0: CEL runtime error: no such key: cores")
    assert verdicts(d) == {"n1": ("Error", DRA, [why])}
    assert d["code"] == "Error" and d["message"] == why


def test_pool_orders_that_differ_are_refused(tmp_path):
    # pool-order.yaml with a class without selectors and the request
    # reading net.example.com's speed: with shared first nic-0 (speed 10)
    # fits; with n1 first gpu-0, which has no such attribute, is a CEL
    # runtime error.  Kube answers either, so kso neither.
    text = (FIXTURES / "dra" / "pool-order.yaml").read_text()
    text = text.replace(
        "spec:\n  selectors:\n  - cel: {expression: \"device.driver == "
        "'gpu.example.com'\"}\n", "spec: {}\n")
    text = text.replace("device.attributes['gpu.example.com'].cores > 2",
                        "device.attributes['net.example.com'].speed == 10")
    text = text.replace("  - name: nic-0\n",
                        "  - name: nic-0\n    attributes: {speed: {int: 10}}\n")
    path = tmp_path / "p.yaml"
    path.write_text(text)
    p = run_kso("explain", path, "--kube-version", "1.34")
    assert p.returncode == 3 and p.stdout == ""
    line = text[:text.index("kind: Pod")].count("\n")
    assert p.stderr == (
        "%s:%d:1: pod default/p is pending with resource claims: kso cannot "
        "judge kube v1.34's DynamicResources for it exactly: on node n1 kube's "
        "answer depends on the order of its pools (a Go map) and slices: error "
        "\"claim default/p-gpu: selector #0: CEL runtime error: no such key: "
        "speed\" in one order, a fit in another (spec.resourceClaims)\n"
        % (path, line))


@pytest.mark.parametrize("engine", ENGINES)
def test_the_final_cluster_holds_prebinds_writes(engine, tmp_path):
    # fixtures/dra/loop-claims.yaml's header: shared holds gpu-0 of pool n1
    # (node selector metadata.name In [n1]) for s1 and s2, t-gpu gpu-0 of
    # pool n2 for t; x-gpu stays unallocated.  Read back, the final cluster
    # leaves x where the run left it.
    import yaml
    p = run_kso("schedule", fixture_path("dra/loop-claims.yaml"), "--engine",
                engine, "--kube-version", "1.34", "-o", "yaml")
    assert p.returncode == 0, p.stderr
    claims = {d["metadata"]["name"]: d.get("status")
              for d in yaml.safe_load_all(p.stdout)
              if d and d["kind"] == "ResourceClaim"}

    def on(pool, node, *pods):
        return {"allocation": {
            "devices": {"results": [{"request": "gpu", "driver":
                                     "gpu.example.com", "pool": pool,
                                     "device": "gpu-0"}]},
            "nodeSelector": {"nodeSelectorTerms": [{"matchFields": [
                {"key": "metadata.name", "operator": "In", "values": [node]}]}]}},
            "reservedFor": [{"resource": "pods", "name": q, "uid": "uid-" + q}
                            for q in pods]}
    assert claims == {"shared": on("n1", "n1", "s1", "s2"),
                      "t-gpu": on("n2", "n2", "t"), "x-gpu": None}
    final = tmp_path / "final.yaml"
    final.write_text(p.stdout)
    p = schedule(final, engine)
    assert p.returncode == 0, p.stderr
    assert steps(json.loads(p.stdout)) == [
        ("default/x", "unschedulable", None, [],
         "0/2 nodes are available: 2 " + NO_ALLOC + ". still not schedulable, " +
         NOT_HELPFUL % (2, 2))]


@pytest.mark.parametrize("engine", ENGINES)
def test_preenqueue_keeps_a_pod_without_its_claim_out(engine, tmp_path):
    # t names a template, and its status names no claim made from it: the
    # resourceclaim controller has not made it.  DynamicResources'
    # PreEnqueue (foreachPodResourceClaim) answers "ResourceClaim not
    # created yet": t never enters the queue, never has a cycle; q binds.
    # Under 1.30 the claims are dropped and t binds like any pod.
    path = tmp_path / "p.yaml"
    path.write_text(CLASS + slice_("n1") + """apiVersion: v1
kind: Pod
metadata: {name: t, namespace: default, uid: uid-t}
spec:
  containers: [{name: c, image: x}]
  resourceClaims: [{name: gpu, resourceClaimTemplateName: one-gpu}]
---
""" + pod("q").replace("  resourceClaims: []\n", ""))
    p = schedule(path, engine)
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert steps(d) == [("default/q", "bind", "n1", [], "")]
    assert d["summary"]["pending_pods"] == [
        {"pod": "default/t", "reason": "not attempted: DynamicResources' "
         "PreEnqueue: pod \"default/t\": ResourceClaim not created yet"}]
    p = run_kso("schedule", path, "--engine", engine, "-o", "json")
    assert p.returncode == 0, p.stderr
    assert [s[:3] for s in steps(json.loads(p.stdout))] == [
        ("default/t", "bind", "n1"), ("default/q", "bind", "n1")]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_claim_reserved_for_256_pods_stops_the_loop(engine, tmp_path):
    # 257 pods share the claim shared (no requests, n1 holds them all): the
    # first binds and allocates gpu-0, each next one finds shared allocated
    # on n1 and binds, PreBind adding it to reservedFor - up to 256, the
    # API server's limit (ResourceClaimReservedForMaxSize).  The 257th's
    # PreBind would fail and its binding with it: kso stops before it.
    many = "".join(pod("p%03d" % i, "shared") for i in range(257))
    path = tmp_path / "p.yaml"
    path.write_text(CLASS.replace('cpu: "4", pods: "10"',
                                  'cpu: "4", pods: "500"') +
                    slice_("n1") + claim("shared") + many)
    p = schedule(path, engine)
    assert p.returncode == 3
    d = json.loads(p.stdout)
    assert [s[:3] for s in steps(d)] == [("default/p%03d" % i, "bind", "n1")
                                         for i in range(256)]
    assert p.stderr == (
        "kso schedule: stopped: pod default/p256: its claim default/shared is "
        "reserved for 256 pods already, the API server's limit: kube's PreBind "
        "would fail to add it and the binding with it, which kso's loop does "
        "not model\n")


@pytest.mark.parametrize("engine", ENGINES)
def test_prebind_writes_subrequests_and_slice_selectors(engine):
    # fixtures/dra/loop-prioritized.yaml's header
    import yaml
    p = run_kso("schedule", fixture_path("dra/loop-prioritized.yaml"),
                "--engine", engine, "--kube-version", "1.34", "-o", "yaml")
    assert p.returncode == 0, p.stderr
    docs = [d for d in yaml.safe_load_all(p.stdout) if d]
    assert [d["spec"].get("nodeName") for d in docs if d["kind"] == "Pod"] \
        == ["n1"]
    (status,) = [d["status"] for d in docs if d["kind"] == "ResourceClaim"]
    assert status == {
        "allocation": {
            "devices": {"results": [
                {"request": "gpu/small", "driver": "small.example.com",
                 "pool": "zonal", "device": "s-0"},
                {"request": "nic", "driver": "net.example.com",
                 "pool": "nics", "device": "nic-0"}]},
            "nodeSelector": {"nodeSelectorTerms": [{"matchExpressions": [
                {"key": "zone", "operator": "In", "values": ["a"]}]}]}},
        "reservedFor": [{"resource": "pods", "name": "p", "uid": "uid-p"}]}
    d = explain("loop-prioritized.yaml", "default/p", engine)
    assert verdicts(d) == {"n1": OK, "n2": dra_fail(NO_ALLOC)}


# Allocate's errors, each worked out from kube v1.34.1's
# structured/internal/experimental/allocator_experimental.go: Allocate
# returns the error, Filter returns it as an Error status
# (statusError), and RunFilterPlugins wraps it 'running "DynamicResources"
# filter plugin: ...'; the cycle ends in that Error.
ERRORS_CLAIM = """apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c, namespace: default}
spec:
  devices:
    requests:
    - name: gpu
      exactly: {deviceClassName: gpu.example.com%s}
%s---
"""

TWO_SLICES_ONE_POOL = """apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s%d}
spec:
  driver: gpu.example.com
  nodeName: n1
  pool: {name: p, generation: 1, resourceSliceCount: 2}
  devices:
  - name: gpu-0
---
"""

MODELS = """apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s1}
spec:
  driver: gpu.example.com
  nodeName: n1
  pool: {name: n1, generation: 1, resourceSliceCount: 1}
  devices:
  - {name: gpu-0, attributes: {model: {string: a}}}
  - {name: gpu-1, attributes: {model: {string: b}}}
---
"""


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("case", ["invalid-pool", "all-constraint", "limit",
                                  "limit-past-int32"])
def test_allocator_errors(engine, case, tmp_path):
    if case == "invalid-pool":
        # GatherPools: both slices of pool p hold gpu-0, poolIsInvalid
        # "duplicate device name gpu-0"; allocateOne meets the pool and
        # returns "pool %s is invalid: %s" with the pool's name (either
        # slice order names gpu-0)
        objs = (TWO_SLICES_ONE_POOL % 1 + TWO_SLICES_ONE_POOL % 2 +
                ERRORS_CLAIM % ("", ""))
        want = "pool p is invalid: duplicate device name gpu-0"
    elif case == "all-constraint":
        # All lists gpu-0 and gpu-1; allocateDevice with must: gpu-0 sets
        # the model (a), gpu-1's b fails the constraint: "claim %s, request
        # %s: cannot add device %s because ..." (DeviceID driver/pool/device)
        objs = MODELS + ERRORS_CLAIM % (
            ", allocationMode: All",
            "    constraints:\n    - matchAttribute: gpu.example.com/model\n")
        want = ("claim default/c, request gpu: cannot add device "
                "gpu.example.com/n1/gpu-1 because a claim constraint would "
                "not be satisfied")
    elif case == "limit":
        # 33 devices for one claim: past AllocationResultsMaxSize (32)
        objs = MODELS + ERRORS_CLAIM % (", count: 33", "")
        want = ("claim default/c: number of requested devices 33 exceeds the "
                "claim limit of 32")
    else:
        # count 2^32 + 1 is a Go int of that value, past the limit (kso
        # took it as an int, 1, and allocated gpu-0)
        objs = MODELS + ERRORS_CLAIM % (", count: 4294967297", "")
        want = ("claim default/c: number of requested devices 4294967297 "
                "exceeds the claim limit of 32")
    path = tmp_path / "e.yaml"
    path.write_text(CLASS + objs + pod("p", "c"))
    p = run_kso("explain", path, "--pod", "default/p", "--engine", engine,
                "--kube-version", "1.34", "-o", "json")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert d["code"] == "Error"
    assert d["message"] == 'running "DynamicResources" filter plugin: ' + want


@pytest.mark.parametrize("engine", ENGINES)
def test_a_pod_without_uid_keeps_its_reservation_when_read_back(engine, tmp_path):
    # loop-claims.yaml with s1 and s2 stripped of metadata.uid.  A claim's
    # reservedFor names pods by uid (kube's ResourceClaimConsumerReference),
    # and PreBind reserved shared for s1 and s2: the final cluster must
    # give those two pods the uids its reservedFor writes, or read back
    # the claim is reserved for consumers that are no pod of the cluster
    # (and s1's, s2's eviction would not release it).
    import yaml
    text = fixture_path("dra/loop-claims.yaml").read_text()
    stripped = text.replace(", uid: uid-s1}", "}").replace(", uid: uid-s2}", "}")
    assert stripped.count("uid-s") == 0
    path = tmp_path / "nouid.yaml"
    path.write_text(stripped)
    p = run_kso("schedule", str(path), "--engine", engine,
                "--kube-version", "1.34", "-o", "yaml")
    assert p.returncode == 0, p.stderr
    docs = [d for d in yaml.safe_load_all(p.stdout) if d]
    uid = {d["metadata"]["name"]: d["metadata"].get("uid")
           for d in docs if d["kind"] == "Pod"}
    shared = next(d for d in docs if d["kind"] == "ResourceClaim"
                  and d["metadata"]["name"] == "shared")
    entries = shared["status"]["reservedFor"]
    assert [e["name"] for e in entries] == ["s1", "s2"]
    for e in entries:
        assert e["uid"] and e["uid"] == uid[e["name"]]
    # pods with a uid of their own keep it
    assert uid["x"] == "uid-x" and uid["t"] == "uid-t"


# kso explain's reading of "cannot allocate all claims" (kube prints only
# the reason; issue 35: which request failed on the node, and why), worked
# out from each fixture's header: which devices the node has, which match
# the request's class and selectors, which are in use.
ALLOCATOR_WHY = {
    # class a100 selects model "a100"; n1's only device is a "t4"
    ("class-selector.yaml", "p", "n1"):
        "claim default/p-gpu, request gpu: no device of the node matches "
        "the class and selectors",
    # n1's gpu-0 is held by claim held (pod a); n2 has no device
    ("waiting.yaml", "b", "n1"):
        "claim default/b-gpu, request gpu: 1 of the 1 matching device(s) "
        "are in use, 0 free, 1 needed",
    ("waiting.yaml", "b", "n2"):
        "claim default/b-gpu, request gpu: no device of the node matches "
        "the class and selectors",
    # n1 has one "t4": large wants an h100, small two devices
    ("first-available.yaml", "p", "n1"):
        "claim default/p-gpu, request gpu: no alternative of its "
        "firstAvailable list fits (large: no device of the node matches the "
        "class and selectors; small: 1 device(s) of the node match the class "
        "and selectors, 2 needed)",
    # w-gpu asks for two devices at once; every node has one
    ("loop-dealloc-wakes.yaml", "w", "n1"):
        "claim default/w-gpu, request gpu: 1 device(s) of the node match the "
        "class and selectors, 2 needed",
}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("case", sorted(ALLOCATOR_WHY), ids=lambda c: ":".join(c))
def test_explain_says_which_request_found_no_devices(engine, case):
    fixture, pod, node = case
    d = explain(fixture, pod, engine)
    v = d["nodes"][node]
    assert v["reasons"] == [NO_ALLOC]
    assert v["allocator"] == ALLOCATOR_WHY[case]
    # the table prints the same line under the filters
    p = run_kso("explain", fixture_path("dra/" + fixture), "--pod", pod,
                "--engine", engine, "--kube-version", "1.34")
    assert p.returncode == 0, p.stderr
    assert f"  {node}: {ALLOCATOR_WHY[case]}\n" in p.stdout


def test_explain_adds_no_allocator_line_where_a_node_fits():
    # first-available.yaml: n2 and n3 fit; class-selector.yaml: n2 fits
    d = explain("first-available.yaml", "p", "oracle")
    assert "allocator" not in d["nodes"]["n2"]
    assert "allocator" not in d["nodes"]["n3"]
    d = explain("class-selector.yaml", "p", "model")
    assert "allocator" not in d["nodes"]["n2"]
