"""
test_install.py - `make install` into a temporary DESTDIR: the installed
kso finds its bundled default universe from outside the repository, the
man page renders without warnings, the completions load, and the
examples and the license are there.
"""
import os
import subprocess

from conftest import REPO


def install(tmp_path):
    dest = tmp_path / "dest"
    r = subprocess.run(["make", "-s", "-C", str(REPO), "install",
                        "DESTDIR=%s" % dest, "PREFIX=/usr"],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    return dest / "usr"


def test_installed_kso_runs_its_default_universe_outside_the_repository(tmp_path):
    usr = install(tmp_path)
    work = tmp_path / "elsewhere"
    work.mkdir()
    r = subprocess.run([str(usr / "bin" / "kso"), "enum", "--shard", "1/256",
                        "--db", "x.db", "--quiet"], cwd=work,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    # the default universe: 30,720 work items (a scenario's 256
    # placements each), shard 1/256 takes 120 of them
    assert r.stdout.startswith("run 1: complete, 120/120 work items\n"), r.stdout
    for f in ("cluster.yaml", "preemption.yaml", "most-allocated.config.yaml"):
        assert (usr / "share" / "kso" / "examples" / f).exists()
    r = subprocess.run([str(usr / "bin" / "kso"), "explain",
                        str(usr / "share/kso/examples/cluster.yaml"),
                        "--pod", "default/p", "-o", "json"], cwd=work,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    lic = (usr / "share" / "doc" / "kso" / "LICENSE").read_text()
    assert "Apache License" in lic and "Version 2.0" in lic


def test_man_page_and_completions(tmp_path):
    usr = install(tmp_path)
    page = usr / "share" / "man" / "man1" / "kso.1"
    r = subprocess.run(["man", "--warnings", "-l", str(page)],
                       capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, MANPAGER="cat", PAGER="cat",
                                MANWIDTH="80"))
    assert r.returncode == 0 and r.stderr == "", r.stderr
    assert "reference oracle for the Kubernetes" in r.stdout
    assert "EXIT STATUS" in r.stdout
    bash = usr / "share" / "bash-completion" / "completions" / "kso"
    r = subprocess.run(["bash", "-c", "source %s && complete -p kso && "
                        "COMP_WORDS=(kso ex); COMP_CWORD=1; _kso && "
                        "echo ${COMPREPLY[@]}" % bash],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "complete -F _kso kso" in r.stdout
    assert r.stdout.splitlines()[-1] == "explain export"
    # options and their values come from the installed kso's --help
    path = "%s:%s" % (usr / "bin", os.environ["PATH"])
    for words, cword, want in [
            ("kso explain x.yaml -o ''", 4, "table wide json yaml html"),
            ("kso enum --mode ''", 3, "placements reachable"),
            ("kso dump x.yaml --no-e", 3, "--no-expand")]:
        r = subprocess.run(["bash", "-c", "source %s && COMP_WORDS=(%s); "
                            "COMP_CWORD=%d; _kso && echo ${COMPREPLY[@]}"
                            % (bash, words, cword)],
                           capture_output=True, text=True, timeout=60,
                           env=dict(os.environ, PATH=path))
        assert r.returncode == 0, r.stderr
        assert r.stdout.strip() == want, (words, r.stdout)
    assert (usr / "share" / "zsh" / "site-functions" / "_kso").exists()
