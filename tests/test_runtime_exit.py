"""A directory kso cannot create is a runtime failure (exit 3, one line
naming the directory), not invalid input: issue 33's exit status rule
(0 success, 1 findings or invalid input, 2 usage, 3 runtime failure).
Out of memory, the other runtime failure, is tests/unit/test_oom.c's."""
import subprocess

from conftest import FIXTURES, KSO

TWO = FIXTURES / "universes" / "two-by-two.yaml"


def run(*args):
    return subprocess.run([KSO, *map(str, args)], capture_output=True,
                          text=True, timeout=300)


def blocked_dir(tmp_path):
    """A directory path under a regular file: mkdir fails with ENOTDIR."""
    f = tmp_path / "a-file"
    f.write_text("")
    return f / "sub"


def test_enum_export_dir_that_cannot_be_created(tmp_path):
    d = blocked_dir(tmp_path)
    p = run("enum", TWO, "--db", tmp_path / "e.db", "--quiet", "--export", d)
    assert p.returncode == 3, p.stderr
    assert p.stderr == ("kso enum: %s: cannot create directory: Not a "
                        "directory\n" % d)


def test_check_export_dir_that_cannot_be_created(tmp_path):
    d = blocked_dir(tmp_path)
    log = tmp_path / "watch.json"
    log.write_text("")
    p = run("check", log, "--export", d)
    assert (p.returncode, p.stdout) == (3, "")
    assert p.stderr == ("kso check: %s: cannot create directory: Not a "
                        "directory\n" % d)


def test_corpus_dir_that_cannot_be_created(tmp_path):
    d = blocked_dir(tmp_path)
    p = run("corpus", TWO, "--dir", d, "--quiet")
    assert p.returncode == 3, p.stderr
    assert p.stderr == ("kso corpus: %s: cannot create directory: Not a "
                        "directory\n" % d)


def test_enum_export_that_cannot_write_a_scenario(tmp_path):
    """The directory exists but no file can be made in it (/proc refuses
    even root): the run is stored and valid, the scenario is not written -
    exit 3 naming the file, where it used to be 1."""
    import re
    u = FIXTURES / "universes" / "quirk-ports.yaml"   # 2 violations to export
    p = run("enum", u, "--db", tmp_path / "e.db", "--quiet", "--export", "/proc")
    assert p.returncode == 3, p.stderr
    last = p.stderr.strip().splitlines()[-1]
    assert re.fullmatch(r"/proc/[a-z-]+-\d+\.yaml: cannot write: .+", last), last
