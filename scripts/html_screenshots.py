#!/usr/bin/python3
"""html_screenshots.py - regenerates the README's pictures of the -o html
reports, doc/html-{explain,schedule,check,report}.png, with headless
Chromium at 1280x900 (tests/browser.py's flags).  Run from the checkout
after `make`:  /usr/bin/python3 scripts/html_screenshots.py"""
import pathlib
import subprocess
import sys
import tempfile

REPO = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))
import browser  # noqa: E402

KSO = str(REPO / "kso")
FIX = REPO / "fixtures"


def kso(*args, ok=(0,)):
    p = subprocess.run([KSO, *map(str, args)], capture_output=True,
                       timeout=300)
    if p.returncode not in ok:
        sys.exit(f"kso {' '.join(map(str, args))}: {p.stderr.decode()}")
    return p.stdout


def main():
    with tempfile.TemporaryDirectory(prefix="kso-shots-") as d:
        d = pathlib.Path(d)
        db = d / "greedy.db"
        kso("enum", FIX / "universes/greedy-gpu.yaml", "--mode", "reachable",
            "--greedy-gap", "--db", db, "--quiet")
        pages = {
            "explain": (["explain", FIX / "seeds/node-affinity-zones.yaml",
                         "-o", "html"], (0,)),
            "schedule": (["schedule", FIX / "html/schedule-run.yaml", "-o",
                          "html"], (0,)),
            "check": (["check", FIX / "check/watch-log.jsonl", "-o", "html"],
                      (1,)),
            "report": (["report", db], (0,)),
        }
        for name, (args, ok) in pages.items():
            page = d / f"{name}.html"
            page.write_bytes(kso(*args, ok=ok))
            png = REPO / "doc" / f"html-{name}.png"
            browser.assert_seen(browser.screenshot(page, png))
            print(png.relative_to(REPO))


if __name__ == "__main__":
    main()
