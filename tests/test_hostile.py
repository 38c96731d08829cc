"""Hostile input through the real binary: `kso validate FILE` must refuse
each file with exit status 1 and exactly one error line
FILE:LINE:COL: what is wrong, in bounded time, without crashing and without
writing anything else.  KSO names the binary (default ./kso)."""

import os
import random
import re
import subprocess

import pytest

KSO = os.environ.get("KSO", "./kso")
TIMEOUT = 30  # a hang guard, not a benchmark
POSITIONED = re.compile(r"^[^:]+:\d+:\d+: .+$")


def billion_laughs():
    lines = ["a: &a [" + ", ".join(["lol"] * 9) + "]"]
    for prev, cur in zip("abcdefghi", "bcdefghij"):
        lines.append(f"{cur}: &{cur} [" + ", ".join([f"*{prev}"] * 9) + "]")
    return ("\n".join(lines) + "\n").encode()


def deep_seq(n):
    return b"[" * n + b"]" * n


def deep_map(n):
    return b"{a: " * n + b"1" + b"}" * n


def deep_block_map(n):
    return "".join(" " * i + "a:\n" for i in range(n)).encode()


def long_scalar():
    return b"apiVersion: v1\nkind: Pod\nmetadata:\n  name: " + b"x" * (10 << 20) + b"\n"


def random_bytes():
    rng = random.Random(20240601)
    return bytes(rng.getrandbits(8) for _ in range(64 * 1024))


HOSTILE = {
    "alias_bomb": billion_laughs(),
    "deep_seq": deep_seq(100_000),
    "deep_map": deep_map(100_000),
    "deep_block_map": deep_block_map(2_000),
    "long_scalar": long_scalar(),
    "random_bytes": random_bytes(),
    "truncated": b"apiVersion: v1\nkind: Node\nmetadata: {name: n1, labels: {a: b\n",
    "truncated_quote": b'apiVersion: v1\nkind: Node\nmetadata:\n  name: "n1\n',
    "nul_bytes": b"apiVersion: v1\nkind: Node\x00\nmetadata: {name: n1}\n",
    "invalid_utf8": b"apiVersion: v1\nkind: Node\nmetadata: {name: \xc3\x28}\n",
    "invalid_utf8_lead": b"apiVersion: v1\nkind: \xff\xfe\n",
    "duplicate_key": b"apiVersion: v1\nkind: Node\nkind: Pod\n",
    "undefined_alias": b"apiVersion: v1\nkind: *k\n",
    "recursive_alias": b"a: &x [1, *x]\n",
    "complex_key": b"? [a, b]\n: 1\n",
}


def run_validate(path):
    return subprocess.run([KSO, "validate", str(path)], capture_output=True,
                          timeout=TIMEOUT)


def assert_one_error(proc, path, pattern=POSITIONED):
    assert proc.returncode == 1, (proc.returncode, proc.stderr[-500:])
    assert proc.stdout == b""
    err = proc.stderr.decode("utf-8", "replace")
    lines = err.splitlines()
    assert len(lines) == 1, err[:2000]
    assert pattern.match(lines[0]), lines[0][:500]
    assert lines[0].startswith(str(path) + ":"), lines[0][:500]


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_file_refused(tmp_path, name):
    path = tmp_path / f"{name}.yaml"
    path.write_bytes(HOSTILE[name])
    proc = run_validate(path)
    assert_one_error(proc, path)
    assert sorted(os.listdir(tmp_path)) == [path.name]  # nothing written


def test_error_positions(tmp_path):
    """Where the tree builder says the problem is (worked out by hand)."""
    cases = {
        # 201st '[' is at column 201
        "depth": (deep_seq(300), "1:201: nesting deeper than 200 levels"),
        # kind is repeated on line 3, column 1
        "dup": (HOSTILE["duplicate_key"], "3:1: duplicate key 'kind'"),
        # the alias *k starts at column 7 of line 2
        "alias": (HOSTILE["undefined_alias"], "2:7: undefined alias '*k'"),
        # '(' is the bad trailing octet: "metadata: {name: " is 17 bytes,
        # the lead byte is column 18, the '(' column 19
        "utf8": (HOSTILE["invalid_utf8"], "3:19: invalid text: invalid trailing UTF-8 octet"),
        # the name scalar starts on line 4 at column 9
        "long": (long_scalar(), "4:9: scalar longer than 1048576 bytes"),
    }
    for name, (data, expect) in cases.items():
        path = tmp_path / f"{name}.yaml"
        path.write_bytes(data)
        proc = run_validate(path)
        assert_one_error(proc, path)
        line = proc.stderr.decode("utf-8", "replace").splitlines()[0]
        assert line.startswith(f"{path}:{expect}"), line[:300]


def test_alias_bomb_message(tmp_path):
    path = tmp_path / "bomb.yaml"
    path.write_bytes(billion_laughs())
    proc = run_validate(path)
    assert_one_error(proc, path)
    assert "too many nodes (alias expansion)" in proc.stderr.decode()


def test_missing_file(tmp_path):
    """Unreadable input: "FILE: why" (no position to give)."""
    path = tmp_path / "missing.yaml"
    proc = run_validate(path)
    assert_one_error(proc, path, re.compile(re.escape(str(path)) + r": .+$"))
    assert "No such file or directory" in proc.stderr.decode()
