"""
realcluster.py - Kubernetes objects shaped as a v1.34 API server returns
them (`kubectl get -o json`), for the tests that feed `kso check` and
`kso validate` what a real cluster emits rather than the few fields a
fixture needs: metadata.uid, creationTimestamp, resourceVersion,
managedFields (FieldsV1 keys such as `k:{"type":"Ready"}`), ownerReferences,
node addresses, nodeInfo, images, heartbeat conditions; pods with status
conditions, container statuses, qosClass, hostIP/podIP, projected
service-account volumes, the tolerations admission adds.

Shapes follow k8s.io/api core/v1 types (v1.34.1, vendored in
kubernetes-sigs/cluster-capacity) and what kubelet, kubeadm's static pods,
the DaemonSet, ReplicaSet and Job controllers write.  Nothing here is a
verdict: each test works out its own answer by hand from the fields it
sets (cpu, memory, taints, priority).
"""
import copy
import hashlib

T0 = "2025-10-01T09:00:00Z"


def uid(*parts):
    h = hashlib.sha1("/".join(parts).encode()).hexdigest()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"


def managed(manager, time, fields, operation="Update", subresource=None):
    m = {"apiVersion": "v1", "fieldsType": "FieldsV1", "fieldsV1": fields,
         "manager": manager, "operation": operation, "time": time}
    if subresource:
        m["subresource"] = subresource
    return m


def node_conditions(ready="True", time=T0, heartbeat=T0):
    def cond(t, status, reason, message):
        return {"lastHeartbeatTime": heartbeat, "lastTransitionTime": time,
                "message": message, "reason": reason, "status": status,
                "type": t}
    if ready == "Unknown":
        msg = "Kubelet stopped posting node status."
        return [cond(t, "Unknown", "NodeStatusUnknown", msg)
                for t in ("MemoryPressure", "DiskPressure", "PIDPressure",
                          "Ready")]
    return [
        cond("MemoryPressure", "False", "KubeletHasSufficientMemory",
             "kubelet has sufficient memory available"),
        cond("DiskPressure", "False", "KubeletHasNoDiskPressure",
             "kubelet has no disk pressure"),
        cond("PIDPressure", "False", "KubeletHasSufficientPID",
             "kubelet has sufficient PID available"),
        cond("Ready", ready, "KubeletReady" if ready == "True"
             else "KubeletNotReady",
             "kubelet is posting ready status" if ready == "True" else
             "container runtime network not ready: NetworkReady=false "
             "reason:NetworkPluginNotReady message:Network plugin returns "
             "error: cni plugin not initialized"),
    ]


