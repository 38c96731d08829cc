"""
test_manpage.py - the man page and the shell completions say what kso does.

* doc/kso.1 has a subsection (.SS "kso CMD ...") for every command
  `kso --help` lists, and the options it documents for CMD - its own
  .TP entries, those of the option groups its "Also:" line names (INPUT
  OPTIONS, LOAD OPTIONS, ...) and OPTIONS OF EVERY COMMAND - are exactly
  the options `kso CMD --help` lists (`kso corpus --run DIR --help` too):
  none missing, none the command does not take, short and long forms
  paired alike.  An option whose --help value is a list of choices
  (`table|json|yaml`) lists the same choices in the man page.
* The quirk names the man page lists are the ones kso accepts (kso's own
  refusal of an unknown name lists them).
* doc/completion/kso.bash and doc/completion/_kso offer exactly the
  commands of `kso --help`; bash completes --quirk's names and kso enum's
  bundled universe names.
* Every option is named in README.md or doc/*.md as well.
A command or option added without its man page entry fails here.
"""
import os
import re
import subprocess

from conftest import KSO, REPO

MAN = (REPO / "doc" / "kso.1").read_text()
BASH = REPO / "doc" / "completion" / "kso.bash"
ZSH = REPO / "doc" / "completion" / "_kso"
COMMON = "OPTIONS OF EVERY COMMAND"


def kso(*args):
    return subprocess.run([KSO, *args], capture_output=True, text=True,
                          timeout=60)


def commands():
    """The commands `kso --help` lists."""
    out = kso("--help").stdout
    block = out.split("commands:\n", 1)[1].split("\n\n", 1)[0]
    return [l.split()[0] for l in block.splitlines() if l.strip()]


HELP_LINE = re.compile(r"^  (?:(-\w), )?(--[\w-]+)(?: (\S+))?  |"
                       r"^    (--[\w-]+)(?: (\S+))?  ")


def help_options(*args):
    """{form: value} of a --help text; form "-o/--output" or "--db"."""
    r = kso(*args, "--help")
    assert r.returncode == 0, (args, r.stderr)
    opts = {}
    for line in r.stdout.splitlines():
        m = HELP_LINE.match(line + "  ")
        if not m:
            continue
        short, long_, value = (m.group(1), m.group(2), m.group(3)) \
            if m.group(2) else (None, m.group(4), m.group(5))
        opts[(short + "/" if short else "") + long_] = value or ""
    assert opts, (args, r.stdout)
    return opts


def unroff(text):
    text = re.sub(r"\\f[BIRP]", "", text).replace("\\-", "-")
    return text.replace('"', "")


def man_sections():
    """{name: text}: each .SH section, and each .SS under COMMANDS as
    "kso CMD"."""
    out = {}
    name = None
    for line in MAN.splitlines():
        m = re.match(r'^\.S([HS]) "?(.*?)"?$', line)
        if m:
            name = unroff(m.group(2))
            if m.group(1) == "S":
                name = " ".join(name.split()[:2])
            out[name] = ""
        elif name:
            out[name] += line + "\n"
    return out


SECTIONS = man_sections()


def man_options(text):
    """{form: the .TP line} of a section's .TP entries."""
    opts = {}
    lines = text.splitlines()
    for i, line in enumerate(lines[:-1]):
        if line != ".TP":
            continue
        tag = unroff(lines[i + 1])
        shorts = re.findall(r"(?<![\w-])-[a-zA-Z](?![\w-])", tag)
        longs = re.findall(r"(?<![\w-])--[a-z][\w-]*", tag)
        if not longs:
            continue
        assert len(longs) == 1 and len(shorts) <= 1, tag
        opts[(shorts[0] + "/" if shorts else "") + longs[0]] = tag
    return opts


def documented(cmd):
    sec = SECTIONS.get("kso " + cmd)
    assert sec is not None, "doc/kso.1 has no .SS for kso %s" % cmd
    opts = man_options(sec)
    groups = [COMMON]
    also = re.search(r"^Also: (.*)$", sec, re.M)
    if also:
        groups += re.findall(r"[A-Z]+ OPTIONS", also.group(1))
    for g in groups:
        assert g in SECTIONS, (cmd, g)
        for form, tag in man_options(SECTIONS[g]).items():
            opts.setdefault(form, tag)
    return opts


