/*
 * test_enum_scenario.c - building a scenario without re-reading its
 * printed text: yaml_emit_exact (the printed text of a tree parses
 * back into the same tree) on random trees, every scenario of a small
 * universe decoded from its trees (yaml_load_trees) against the same
 * scenario decoded from its printed text (yaml_load_buffer, as before),
 * where messages about an invalid vary value point, and the universe's
 * config read once and shared.
 */
#include "check.h"

#include <stdlib.h>
#include <unistd.h>

#include "../../enum/enum.h"
#include "../../yaml/load.h"

/* ------------------------------------------------- random trees */

static uint64_t rng_state = 88172645463325252u;

static unsigned rnd(unsigned n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (unsigned)(rng_state % n);
}

/* Characters the printer and the parser treat specially, and plain ones;
 * "\xc3\xa9" is one two-byte character (é). */
static const char *const pieces[] = {
	"a", "b", "z", "1", "0", "-", ".", " ", ",", ":", "#", "[", "]", "{",
	"}", "\"", "'", "\\", "\n", "\t", "~", "<<", "?", "!", "&", "*", "|",
	">", "%", "@", "`", "\x7f", "\x01", "\xc3\xa9", ": ", " #", "null",
};

static const char *const letters[] = {"a", "b", "1", "x."};

static struct ynode *rand_scalar(struct arena *a, bool key, int salt)
{
	char s[64] = "";
	/* mostly plain letters, so that many trees read back */
	int n = (int)rnd(5);
	for (int i = 0; i < n; i++)
		strcat(s, rnd(3) ? letters[rnd(4)] :
		       pieces[rnd(sizeof pieces / sizeof *pieces)]);
	if (key)   /* keys of one map must differ: the parser refuses twins */
		snprintf(s + strlen(s), sizeof s - strlen(s), "k%d", salt);
	return ynode_scalar(a, s, rnd(3) == 0);
}

static struct ynode *rand_tree(struct arena *a, int depth, bool root)
{
	unsigned k = root ? 2 : depth > 3 ? 0 : rnd(3);
	if (k == 0)
		return rand_scalar(a, false, 0);
	struct ynode *n = arena_alloc(a, sizeof *n);
	n->kind = k == 1 ? YNODE_SEQ : YNODE_MAP;
	n->n = (int)rnd(4) + (root ? 1 : 0);
	n->items = arena_array(a, (size_t)n->n + 1, sizeof *n->items);
	n->keys = arena_array(a, (size_t)n->n + 1, sizeof *n->keys);
	for (int i = 0; i < n->n; i++) {
		n->items[i] = rand_tree(a, depth + 1, false);
		if (n->kind == YNODE_MAP)
			n->keys[i] = rand_scalar(a, true, i);
	}
	return n;
}

/* Equal kinds, keys in the same order, scalars of equal bytes and quoting. */
static bool same_tree(const struct ynode *x, const struct ynode *y)
{
	if (x->kind != y->kind || x->n != y->n)
		return false;
	if (x->kind == YNODE_SCALAR)
		return x->quoted == y->quoted && x->len == y->len &&
		       !memcmp(x->str, y->str, x->len);
	for (int i = 0; i < x->n; i++)
		if ((x->kind == YNODE_MAP && !same_tree(x->keys[i], y->keys[i])) ||
		    !same_tree(x->items[i], y->items[i]))
			return false;
	return true;
}

/* Whatever yaml_emit_exact calls exact, the parser gives back as it
 * was; the text is the one yaml_emit prints. */
static void random_trees_read_back(void)
{
	int accepted = 0, refused = 0, wrong = 0;
	for (int t = 0; t < 3000; t++) {
		struct arena a;
		arena_init(&a);
		struct ynode *tree = rand_tree(&a, 0, true);
		uint64_t nodes = 0;
		struct strbuf b, plain;
		strbuf_init(&b);
		strbuf_init(&plain);
		strbuf_puts(&b, "---\n");
		bool ok = yaml_emit_exact(&b, tree, &nodes);
		/* the check alone answers as the printer does */
		uint64_t nodes_only = 0;
		CHECK_EQ(yaml_emit_exact(NULL, tree, &nodes_only), ok);
		CHECK_EQ(nodes_only, nodes);
		strbuf_puts(&plain, "---\n");
		yaml_emit(&plain, tree);
		CHECK_STR(b.s, plain.s);
		strbuf_release(&plain);
		struct ydoc_set set;
		struct error err;
		error_init(&err);
		int rc = yaml_parse_buffer("t", (const unsigned char *)b.s, b.n,
					   &a, &set, &err);
		if (ok) {
			accepted++;
			if (rc || set.n_docs != 1 || !same_tree(tree, set.docs[0])) {
				wrong++;
				if (wrong <= 3)
					fprintf(stderr, "does not read back:\n%s\n", b.s);
			}
		} else {
			refused++;
		}
		strbuf_release(&b);
		arena_release(&a);
	}
	CHECK_EQ(wrong, 0);
	/* the generator makes both kinds often enough to mean something */
	CHECK(accepted > 300);
	CHECK(refused > 300);
}

