"""
test_corpus_cases.py - `kso corpus --run` on malformed case files (issue
33 N5): an empty or comment-only file, a scalar, a sequence or several
documents is a bad-case like any other malformed case (exit status 1),
never an abort.
"""
from test_corpus import corpus, replay


def test_malformed_case_files_are_bad_cases(tmp_path):
    out, cases = corpus(tmp_path, "impl/cluster.yaml", "impl")
    bad = {"case-9001.json": "", "case-9002.json": "# nothing but this\n",
           "case-9003.json": "42\n", "case-9004.json": "[1, 2]\n",
           "case-9005.json": "{}\n---\n{}\n"}
    for name, text in bad.items():
        (out / name).write_text(text)
    p, by_case, summary = replay(out, "self")
    assert p.returncode == 1, p.stderr
    for name in bad:
        assert by_case[name]["verdict"] == "bad-case", name
        assert by_case[name]["detail"] == (
            f"{out}/{name}: not a KsoCorpusCase (one mapping with cluster, "
            "pod.namespace, pod.name)"), name
    assert summary["stale"] == len(bad)
    assert summary["cases"] == len(cases) + len(bad)
