"""
browser.py - kso's -o html pages as a person sees them: headless Chromium
(Debian's `chromium`, installed by scripts/setup.sh) takes a screenshot
of a page and dumps its DOM after load.  The one place the tests start a
browser.

Without chromium the HTML tests are skipped on a developer's machine and
FAIL in CI (CI=true): the report must be seen in a real browser there.
The network is never used: every page is a local file and the flags turn
off Chromium's background traffic.
"""
import os
import pathlib
import shutil
import struct
import subprocess
import tempfile
import zlib

import pytest

WIDTH, HEIGHT = 1280, 900
TIMEOUT = 120  # a hang guard: the machine is shared

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync",
         "--disable-extensions", "--hide-scrollbars",
         f"--window-size={WIDTH},{HEIGHT}"]

# Appended to a copy of the page before --dump-dom: marks on <body> what
# the reader would see wrong, measured by the browser's own layout:
# data-overflow counts table cells whose text is wider than the cell, and
# data-page-width is how wide the page is laid out (more than the window
# means a horizontal scroll bar).
PROBE = """<script>
(function(){
  var bad = [];
  document.querySelectorAll('td, th').forEach(function(c){
    if (c.offsetParent === null) return;        /* folded away */
    if (c.scrollWidth > c.clientWidth + 1) bad.push(c.textContent.slice(0, 60));
  });
  document.body.setAttribute('data-overflow', String(bad.length));
  document.body.setAttribute('data-overflow-cells', bad.join(' | '));
  document.body.setAttribute('data-page-width',
                             String(document.documentElement.scrollWidth));
})();
</script>"""


def chromium():
    """The chromium binary; skips (fails under CI=true) when absent."""
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path:
        return path
    msg = "chromium is not installed (scripts/setup.sh installs it)"
    if os.environ.get("CI", "").lower() in ("true", "1", "yes"):
        pytest.fail(msg)
    pytest.skip(msg)


def _run(args):
    browser = chromium()
    with tempfile.TemporaryDirectory(prefix="kso-chromium-") as profile:
        r = subprocess.run([browser, *FLAGS, f"--user-data-dir={profile}",
                            *args], capture_output=True, timeout=TIMEOUT)
    assert r.returncode == 0, f"chromium {args} exited {r.returncode}: " \
        f"{r.stderr.decode(errors='replace')[-2000:]}"
    return r


def dump_dom(page):
    """The DOM of page (an HTML file) after load, with PROBE's marks on
    <body>, as text."""
    page = pathlib.Path(page)
    html = page.read_text(encoding="utf-8")
    assert "</body>" in html, f"{page} has no </body>"
    with tempfile.TemporaryDirectory(prefix="kso-page-") as d:
        probed = pathlib.Path(d) / page.name
        probed.write_text(html.replace("</body>", PROBE + "</body>", 1),
                          encoding="utf-8")
        r = _run(["--dump-dom", probed.as_uri()])
    return r.stdout.decode("utf-8")


def screenshot(page, png):
    """A WIDTH x HEIGHT screenshot of page into png; returns its pixels
    (decode_png)."""
    png = pathlib.Path(png)
    _run([f"--screenshot={png}", pathlib.Path(page).resolve().as_uri()])
    assert png.is_file(), f"chromium wrote no screenshot {png}"
    return decode_png(png.read_bytes())


def decode_png(data):
    """(width, height, rows): rows a list of bytes objects of RGB(A)
    pixels, for 8-bit truecolour non-interlaced PNGs (what Chromium
    writes)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, ihdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    w, h, depth, colour, _, _, interlace = ihdr
    assert depth == 8 and colour in (2, 6) and interlace == 0, ihdr
    bpp = 3 if colour == 2 else 4
    raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], bytes(w * bpp)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc
                                      else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def colours(pixels, step=4):
    """The distinct colours of every step-th pixel of every step-th row."""
    w, h, bpp, rows = pixels
    seen = set()
    for y in range(0, h, step):
        r = rows[y]
        for x in range(0, w, step):
            seen.add(r[x * bpp:x * bpp + 3])
    return seen


def assert_seen(png_pixels):
    """The screenshot is the window's size and not blank: a page of text,
    coloured cells and badges has many colours, a blank one one."""
    w, h, _, _ = png_pixels
    assert (w, h) == (WIDTH, HEIGHT)
    assert len(colours(png_pixels)) > 20, "the screenshot is (nearly) blank"


def body_marks(dom):
    """PROBE's marks: (cells overflowing, their texts, page width)."""
    import re
    m = re.search(r'<body[^>]*data-overflow="(\d+)"[^>]*'
                  r'data-overflow-cells="([^"]*)"[^>]*data-page-width="(\d+)"',
                  dom)
    assert m, "the probe did not run (no marks on <body>)"
    return int(m.group(1)), m.group(2), int(m.group(3))


# ------------------------------------------------------------- the DOM

class Element:
    """One element of a parsed page: tag, attrs (dict), children
    (Elements and strings)."""

    def __init__(self, tag, attrs, parent=None):
        self.tag, self.attrs, self.children, self.parent = \
            tag, dict(attrs), [], parent

    def text(self):
        return "".join(c if isinstance(c, str) else c.text()
                       for c in self.children)

    def classes(self):
        return (self.attrs.get("class") or "").split()

    def iter(self):
        yield self
        for c in self.children:
            if isinstance(c, Element):
                yield from c.iter()

    def find_all(self, tag=None, cls=None, **attrs):
        """Descendants (and self) with tag, class cls and attrs (names
        with _ for -: data_node="x")."""
        want = {k.replace("_", "-"): v for k, v in attrs.items()}
        return [e for e in self.iter()
                if (tag is None or e.tag == tag)
                and (cls is None or cls in e.classes())
                and all(e.attrs.get(k) == v for k, v in want.items())]

    def find(self, tag=None, cls=None, **attrs):
        found = self.find_all(tag, cls, **attrs)
        assert found, f"no <{tag} class={cls} {attrs}> in the page"
        return found[0]


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
        "meta", "source", "track", "wbr"}


def parse(text):
    """The element tree of an HTML text (the browser's --dump-dom, or a
    page as kso wrote it)."""
    from html.parser import HTMLParser

    class P(HTMLParser):
        def __init__(self):
            super().__init__(convert_charrefs=True)
            self.root = self.cur = Element("#document", {})

        def handle_starttag(self, tag, attrs):
            e = Element(tag, attrs, self.cur)
            self.cur.children.append(e)
            if tag not in VOID:
                self.cur = e

        def handle_startendtag(self, tag, attrs):
            self.cur.children.append(Element(tag, attrs, self.cur))

        def handle_endtag(self, tag):
            e = self.cur
            while e is not self.root and e.tag != tag:
                e = e.parent
            if e is not self.root:
                self.cur = e.parent

        def handle_data(self, data):
            self.cur.children.append(data)

    p = P()
    p.feed(text)
    p.close()
    return p.root