static bool reads_back_text(const char *key, const char *value, bool quoted)
{
	struct arena a;
	arena_init(&a);
	struct ynode *m = arena_alloc(&a, sizeof *m);
	m->kind = YNODE_MAP;
	m->n = 1;
	m->keys = arena_array(&a, 1, sizeof *m->keys);
	m->items = arena_array(&a, 1, sizeof *m->items);
	m->keys[0] = ynode_scalar(&a, key, false);
	m->items[0] = ynode_scalar(&a, value, quoted);
	uint64_t nodes = 0;
	struct strbuf b;
	strbuf_init(&b);
	bool ok = yaml_emit_exact(&b, m, &nodes);
	strbuf_release(&b);
	if (ok)
		CHECK_EQ(nodes, 3);   /* the map, its key, its value */
	arena_release(&a);
	return ok;
}

/* enum_ynode_mentions_any answers for each string what
 * enum_ynode_mentions answers, on random trees and strings drawn from
 * their own scalars (and some not in them). */
static void mentions_any_random(void)
{
	for (int t = 0; t < 500; t++) {
		struct arena a;
		arena_init(&a);
		struct ynode *tree = rand_tree(&a, 0, true);
		const char *s[6];
		bool found[6];
		int count = (int)rnd(7);
		for (int k = 0; k < count; k++) {
			const struct ynode *x = tree;
			while (x->kind != YNODE_SCALAR && x->n && rnd(4))
				x = rnd(2) && x->kind == YNODE_MAP ?
				    x->keys[rnd((unsigned)x->n)] :
				    x->items[rnd((unsigned)x->n)];
			s[k] = x->kind == YNODE_SCALAR && rnd(3) ? x->str :
			       rand_scalar(&a, false, 0)->str;
			found[k] = k == 0 && rnd(2);   /* stays true */
		}
		bool was0 = count > 0 && found[0];
		enum_ynode_mentions_any(tree, s, count, found);
		for (int k = 0; k < count; k++)
			CHECK_EQ(found[k], (k == 0 && was0) ||
				 enum_ynode_mentions(tree, s[k]));
		arena_release(&a);
	}
}

/* A quoted value's escapes (yaml/emit.h), written out by hand: \" \\ \n
 * \t, \uXXXX for the other C0 controls and DEL, and for NEL, LS, PS and
 * the BOM, which YAML would read as a line break or drop; other bytes
 * (here an e-acute) as they are. */
static void quoted_escapes(void)
{
	struct arena a;
	arena_init(&a);
	struct ynode *m = arena_alloc(&a, sizeof *m);
	m->kind = YNODE_MAP;
	m->n = 1;
	m->keys = arena_array(&a, 1, sizeof *m->keys);
	m->items = arena_array(&a, 1, sizeof *m->items);
	m->keys[0] = ynode_scalar(&a, "k", false);
	m->items[0] = ynode_scalar(&a, "a\"b\\c\nd\te\001f\177g\303\251", true);
	struct strbuf b;
	strbuf_init(&b);
	yaml_emit(&b, m);
	CHECK_STR(b.s, "k: \"a\\\"b\\\\c\\nd\\te\\u0001f\\u007Fg\303\251\"\n");
	strbuf_release(&b);
	/* NEL, LS, PS, BOM; a lone 0xc2 0xa0 (no-break space) as it is */
	m->items[0] = ynode_scalar(&a, "\302\205\342\200\250\342\200\251\357\273\277\302\240", true);
	strbuf_init(&b);
	yaml_emit(&b, m);
	CHECK_STR(b.s, "k: \"\\u0085\\u2028\\u2029\\uFEFF\302\240\"\n");
	strbuf_release(&b);
	m->items[0] = ynode_scalar(&a, "", true);
	strbuf_init(&b);
	yaml_emit(&b, m);
	CHECK_STR(b.s, "k: \"\"\n");
	strbuf_release(&b);
	arena_release(&a);
}