def test_every_command_has_its_subsection():
    cmds = commands()
    assert {"explain", "schedule", "replay", "check", "enum"} <= set(cmds)
    man_cmds = {k.split()[1] for k in SECTIONS if k.startswith("kso ")}
    assert man_cmds == set(cmds)


def test_the_man_page_documents_exactly_each_commands_options():
    for cmd in commands():
        helps = [help_options(cmd)]
        if cmd == "corpus":
            helps.append(help_options("corpus", "--run", "x"))
        wanted = {}
        for h in helps:
            wanted.update(h)
        man = documented(cmd)
        missing = sorted(set(wanted) - set(man))
        extra = sorted(set(man) - set(wanted))
        assert not missing, "kso %s: not in doc/kso.1: %s" % (cmd, missing)
        assert not extra, "kso %s: doc/kso.1 documents options it does not " \
            "take: %s" % (cmd, extra)
        for form, value in wanted.items():
            if "|" in value and not re.search(r"[A-Z]", value):
                assert value in man[form].replace(" ", ""), \
                    (cmd, form, value, man[form])


def test_the_man_page_lists_every_quirk():
    r = kso("validate", "--quirk", "x")
    assert r.returncode == 2
    names = r.stderr.split("NAME one of ", 1)[1].strip().split(", ")
    assert len(names) >= 10, names
    release = SECTIONS["RELEASE OPTIONS"]
    quirk = release.split("\\-\\-quirk ", 1)[1].split(".TP", 1)[0]
    listed = re.findall(r"^\.BR ([\w\\-]+) ", quirk, re.M)
    assert [unroff(n) for n in listed] == names


def test_the_completions_offer_every_command():
    cmds = set(commands())
    bash = re.search(r'local commands="([^"]*)"', BASH.read_text()).group(1)
    assert set(bash.split()) == cmds
    zsh = re.findall(r"^\s+'([a-z]+):", ZSH.read_text(), re.M)
    assert set(zsh) == cmds


def complete(words, cword, cwd=REPO):
    """bash's COMPREPLY for COMP_WORDS=words with the checkout's kso."""
    env = dict(os.environ, PATH="%s:%s" % (os.path.dirname(KSO),
                                            os.environ["PATH"]))
    r = subprocess.run(["bash", "-c", "source %s && COMP_WORDS=(%s); "
                        "COMP_CWORD=%d; _kso && printf '%%s\\n' "
                        "\"${COMPREPLY[@]}\"" % (BASH, words, cword)],
                       capture_output=True, text=True, timeout=60, env=env,
                       cwd=cwd)
    assert r.returncode == 0, r.stderr
    return r.stdout.split()


def test_bash_completes_quirk_names(tmp_path):
    got = complete("kso explain x.yaml --quirk ''", 4, tmp_path)
    assert "victim-order-now=off" in got and "victim-order-now=on" in got
    assert len(got) == 2 * 10 or len(got) > 20, got
    got = complete("kso enum --quirk ports", 3, tmp_path)
    assert got == ["ports-set-removal=off", "ports-set-removal=on"]
    got = complete("kso explain x.yaml --quirks ''", 4, tmp_path)
    assert got == ["off", "on"]


def test_bash_completes_bundled_universe_names(tmp_path):
    bundled = sorted(p.name[:-len(".yaml")] for p in
                     (REPO / "fixtures" / "universes").glob("*.yaml")
                     if not p.name.endswith(".config.yaml"))
    got = complete("kso enum ''", 2, tmp_path)
    assert sorted(got) == bundled, got
    assert "two-by-two" in complete("kso corpus tw", 2, tmp_path)


def test_the_documents_name_every_option():
    """Every option of every command is in the long-form documentation
    too (README.md and doc/*.md), not only in the man page."""
    docs = (REPO / "README.md").read_text() + "".join(
        p.read_text() for p in sorted((REPO / "doc").glob("*.md")))
    missing = []
    for cmd in commands():
        helps = [help_options(cmd)]
        if cmd == "corpus":
            helps.append(help_options("corpus", "--run", "x"))
        for h in helps:
            for form in h:
                long_ = form.split("/")[-1]
                if long_ != "--help" and not re.search(
                        re.escape(long_) + r"(?![\w-])", docs):
                    missing.append("kso %s %s" % (cmd, long_))
    assert not missing, "not in README.md or doc/*.md: %s" % missing