def node(name, cpu="8", memory="32817236Ki", rv="500", taints=None,
         labels=None, ready="True", unschedulable=False, pods="110"):
    lab = {"beta.kubernetes.io/arch": "amd64", "beta.kubernetes.io/os": "linux",
           "kubernetes.io/arch": "amd64", "kubernetes.io/hostname": name,
           "kubernetes.io/os": "linux"}
    lab.update(labels or {})
    cap = {"cpu": cpu, "ephemeral-storage": "102626232Ki",
           "hugepages-1Gi": "0", "hugepages-2Mi": "0", "memory": memory,
           "pods": pods}
    spec = {"podCIDR": "10.244.1.0/24", "podCIDRs": ["10.244.1.0/24"],
            "providerID": f"kind://docker/kind/{name}"}
    if taints:
        spec["taints"] = taints
    if unschedulable:
        spec["unschedulable"] = True
    return {
        "apiVersion": "v1", "kind": "Node",
        "metadata": {
            "annotations": {
                "kubeadm.alpha.kubernetes.io/cri-socket":
                    "unix:///run/containerd/containerd.sock",
                "node.alpha.kubernetes.io/ttl": "0",
                "volumes.kubernetes.io/controller-managed-attach-detach": "true"},
            "creationTimestamp": T0, "labels": lab,
            "managedFields": [
                managed("kubelet", T0, {"f:metadata": {"f:annotations": {
                    ".": {}, "f:volumes.kubernetes.io/controller-managed-"
                    "attach-detach": {}}, "f:labels": {
                    ".": {}, "f:kubernetes.io/hostname": {}}},
                    "f:spec": {"f:providerID": {}}}),
                managed("kube-controller-manager", T0, {"f:spec": {
                    "f:podCIDR": {}, "f:podCIDRs": {".": {},
                                                    'v:"10.244.1.0/24"': {}}}}),
                managed("kubelet", T0, {"f:status": {"f:conditions": {
                    'k:{"type":"Ready"}': {"f:lastHeartbeatTime": {},
                                           "f:message": {}, "f:reason": {},
                                           "f:status": {}}},
                    "f:images": {}}}, subresource="status"),
            ],
            "name": name, "resourceVersion": rv, "uid": uid("node", name)},
        "spec": spec,
        "status": {
            "addresses": [{"address": "172.18.0.3", "type": "InternalIP"},
                          {"address": name, "type": "Hostname"}],
            "allocatable": dict(cap), "capacity": dict(cap),
            "conditions": node_conditions(ready),
            "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
            "features": {"supplementalGroupsPolicy": True},
            "images": [
                {"names": ["registry.k8s.io/etcd:3.6.4-0"],
                 "sizeBytes": 57680541},
                {"names": ["docker.io/library/nginx@sha256:"
                           "33e0bbc7ca9ecf108140af6288c7c9d1ecc77548cbfd3952"
                           "fd8466a75edefe57", "docker.io/library/nginx:1.29"],
                 "sizeBytes": 72225394}],
            "nodeInfo": {"architecture": "amd64", "bootID": uid("boot", name),
                         "containerRuntimeVersion": "containerd://2.1.3",
                         "kernelVersion": "6.8.0-79-generic",
                         "kubeProxyVersion": "", "kubeletVersion": "v1.34.1",
                         "machineID": "0" * 32, "operatingSystem": "linux",
                         "osImage": "Debian GNU/Linux 12 (bookworm)",
                         "systemUUID": uid("sys", name)},
            "runtimeHandlers": [{"features": {"recursiveReadOnlyMounts": True,
                                              "userNamespaces": True},
                                 "name": "runc"}]}}


def not_ready_taints(kind="unreachable", time="2025-10-01T10:00:00Z"):
    """What the node lifecycle controller adds to a node whose Ready is
    Unknown (unreachable) or False (not-ready)."""
    key = f"node.kubernetes.io/{kind}"
    return [{"effect": "NoSchedule", "key": key},
            {"effect": "NoExecute", "key": key, "timeAdded": time}]


def default_tolerations():
    """DefaultTolerationSeconds admission's two tolerations."""
    return [{"effect": "NoExecute", "key": "node.kubernetes.io/not-ready",
             "operator": "Exists", "tolerationSeconds": 300},
            {"effect": "NoExecute", "key": "node.kubernetes.io/unreachable",
             "operator": "Exists", "tolerationSeconds": 300}]


def container(name, cpu=None, memory=None, limits=None, image="nginx:1.29",
              ports=None, restart_policy=None):
    res = {}
    req = {}
    if cpu:
        req["cpu"] = cpu
    if memory:
        req["memory"] = memory
    if req:
        res["requests"] = req
    if limits:
        res["limits"] = limits
    c = {"image": image, "imagePullPolicy": "IfNotPresent", "name": name,
         "resources": res, "terminationMessagePath": "/dev/termination-log",
         "terminationMessagePolicy": "File",
         "volumeMounts": [{"mountPath":
                           "/var/run/secrets/kubernetes.io/serviceaccount",
                           "name": "kube-api-access-x7k2p", "readOnly": True}]}
    if ports:
        c["ports"] = ports
    if restart_policy:
        c["restartPolicy"] = restart_policy
    return c