/* Cases derived from the printer (yaml/emit.c) by hand. */
static void reads_back_cases(void)
{
	CHECK(reads_back_text("cpu", "500m", false));
	CHECK(reads_back_text("cpu", "1", true));        /* "1" stays quoted */
	CHECK(reads_back_text("k", "a,b", true));
	CHECK(!reads_back_text("k", "a,b", false));      /* printed quoted */
	CHECK(!reads_back_text("k", "", false));         /* printed as null */
	CHECK(reads_back_text("k", "", true));
	CHECK(!reads_back_text("k", "-x", false));       /* printed quoted */
	CHECK(reads_back_text("k", "-1", false));
	CHECK(!reads_back_text("k", "a\nb", false));
	CHECK(reads_back_text("k", "a\nb\t\"c\\", true)); /* escaped, same bytes */
	CHECK(!reads_back_text("k", "caf\xc3\xa9", true)); /* not ASCII: left to the parser */
	CHECK(!reads_back_text("<<", "x", false));       /* a merge key when read */
	CHECK(reads_back_text("topology.kubernetes.io/zone", "a", false));
	char longkey[1100];
	memset(longkey, 'k', sizeof longkey - 1);
	longkey[sizeof longkey - 1] = '\0';
	CHECK(!reads_back_text(longkey, "x", false));    /* past the implicit-key limit */
}

/* ------------------------------------------- trees against text */

/* Two nodes and three pods touching most decoders: labels, taints,
 * tolerations, spreading, affinity, priority classes, a PDB, a Service;
 * the dimensions set, add and remove fields, one with a plain value the
 * printer quotes ("a,b": decoded from the text, not the trees). */
static const char universe[] =
	"kind: Universe\n"
	"name: mixed\n"
	"vary:\n"
	"- name: zone\n"
	"  target: Node/n2\n"
	"  path: metadata.labels.\"topology.kubernetes.io/zone\"\n"
	"  values: [a, b, null]\n"
	"- name: taint\n"
	"  target: Node/n1\n"
	"  path: spec.taints\n"
	"  values: [null, [{key: k, value: v, effect: NoSchedule}]]\n"
	"- name: cpu\n"
	"  targets: [Pod/default/a, Pod/default/b]\n"
	"  path: spec.containers[0].resources.requests.cpu\n"
	"  values: [\"1\", 500m]\n"
	"- name: note\n"
	"  target: Pod/default/c\n"
	"  path: metadata.annotations.note\n"
	"  values:\n"
	"  - plain\n"
	"  - a,b\n"
	"- name: prio\n"
	"  target: Pod/default/c\n"
	"  path: spec.priorityClassName\n"
	"  values: [high, null]\n"
	"---\n"
	"apiVersion: scheduling.k8s.io/v1\n"
	"kind: PriorityClass\n"
	"metadata: {name: high}\n"
	"value: 1000\n"
	"---\n"
	"apiVersion: v1\n"
	"kind: Node\n"
	"metadata:\n"
	"  name: n1\n"
	"  labels: {kubernetes.io/hostname: n1, topology.kubernetes.io/zone: a}\n"
	"status: {allocatable: {cpu: \"2\", memory: 4Gi, pods: \"110\"}}\n"
	"---\n"
	"apiVersion: v1\n"
	"kind: Node\n"
	"metadata:\n"
	"  name: n2\n"
	"  labels: {kubernetes.io/hostname: n2}\n"
	"status: {allocatable: {cpu: \"2\", memory: 4Gi, pods: \"110\"}}\n"
	"---\n"
	"apiVersion: v1\n"
	"kind: Pod\n"
	"metadata: {name: a, labels: {app: web}}\n"
	"spec:\n"
	"  containers:\n"
	"  - name: c\n"
	"    image: pause\n"
	"    resources: {requests: {cpu: \"1\"}}\n"
	"    ports: [{containerPort: 80, hostPort: 8080}]\n"
	"  topologySpreadConstraints:\n"
	"  - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone,\n"
	"     whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: web}}}\n"
	"---\n"
	"apiVersion: v1\n"
	"kind: Pod\n"
	"metadata: {name: b, labels: {app: web}}\n"
	"spec:\n"
	"  containers:\n"
	"  - {name: c, image: pause, resources: {requests: {cpu: \"1\"}}}\n"
	"  tolerations: [{key: k, operator: Exists}]\n"
	"  affinity:\n"
	"    podAntiAffinity:\n"
	"      requiredDuringSchedulingIgnoredDuringExecution:\n"
	"      - {topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: web}}}\n"
	"---\n"
	"apiVersion: v1\n"
	"kind: Pod\n"
	"metadata: {name: c}\n"
	"spec:\n"
	"  containers: [{name: c, image: pause, resources: {requests: {cpu: 1500m}}}]\n"
	"---\n"
	"apiVersion: policy/v1\n"
	"kind: PodDisruptionBudget\n"
	"metadata: {name: web}\n"
	"spec: {minAvailable: 1, selector: {matchLabels: {app: web}}}\n"
	"---\n"
	"apiVersion: v1\n"
	"kind: Service\n"
	"metadata: {name: web}\n"
	"spec: {selector: {app: web}}\n";

