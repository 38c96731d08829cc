/*
 * test_block_events.c - the block scanner (yaml/block_events.c) against
 * libyaml, its reference: for every file under fixtures/ and for texts
 * at the edges of the subset it takes, yaml_parse_buffer_at (the
 * scanners where they take the text) and yaml_parse_buffer_yaml
 * (libyaml alone) give the same trees - every node's kind, position,
 * text and quoting - or the same error.  It must also take most
 * fixtures (else the loader's speed-up is not there) and the texts the
 * subset is meant for.
 */
#include "check.h"
#include "fixture_walk.h"

#include "../../yaml/block_events.h"
#include "../../yaml/tree.h"

/* Both parsers agree on text[0..len). */
static bool agree(const unsigned char *text, size_t len)
{
	struct arena a1, a2;
	arena_init(&a1);
	arena_init(&a2);
	struct ydoc_set s1, s2;
	memset(&s1, 0, sizeof s1);
	memset(&s2, 0, sizeof s2);
	struct error e1, e2;
	error_init(&e1);
	error_init(&e2);
	int r1 = yaml_parse_buffer_at("f", text, len, 1, 1, &a1, &s1, &e1);
	int r2 = yaml_parse_buffer_yaml("f", text, len, 1, 1, &a2, &s2, &e2);
	bool ok = r1 == r2 && (!r1 || !strcmp(e1.msg, e2.msg));
	if (ok && !r1) {
		ok = s1.n_docs == s2.n_docs;
		for (int i = 0; ok && i < s1.n_docs; i++)
			ok = ynode_identical(s1.docs[i], s2.docs[i]);
	}
	if (!ok)
		fprintf(stderr, "differs from libyaml: %.*s\n  (%s | %s)\n",
			(int)(len < 200 ? len : 200), (const char *)text,
			r1 ? e1.msg : "ok", r2 ? e2.msg : "ok");
	arena_release(&a1);
	arena_release(&a2);
	return ok;
}

static int count_event(void *ctx, const yaml_event_t *ev)
{
	(void)ev;
	++*(long *)ctx;
	return 0;
}

/* Whether the block scanner takes text (else libyaml reads it). */
static bool taken(const char *text)
{
	long n = 0;
	return yaml_block_events((const unsigned char *)text, strlen(text),
				 count_event, &n) == 0;
}

static int files, files_taken;

static bool any_file(const char *path)
{
	(void)path;
	return true;
}

static void one_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return;
	static unsigned char buf[1 << 21];
	size_t len = fread(buf, 1, sizeof buf, f);
	fclose(f);
	files++;
	long n = 0;
	files_taken += yaml_block_events(buf, len, count_event, &n) == 0;
	if (!agree(buf, len)) {
		fprintf(stderr, "  in %s\n", path);
		CHECK(false);
	}
}