def api_access_volume():
    return {"name": "kube-api-access-x7k2p", "projected": {
        "defaultMode": 420, "sources": [
            {"serviceAccountToken": {"expirationSeconds": 3607,
                                     "path": "token"}},
            {"configMap": {"items": [{"key": "ca.crt", "path": "ca.crt"}],
                           "name": "kube-root-ca.crt"}},
            {"downwardAPI": {"items": [{"fieldRef": {
                "apiVersion": "v1", "fieldPath": "metadata.namespace"},
                "path": "namespace"}]}}]}}


def pod_conditions(state, time=T0, message=None):
    """status.conditions as kubelet and the scheduler write them:
    state pending-unschedulable, gated, scheduled (bound, not started),
    running, succeeded."""
    def c(t, s, reason=None, msg=None):
        d = {"lastProbeTime": None, "lastTransitionTime": time, "status": s,
             "type": t}
        if reason:
            d["reason"] = reason
        if msg:
            d["message"] = msg
        return d
    if state == "unschedulable":
        return [c("PodScheduled", "False", "Unschedulable", message)]
    if state == "gated":
        return [c("PodScheduled", "False", "SchedulingGated",
                  "Scheduling is blocked due to non-empty scheduling gates")]
    if state == "scheduled":
        return [c("PodScheduled", "True")]
    if state == "succeeded":
        return [c("PodReadyToStartContainers", "False"),
                c("Initialized", "True", "PodCompleted"),
                c("Ready", "False", "PodCompleted"),
                c("ContainersReady", "False", "PodCompleted"),
                c("PodScheduled", "True")]
    return [c("PodReadyToStartContainers", "True"), c("Initialized", "True"),
            c("Ready", "True"), c("ContainersReady", "True"),
            c("PodScheduled", "True")]


def container_status(c, state="running", time=T0):
    st = {"running": {"startedAt": time}} if state == "running" else \
        {"terminated": {"containerID": "containerd://" + "b" * 64,
                        "exitCode": 0, "finishedAt": time,
                        "reason": "Completed", "startedAt": time}}
    s = {"containerID": "containerd://" + "a" * 64, "image": c["image"],
         "imageID": "docker.io/library/nginx@sha256:" + "c" * 64,
         "lastState": {}, "name": c["name"], "ready": state == "running",
         "restartCount": 0, "started": state == "running", "state": st,
         "volumeMounts": [{"mountPath":
                           "/var/run/secrets/kubernetes.io/serviceaccount",
                           "name": "kube-api-access-x7k2p", "readOnly": True,
                           "recursiveReadOnly": "Disabled"}]}
    if c.get("resources"):
        s["resources"] = copy.deepcopy(c["resources"])
        if c["resources"].get("requests"):
            s["allocatedResources"] = copy.deepcopy(c["resources"]["requests"])
    return s


def pod(name, containers, ns="default", node_name=None, phase=None, rv="600",
        owner=None, labels=None, priority=0, priority_class=None,
        tolerations=None, start=T0, init_containers=None, **spec_extra):
    """A pod as stored: admitted (priority, default tolerations), bound
    or not; phase Running when bound, Pending otherwise unless given."""
    phase = phase or ("Running" if node_name else "Pending")
    meta = {"creationTimestamp": T0, "labels": labels or {"app": name},
            "managedFields": [managed("kube-controller-manager", T0, {
                "f:metadata": {"f:generateName": {}, "f:labels": {".": {}}},
                "f:spec": {"f:containers": {'k:{"name":"%s"}' %
                                            containers[0]["name"]: {
                                                ".": {}, "f:image": {}}}}})],
            "name": name, "namespace": ns, "resourceVersion": rv,
            "uid": uid("pod", ns, name)}
    if owner:
        kind, oname = owner
        meta["ownerReferences"] = [{
            "apiVersion": "v1" if kind == "Node" else
            "batch/v1" if kind == "Job" else "apps/v1",
            "blockOwnerDeletion": True, "controller": True, "kind": kind,
            "name": oname, "uid": uid(kind, ns, oname)}]
        if kind != "Node":
            meta["generateName"] = oname + "-"
    spec = {"containers": containers, "dnsPolicy": "ClusterFirst",
            "enableServiceLinks": True, "preemptionPolicy":
            "PreemptLowerPriority", "priority": priority,
            "restartPolicy": "Always", "schedulerName": "default-scheduler",
            "securityContext": {}, "serviceAccount": "default",
            "serviceAccountName": "default",
            "terminationGracePeriodSeconds": 30,
            "tolerations": tolerations if tolerations is not None
            else default_tolerations(),
            "volumes": [api_access_volume()]}
    if priority_class:
        spec["priorityClassName"] = priority_class
    if init_containers:
        spec["initContainers"] = init_containers
    if node_name:
        spec["nodeName"] = node_name
    spec.update(spec_extra)
    status = {"phase": phase, "qosClass": "Burstable"}
    if node_name:
        state = {"Succeeded": "succeeded", "Failed": "succeeded"}.get(
            phase, "running")
        status["conditions"] = pod_conditions(state)
        status["containerStatuses"] = [
            container_status(c, "running" if state == "running"
                             else "terminated") for c in containers]
        status["hostIP"] = "172.18.0.3"
        status["hostIPs"] = [{"ip": "172.18.0.3"}]
        status["podIP"] = "10.244.1.7"
        status["podIPs"] = [{"ip": "10.244.1.7"}]
        status["startTime"] = start
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec,
            "status": status}