static void put_labels(struct strbuf *b, const struct labels *l)
{
	for (int i = 0; i < l->n; i++)
		strbuf_printf(b, " %s=%s", l->items[i].key, l->items[i].value);
	strbuf_puts(b, ";");
}

static void put_resources(struct strbuf *b, const struct resource_list *r)
{
	for (int i = 0; i < r->n; i++)
		strbuf_printf(b, " %d:%lld.%09d", r->items[i].res,
				(long long)r->items[i].q.units, (int)r->items[i].q.nanos);
	strbuf_puts(b, ";");
}

static void put_selector(struct strbuf *b, const struct label_selector *s)
{
	strbuf_printf(b, " sel%d", s->present);
	put_labels(b, &s->match_labels);
	strbuf_printf(b, " exprs%d;", s->n_exprs);
}

/* What the decoders made of the objects, positions aside. */
static void fingerprint(const struct cluster *c, struct strbuf *b)
{
	for (int i = 0; i < c->n_nodes; i++) {
		const struct node *n = &c->nodes[i];
		strbuf_printf(b, "node %s unsched%d ready%d", n->name,
				n->unschedulable, n->ready);
		put_labels(b, &n->labels);
		for (int t = 0; t < n->n_taints; t++)
			strbuf_printf(b, " taint %s=%s:%d", n->taints[t].key,
					n->taints[t].value, (int)n->taints[t].effect);
		for (int r = 0; r < n->allocatable.n; r++)
			strbuf_printf(b, " alloc %d=%lld", n->allocatable.items[r].res,
					(long long)n->allocatable.items[r].value);
		strbuf_puts(b, "\n");
	}
	for (int i = 0; i < c->n_pods; i++) {
		const struct pod *p = &c->pods[i];
		strbuf_printf(b, "pod %s/%s prio %d class %s never%d sched %s "
				"node %s nom %s", p->ns, p->name, (int)p->priority,
				p->priority_class, p->preempt_never,
				p->scheduler_name, p->node_name, p->nominated_node);
		put_labels(b, &p->labels);
		for (int k = 0; k < p->n_containers; k++) {
			const struct container *ct = &p->containers[k];
			strbuf_printf(b, " c %s %s", ct->name, ct->image);
			put_resources(b, &ct->requests);
			put_resources(b, &ct->limits);
			for (int q = 0; q < ct->n_ports; q++)
				strbuf_printf(b, " port %d/%d/%s/%s",
						(int)ct->ports[q].container_port,
						(int)ct->ports[q].host_port,
						ct->ports[q].protocol, ct->ports[q].host_ip);
		}
		for (int t = 0; t < p->n_tolerations; t++)
			strbuf_printf(b, " tol %s %d %s %d", p->tolerations[t].key,
					(int)p->tolerations[t].op, p->tolerations[t].value,
					(int)p->tolerations[t].effect);
		for (int s = 0; s < p->n_spread; s++) {
			const struct spread_constraint *sc = &p->spread[s];
			strbuf_printf(b, " spread %d %s %d %d", (int)sc->max_skew,
					sc->topology_key, sc->do_not_schedule,
					(int)sc->min_domains);
			put_selector(b, &sc->selector);
		}
		for (int k = 0; k < p->n_anti_affinity; k++) {
			strbuf_printf(b, " anti %s", p->anti_affinity[k].topology_key);
			put_selector(b, &p->anti_affinity[k].selector);
		}
		strbuf_printf(b, " aff%d pref%d/%d\n", p->n_affinity,
				p->n_affinity_preferred, p->n_anti_affinity_preferred);
	}
	for (int i = 0; i < c->n_priority_classes; i++)
		strbuf_printf(b, "pc %s %d\n", c->priority_classes[i].name,
				(int)c->priority_classes[i].value);
	for (int i = 0; i < c->n_pdbs; i++) {
		strbuf_printf(b, "pdb %s/%s min %d", c->pdbs[i].ns, c->pdbs[i].name,
				(int)c->pdbs[i].min_available.value);
		put_selector(b, &c->pdbs[i].selector);
		strbuf_puts(b, "\n");
	}
	for (int i = 0; i < c->n_workloads; i++) {
		strbuf_printf(b, "wl %d %s/%s", (int)c->workloads[i].kind,
				c->workloads[i].ns, c->workloads[i].name);
		put_labels(b, &c->workloads[i].map_selector);
		strbuf_puts(b, "\n");
	}
	for (int i = 0; i < c->n_namespaces; i++) {
		strbuf_printf(b, "ns %s implicit%d", c->namespaces[i].name,
				c->namespaces[i].implicit);
		put_labels(b, &c->namespaces[i].labels);
		strbuf_puts(b, "\n");
	}
	for (int i = 0; i < c->n_res; i++)
		strbuf_printf(b, "res %s %d\n", c->res_names[i], (int)c->res_class[i]);
}