/* Texts at the edges of the subset: each read the same both ways. */
static const char *const edges[] = {
	"a: 1\n", "a: 1\n---\n", "---\na: 1\n", "---\n", "", "# c\n",
	"a: 1", "a:\n- x\n- y\nb: 2\n", "a:\n  - x\n", "- a: 1\n  b: 2\n- c\n",
	"a: 'it''s'\n", "a: \"x\\ty\\u00e9\\/\\\"\"\n", "a: {b: c, d: [1, 2]}\n",
	"a: [ ]\n", "a: {}\n", "a: b # c\n", "a: b#c\n", "a: pause:3.9\n",
	"a: [pause:3.9]\n", "a: [x:,y]\n", "a: [x:]\n", "a: {x: y:z}\n",
	"a: b\n  c\n", "a: |\n  x\n", "a: &x 1\nb: *x\n", "a:\n", "a: 1\nb:\n",
	"a: 1\n  b: 2\n", "- - a\n", "a: -1\n", "a: - b\n", "key: value: x\n",
	"a: 1\n...\n", "%YAML 1.1\n---\na: 1\n", "a: \"unterminated\n",
	"a: 'x\n  y'\n", "\"k\": v\n", "'k': v\n", "? a\n: b\n",
	"a: 1\n\tb: 2\n", "a: 1\r\nb: 2\r\n", "a: \xc3\xa9\n",
	"# \xc3\xa9\na: 1\n", "a: 1 # \xc3\xa9\n", "a: 1 # \xc2\x85 x\n",
	"a: {b: c\n", "a: [1,]\n", "a: {b}\n", "a:   \n  b: 1\n",
	"a: 1\n---\nb: 2\n---\n---\n", "-\n  a: 1\n", "a:\n-   x\n-   y\n",
	"a: b\nc: d\n  \n\n# end\n", "- x\n- y\nz: 1\n", "a: [a b, 'c d']\n",
	"a: {\"q\": v}\n", "a: {q:v}\n", "a: b\na: c\n", "a:b\n", "a : b\n",
	"a: \"\\x41\"\n", "a: \"\\u0000\"\n", "a: \"\\ud800\"\n", "a: 'x' y\n",
	"a: \"x\"#c\n", "a: [x] y\n", "a: x\n b: y\n", "- a\n -b\n",
	"a:\n  b: 1\n c: 2\n", "a:\n    - x\n  b: 1\n", "--- a: 1\n",
	"---  # c\na: 1\n", "a: 1\n--- \nb: 2\n", "  a: 1\n", "a:\n- x\n  y\n",
	"a: {b: [c, {d: e}], f: 'g'}\n", "a: [\"x\", 'y', z]\n", "x\n",
	"a: @b\n", "a: `b\n", "a: !b c\n", "a: %b\n", "a: ,b\n", "a: ]b\n",
	"a: yes\nb: null\nc: ~\nd: 0x1F\n", "- [a, b]\n- {c: d}\n",
	"<<: {a: 1}\nb: 2\n", "a:\n  - b: 1\n    c:\n    - d\n  - e\n",
	/* literal block scalars */
	"a: |\n  x\n  y\nb: 1\n", "a: |-\n  x\n  y\nb: 1\n", "a: |\n  x",
	"a: |-\n  x", "a: |\n  x\n\n  y\n\n\nb: 1\n", "a: |\n  x\n    y\n  z\n",
	"a: |\n  x\n   \n  y\n", "a: |\n  x\n     \n", "a: |\n  x\n \n",
	"a: |\n\n  x\n", "a: |\n  \n  x\n", "a: |\nb: 1\n", "a: |\n",
	"a: |\n  # not a comment\n  x\n# a comment\nb: 1\n",
	"a: |\n  x\n # ends it\nb: 1\n", "a: |+\n  x\n\n", "a: >\n  x\n",
	"a: |2\n  x\n", "a: | # c\n  x\n", "a: |  \n  x\n",
	"a:\n- |\n  x\n- y\n", "- |\n  x\n- |-\n  y\n", "- a: |\n    x\n  b: 1\n",
	"- a: |\n   x\n", "a:\n  b: |\n   x\n  c: 1\n", "a: |\n  x\n  ---\n",
	"a: |\n  x\n---\nb: 1\n", "a: |\n  \xc3\xa9 \xe2\x82\xac\n",
	"a: |\n  x\n    \n", "a: |\n   x\n  y\n", "a: |\n  {\"k\": [1, 2]}\n",
};

/* One item of `kubectl get pods -o yaml` as kubectl writes it: a
 * last-applied-configuration block scalar, managedFields keys such as
 * "k:{\"name\":\"web\"}" and ".", empty flow maps. */