def pod_list(items):
    """`kubectl get -o json`'s List."""
    return {"apiVersion": "v1", "items": items, "kind": "List",
            "metadata": {"resourceVersion": ""}}


# ------------------------------------------------------------ watch logs

class Watch:
    """`kubectl get ... -w --output-watch-events -o json`: one
    pretty-printed event after another, each object a copy with the next
    resourceVersion."""

    def __init__(self, rv=1000):
        self.events = []
        self.rv = rv

    def add(self, kind, obj):
        self.rv += 1
        obj = copy.deepcopy(obj)
        obj["metadata"]["resourceVersion"] = str(self.rv)
        self.events.append({"type": kind, "object": copy.deepcopy(obj)})
        return obj

    def text(self):
        """As Go's encoding/json writes it: text beyond ASCII as UTF-8,
        not as \\u escapes."""
        import json
        return "".join(json.dumps(e, indent=4, ensure_ascii=False) + "\n"
                       for e in self.events)


def bound(p, node_name, time="2025-10-01T10:20:00Z"):
    """The binding as a watch shows it: spec.nodeName and the PodScheduled
    condition the API server's binding sets, in one MODIFIED."""
    p = copy.deepcopy(p)
    p["spec"]["nodeName"] = node_name
    p["status"]["conditions"] = [{"lastProbeTime": None,
                                  "lastTransitionTime": time,
                                  "status": "True", "type": "PodScheduled"}]
    return p


def unschedulable(p, message, nominated=None, time="2025-10-01T10:20:00Z"):
    """The scheduler's status patch after a failed cycle."""
    p = copy.deepcopy(p)
    p["status"]["conditions"] = [{"lastProbeTime": None,
                                  "lastTransitionTime": time,
                                  "message": message, "reason": "Unschedulable",
                                  "status": "False", "type": "PodScheduled"}]
    if nominated:
        p["status"]["nominatedNodeName"] = nominated
    return p


def disruption_target(p, time="2025-10-01T10:30:00Z"):
    """DefaultPreemption's status patch of a victim (PreemptPod)."""
    p = copy.deepcopy(p)
    p["status"].setdefault("conditions", []).append({
        "lastProbeTime": None, "lastTransitionTime": time,
        "message": "default-scheduler: preempting to accommodate a higher "
                   "priority pod",
        "reason": "PreemptionByScheduler", "status": "True",
        "type": "DisruptionTarget"})
    return p


def terminating(p, time="2025-10-01T10:30:30Z", grace=30):
    """A graceful deletion's answer: the pod with its deletion set."""
    p = copy.deepcopy(p)
    p["metadata"]["deletionTimestamp"] = time
    p["metadata"]["deletionGracePeriodSeconds"] = grace
    return p