/* Every object of u printed, to see that building scenarios (whose edits
 * copy what they change and share the rest) leaves u as it was. */
static char *print_universe(const struct enum_universe *u)
{
	struct strbuf b;
	strbuf_init(&b);
	for (int i = 0; i < u->n_objects; i++)
		yaml_emit(&b, u->objects[i].tree);
	return strbuf_take(&b);
}

static void trees_match_text(void)
{
	struct enum_universe u;
	struct error err;
	error_init(&err);
	int rc = enum_universe_load_buffer(&u, "mixed.yaml", NULL, universe, &err);
	CHECK_EQ(rc, 0);
	if (rc) {
		fprintf(stderr, "%s\n", err.msg);
		enum_universe_release(&u);
		return;
	}
	/* 3 zones * 2 taints * 2 cpus * 2 notes * 2 priorities */
	CHECK_EQ(u.n_scenarios, 48);
	char *before = print_universe(&u);
	for (uint64_t k = 0; k < u.n_scenarios; k++) {
		struct enum_scenario sc;
		error_init(&err);
		rc = enum_scenario_build(&u, k, true, &sc, &err);
		CHECK_EQ(rc, 0);
		if (rc) {
			fprintf(stderr, "scenario %llu: %s\n", (unsigned long long)k, err.msg);
			enum_scenario_release(&sc);
			continue;
		}
		struct cluster text;
		cluster_init(&text);
		const char *yaml = enum_scenario_text(&sc);
		rc = yaml_load_buffer(&text, "text", (const unsigned char *)yaml,
				      strlen(yaml), &err);
		CHECK_EQ(rc, 0);
		struct strbuf x, y;
		strbuf_init(&x);
		strbuf_init(&y);
		fingerprint(&sc.cluster, &x);
		fingerprint(&text, &y);
		CHECK_STR(x.s, y.s);
		int d[5];
		enum_universe_digits(&u, k, d);
		/* n2's zone label: a, b, or none (the null value removes it) */
		int n2 = cluster_find_node(&sc.cluster, "n2");
		const char *zone = labels_get(&sc.cluster.nodes[n2].labels,
					      "topology.kubernetes.io/zone");
		CHECK(d[0] == 2 ? zone == NULL : zone && !strcmp(zone, d[0] ? "b" : "a"));
		/* n1's taint list: none, or the one NoSchedule taint */
		int n1 = cluster_find_node(&sc.cluster, "n1");
		CHECK_EQ(sc.cluster.nodes[n1].n_taints, d[1]);
		/* pod c: priority 1000 from class high, else 0 */
		int c = cluster_find_pod(&sc.cluster, "default", "c");
		CHECK_EQ(sc.cluster.pods[c].priority, d[4] == 0 ? 1000 : 0);
		strbuf_release(&x);
		strbuf_release(&y);
		cluster_release(&text);
		enum_scenario_release(&sc);
	}
	char *after = print_universe(&u);
	CHECK_STR(after, before);
	free(before);
	free(after);
	enum_universe_release(&u);
}

/* The universe's variants (enum_universe_variants) against the trees of
 * every scenario: each object's variant says what checking and searching
 * the scenario's own tree says, and a scenario built with them is the
 * scenario built without (classes, text, decoded cluster). */