static const char kubectl_list[] =
	"apiVersion: v1\n"
	"items:\n"
	"- apiVersion: v1\n"
	"  kind: Pod\n"
	"  metadata:\n"
	"    annotations:\n"
	"      kubectl.kubernetes.io/last-applied-configuration: |\n"
	"        {\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"annotations\":{},\"name\":\"web-0\",\"namespace\":\"default\"},\"spec\":{\"containers\":[{\"image\":\"nginx\",\"name\":\"web\"}]}}\n"
	"    creationTimestamp: \"2024-05-01T10:00:00Z\"\n"
	"    labels:\n"
	"      app: web\n"
	"    managedFields:\n"
	"    - apiVersion: v1\n"
	"      fieldsType: FieldsV1\n"
	"      fieldsV1:\n"
	"        f:metadata:\n"
	"          f:annotations:\n"
	"            .: {}\n"
	"            f:kubectl.kubernetes.io/last-applied-configuration: {}\n"
	"        f:spec:\n"
	"          f:containers:\n"
	"            k:{\"name\":\"web\"}:\n"
	"              .: {}\n"
	"              f:image: {}\n"
	"      manager: kubectl-client-side-apply\n"
	"      operation: Update\n"
	"      time: \"2024-05-01T10:00:00Z\"\n"
	"    name: web-0\n"
	"    namespace: default\n"
	"    resourceVersion: \"1234\"\n"
	"    uid: 0d6c7a4e-3b1a-4b7e-9e2a-1c2d3e4f0\n"
	"  spec:\n"
	"    containers:\n"
	"    - image: nginx\n"
	"      imagePullPolicy: Always\n"
	"      name: web\n"
	"      resources:\n"
	"        requests:\n"
	"          cpu: 100m\n"
	"          memory: 500Mi\n"
	"      terminationMessagePath: /dev/termination-log\n"
	"    dnsPolicy: ClusterFirst\n"
	"    nodeName: node-0\n"
	"    tolerations:\n"
	"    - effect: NoExecute\n"
	"      key: node.kubernetes.io/not-ready\n"
	"      operator: Exists\n"
	"      tolerationSeconds: 300\n"
	"  status:\n"
	"    phase: Running\n"
	"    qosClass: Burstable\n"
	"kind: List\n"
	"metadata:\n"
	"  resourceVersion: \"\"\n";

int main(void)
{
	for (size_t i = 0; i < sizeof edges / sizeof *edges; i++)
		CHECK(agree((const unsigned char *)edges[i], strlen(edges[i])));
	/* the kinds of text the subset is there for */
	CHECK(agree((const unsigned char *)kubectl_list, strlen(kubectl_list)));
	CHECK(taken(kubectl_list));
	CHECK(taken("a: 1\n---\n"));
	CHECK(taken("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n"
		    "  labels: {app: web}\nspec:\n  containers:\n  - name: c\n"
		    "    image: registry.k8s.io/pause:3.9\n    ports:\n"
		    "    - containerPort: 80\n      hostPort: 8080\n"));
	CHECK(taken("# \xc2\xa7 2.6\na: \"x\\ty\\u00e9\" # \xc3\xa9\n"));
	CHECK(taken("a: {b: c, d: [1, 'x', \"y\"]}\n"));
	CHECK(!taken("a: b\n  c\n"));
	CHECK(taken("a: |\n  x\n\n  y\n\n\nb: 1\n"));
	CHECK(taken("a: |-\n  x\n   \n  y\n  # text\n# comment\n"));
	CHECK(taken("- a: |\n    x\n  b: 1\n"));
	CHECK(!taken("a: >\n  x\n"));
	CHECK(!taken("a: |\n\n  x\n"));
	CHECK(!taken("a: \xc3\xa9\n"));
	/* a long key (libyaml's simple keys end within 1024 characters) */
	static char text[4096];
	memset(text, 'k', 1100);
	memcpy(text + 1100, ": v\n", 5);
	CHECK(agree((const unsigned char *)text, strlen(text)));
	CHECK(!taken(text));
	/* deep nesting: past the scanner's limit libyaml's error stands */
	size_t n = 0;
	for (int d = 0; d < 150 && n + 300 < sizeof text; d++) {
		for (int k = 0; k < 2 * d; k++)
			text[n++] = ' ';
		memcpy(text + n, "a:\n", 3);
		n += 3;
	}
	memcpy(text + n, "  b: 1\n", 8);
	CHECK(agree((const unsigned char *)text, strlen(text)));
	const char *root = getenv("KSO_FIXTURES");
	fixture_walk(root ? root : "fixtures", any_file, one_file);
	printf("test_block_events: %d of %d fixture files read by the block "
	       "scanner\n", files_taken, files);
	CHECK(files_taken * 10 >= files * 6);
	return check_done("test_block_events");
}