static void variants_match_scenarios(void)
{
	struct enum_universe u;
	struct error err;
	error_init(&err);
	int rc = enum_universe_load_buffer(&u, "mixed.yaml", NULL, universe, &err);
	CHECK_EQ(rc, 0);
	if (rc) {
		enum_universe_release(&u);
		return;
	}
	/* objects: high, n1, n2, a, b, c, pdb web, service web */
	CHECK_EQ(u.n_objects, 8);
	static const int n_dims[] = {0, 1, 1, 1, 1, 2, 0, 0};
	for (int i = 0; i < 8; i++) {
		CHECK_EQ(u.variants[i].n_dims, n_dims[i]);
		CHECK(u.variants[i].v != NULL);
	}
	/* c: note (plain, "a,b") then prio (high, null); "a,b" is printed
	 * quoted, so variants 2 and 3 do not read back; only prio high
	 * names the priority class */
	const struct enum_variant *c = u.variants[5].v;
	CHECK(c[0].known && c[0].exact && c[1].exact && !c[2].exact && !c[3].exact);
	CHECK(c[0].mentions[0] && !c[1].mentions[0] && c[2].mentions[0]);
	CHECK(c[0].mentions[5] && !c[0].mentions[1]);
	const char *names[8];
	for (int i = 0; i < 8; i++)
		names[i] = u.objects[i].name;
	/* stripped of name and hostname, n1 without taint is n2 in zone a,
	 * not n2 in zone b; only nodes and pods are stripped */
	CHECK(enum_ynode_equal(u.variants[1].v[0].stripped, u.variants[2].v[0].stripped));
	CHECK(!enum_ynode_equal(u.variants[1].v[0].stripped, u.variants[2].v[1].stripped));
	CHECK(u.variants[3].v[0].stripped && !u.variants[0].v[0].stripped &&
	      !u.variants[6].v[0].stripped);
	CHECK_EQ(u.n_dims, 5);
	CHECK_STR(u.dims[0].label[0], "zone=a");
	CHECK_STR(u.dims[0].label[2], "zone=null");
	CHECK_STR(u.dims[3].label[1], "note=\"a,b\"");
	struct enum_object_variants *saved = u.variants;
	for (uint64_t k = 0; k < u.n_scenarios; k++) {
		struct enum_scenario sc, lit;
		rc = enum_scenario_build(&u, k, true, &sc, &err);
		u.variants = NULL;
		const char **labels[5];
		for (int j = 0; j < 5; j++) {
			labels[j] = u.dims[j].label;
			u.dims[j].label = NULL;
		}
		rc |= enum_scenario_build(&u, k, true, &lit, &err);
		u.variants = saved;
		for (int j = 0; j < 5; j++)
			u.dims[j].label = labels[j];
		CHECK_STR(sc.label, lit.label);
		CHECK_EQ(rc, 0);
		int d[5];
		enum_universe_digits(&u, k, d);
		for (int i = 0; rc == 0 && i < 8; i++) {
			const struct enum_object_variants *ov = &u.variants[i];
			uint64_t x = 0;
			for (int j = 0; j < ov->n_dims; j++)
				x = x * (uint64_t)u.dims[ov->dims[j]].n_values +
				    (uint64_t)d[ov->dims[j]];
			const struct enum_variant *v = &ov->v[x];
			uint64_t nodes = 0;
			bool exact = yaml_emit_exact(NULL, sc.objects[i].tree, &nodes);
			bool found[8] = {false};
			enum_ynode_mentions_any(sc.objects[i].tree, names, 8, found);
			CHECK(v->known);
			CHECK(sc.objects[i].tree == v->tree);
			CHECK(enum_ynode_equal(v->tree, lit.objects[i].tree));
			CHECK_EQ(v->exact, exact);
			struct strbuf t;
			strbuf_init(&t);
			yaml_emit(&t, sc.objects[i].tree);
			CHECK_EQ(v->text_len, t.n);
			CHECK_STR(v->text, t.s);
			strbuf_release(&t);
			CHECK_EQ(v->nodes, nodes);
			for (int j = 0; j < 8; j++)
				CHECK_EQ(v->mentions[j], found[j]);
		}
		if (rc == 0) {
			for (int n = 0; n < sc.cluster.n_nodes; n++)
				CHECK_EQ(sc.sym.node_class[n], lit.sym.node_class[n]);
			for (int p = 0; p < sc.cluster.n_pods; p++)
				CHECK_EQ(sc.sym.pod_class[p], lit.sym.pod_class[p]);
			CHECK_STR(enum_scenario_text(&sc), enum_scenario_text(&lit));
			struct strbuf x, y;
			strbuf_init(&x);
			strbuf_init(&y);
			fingerprint(&sc.cluster, &x);
			fingerprint(&lit.cluster, &y);
			CHECK_STR(x.s, y.s);
			strbuf_release(&x);
			strbuf_release(&y);
		}
		enum_scenario_release(&sc);
		enum_scenario_release(&lit);
	}
	enum_universe_release(&u);
}

/* ----------------------------------------------------- tree edits */

static const struct ynode *parse_one(struct arena *a, const char *text)
{
	struct ydoc_set set;
	struct error err;
	error_init(&err);
	if (yaml_parse_buffer("t", (const unsigned char *)text, strlen(text),
			      a, &set, &err) || set.n_docs != 1) {
		CHECK(0);
		return NULL;
	}
	return set.docs[0];
}

static struct enum_path path_of(struct arena *a, const char *text)
{
	struct enum_path p;
	struct error err;
	error_init(&err);
	CHECK_EQ(enum_path_parse(a, "t", ynode_scalar(a, text, false), &p, &err), 0);
	return p;
}

static void check_flow(const struct ynode *n, const char *want)
{
	struct strbuf b;
	strbuf_init(&b);
	yaml_emit_flow(&b, n);
	CHECK_STR(b.s, want);
	strbuf_release(&b);
}

/* Edits copy the nodes on their path: the original reads as before, the
 * untouched subtrees are the original's own nodes. */
static void copy_on_write(void)
{
	struct arena a;
	arena_init(&a);
	const char *text = "{metadata: {name: n, labels: {a: x}}, spec: {c: [1, 2]}, s: null}";
	const struct ynode *orig = parse_one(&a, text);
	if (!orig) {
		arena_release(&a);
		return;
	}
	char why[100];
	const struct ynode *t = orig;
	struct enum_path p = path_of(&a, "metadata.labels.b");
	CHECK_EQ(enum_ynode_set(&a, &t, &p, ynode_scalar(&a, "y", false), why, sizeof why), 0);
	check_flow(t, "{metadata: {name: n, labels: {a: x, b: y}}, spec: {c: [1, 2]}, s: null}");
	check_flow(orig, text);
	CHECK(t != orig);
	CHECK(ynode_get(t, "spec") == ynode_get(orig, "spec"));     /* shared */
	CHECK(ynode_get(t, "metadata") != ynode_get(orig, "metadata"));
	/* a sequence item replaced, appended, removed */
	const struct ynode *u = t;
	p = path_of(&a, "spec.c[1]");
	CHECK_EQ(enum_ynode_set(&a, &u, &p, ynode_scalar(&a, "9", false), why, sizeof why), 0);
	p = path_of(&a, "spec.c[2]");
	CHECK_EQ(enum_ynode_set(&a, &u, &p, ynode_scalar(&a, "3", true), why, sizeof why), 0);
	p = path_of(&a, "spec.c[0]");
	CHECK_EQ(enum_ynode_set(&a, &u, &p, NULL, why, sizeof why), 0);
	check_flow(u, "{metadata: {name: n, labels: {a: x, b: y}}, spec: {c: [9, \"3\"]}, s: null}");
	check_flow(t, "{metadata: {name: n, labels: {a: x, b: y}}, spec: {c: [1, 2]}, s: null}");
	/* maps created on the way, a null value replaced by a map */
	const struct ynode *v = orig;
	p = path_of(&a, "s.x.y");
	CHECK_EQ(enum_ynode_set(&a, &v, &p, ynode_scalar(&a, "1", false), why, sizeof why), 0);
	check_flow(v, "{metadata: {name: n, labels: {a: x}}, spec: {c: [1, 2]}, s: {x: {y: 1}}}");
	/* nothing to remove: the same tree */
	const struct ynode *w = orig;
	p = path_of(&a, "status.phase");
	CHECK_EQ(enum_ynode_set(&a, &w, &p, NULL, why, sizeof why), 0);
	CHECK(w == orig);
	/* errors leave the root alone */
	p = path_of(&a, "spec.c[5]");
	CHECK_EQ(enum_ynode_set(&a, &w, &p, ynode_scalar(&a, "1", false), why, sizeof why), -1);
	CHECK_STR(why, "index [5] is out of range");
	p = path_of(&a, "metadata.name.x");
	CHECK_EQ(enum_ynode_set(&a, &w, &p, ynode_scalar(&a, "1", false), why, sizeof why), -1);
	CHECK_STR(why, "'x' is under a non-map value");
	CHECK(w == orig);
	check_flow(orig, text);
	arena_release(&a);
}

/* -------------------------------------------------------- messages */

/* Pod a's cpu takes "lots" in scenario 1: the message points at that
 * value in the universe text (line 6, column 17: the opening quote) and
 * names the scenario. */
static const char bad_universe[] =
	"kind: Universe\n"
	"name: bad\n"
	"vary:\n"
	"- target: Pod/a\n"
	"  path: spec.containers[0].resources.requests.cpu\n"
	"  values: [\"1\", \"lots\"]\n"
	"---\n"
	"apiVersion: v1\n"
	"kind: Node\n"
	"metadata: {name: n1}\n"
	"---\n"
	"apiVersion: v1\n"
	"kind: Pod\n"
	"metadata: {name: a}\n"
	"spec: {containers: [{name: c, image: i}]}\n";

static void bad_value_message(void)
{
	struct enum_universe u;
	struct error err;
	error_init(&err);
	int rc = enum_universe_load_buffer(&u, "bad.yaml", NULL, bad_universe, &err);
	CHECK_EQ(rc, 0);
	struct enum_scenario sc;
	CHECK_EQ(enum_scenario_build(&u, 0, true, &sc, &err), 0);
	enum_scenario_release(&sc);
	CHECK_EQ(enum_scenario_build(&u, 1, true, &sc, &err), -1);
	enum_scenario_release(&sc);
	const char *want = "bad.yaml:6:17: invalid quantity \"lots\"";
	CHECK(!strncmp(err.msg, want, strlen(want)));
	CHECK(strstr(err.msg, "(spec.containers[0].resources.requests.cpu) in "
			      "scenario 1 (Pod/a:spec.containers[0].resources."
			      "requests.cpu=\"lots\")") != NULL);
	CHECK(!strchr(err.msg, '\n'));
	enum_universe_release(&u);
}

/* ---------------------------------------------------------- config */

static void config_read_once(void)
{
	char dir[] = "/tmp/kso-test-scenario-XXXXXX";
	if (!mkdtemp(dir)) {
		CHECK(0);
		return;
	}
	char path[256];
	snprintf(path, sizeof path, "%s/c.yaml", dir);
	FILE *f = fopen(path, "w");
	if (!f) {
		CHECK(0);
		return;
	}
	fputs("apiVersion: kubescheduler.config.k8s.io/v1\n"
	      "kind: KubeSchedulerConfiguration\n"
	      "percentageOfNodesToScore: 70\n"
	      "profiles: [{schedulerName: mine}]\n", f);
	fclose(f);
	char text[sizeof bad_universe + 32];
	snprintf(text, sizeof text, "config: c.yaml\n%s", bad_universe);
	struct enum_universe u;
	struct error err;
	error_init(&err);
	int rc = enum_universe_load_buffer(&u, "cfg.yaml", dir, text, &err);
	CHECK_EQ(rc, 0);
	/* the file may go: the universe read it already */
	unlink(path);
	rmdir(dir);
	if (rc == 0) {
		struct enum_scenario sc;
		CHECK_EQ(enum_scenario_build(&u, 0, true, &sc, &err), 0);
		CHECK(sc.cluster.config.loaded);
		CHECK_EQ(sc.cluster.config.percentage_of_nodes_to_score, 70);
		CHECK_EQ(sc.cluster.config.n_profiles, 1);
		CHECK_STR(sc.cluster.config.profiles[0].name, "mine");
		enum_scenario_release(&sc);
	}
	enum_universe_release(&u);
	/* a missing config fails the universe, one line naming the file */
	error_init(&err);
	rc = enum_universe_load_buffer(&u, "cfg.yaml", dir, text, &err);
	CHECK_EQ(rc, -1);
	CHECK(strstr(err.msg, "c.yaml") != NULL && !strchr(err.msg, '\n'));
	enum_universe_release(&u);
}

int main(void)
{
	random_trees_read_back();
	reads_back_cases();
	quoted_escapes();
	mentions_any_random();
	trees_match_text();
	variants_match_scenarios();
	copy_on_write();
	bad_value_message();
	config_read_once();
	return check_done("test_enum_scenario");
}
