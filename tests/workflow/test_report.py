"""`snakemake --report` on the quick config: every figure with its caption and every key-numbers
table is in the report, and headless Chromium displays each figure (docs/reproducibility.md,
"The report"). The screenshots are kept in test-artifacts/report/ (or $SSI_TEST_ARTIFACTS/report/)."""
from __future__ import annotations

import base64
import json
import os
import re
from pathlib import Path

import pytest
import yaml

from support.facilities import require
from support.headless import Browser, find_chromium
from support.quickrun import QUICK, ROOT, completed_quick_run, snakemake

pytestmark = pytest.mark.slow

ARTIFACTS = Path(os.environ.get("SSI_TEST_ARTIFACTS", ROOT / "test-artifacts")) / "report"


def embedded(html: str, name: str) -> dict:
    """The JSON object that the report embeds as ``var <name> = {...};``."""
    match = re.search(rf"var {name} = (\{{.*?\}});\s*</script>", html, re.S)
    assert match, f"no `var {name}` in the report"
    return json.loads(match[1])


@pytest.fixture(scope="module")
def report(quick_cores2, tmp_path_factory):
    workdir = completed_quick_run(quick_cores2, tmp_path_factory)
    path = tmp_path_factory.mktemp("report") / "report.html"
    snakemake(workdir, "--report", path, "--configfile", QUICK)
    html = path.read_text()
    config = yaml.safe_load((ROOT / QUICK).read_text())
    return {"path": path, "html": html, "results": embedded(html, "results"), "workdir": workdir, "config": config}


def test_report_has_every_figure_with_its_caption(report):
    """Every PNG figure of the run is a report item (PNG, so that a browser shows it inline) whose
    caption is its workflow/report/*.rst rendered; every numbers file has its key-numbers table."""
    figures = Path(report["workdir"], report["config"]["figures_dir"])
    pngs = sorted(p.name for p in figures.glob("*.png"))
    assert len(pngs) >= 5
    items = {Path(k).name: v for k, v in report["results"].items()}
    for name in pngs:
        assert name in items, f"{name} is not in the report"
        assert items[name]["mime_type"] == "image/png"
        caption = (ROOT / "workflow/report" / name.replace(".png", ".rst")).read_text()
        first_words = " ".join(caption.split()[:6])
        text = re.sub(r"<[^>]+>", "", items[name]["caption"])
        assert " ".join(text.split()[:6]) == first_words, f"{name}: caption {text[:80]!r}"
    for numbers in sorted((figures / "numbers").glob("*.json")):
        item = items.get(f"{numbers.stem}_numbers.html")
        assert item is not None, f"no key-numbers table for {numbers.name}"
        table = base64.b64decode(item["data_uri"].split(",", 1)[1]).decode()
        record = json.loads(numbers.read_text())
        for key in (k for k in record if k != "provenance"):     # a row per top-level entry
            assert f"<td>{key}" in table, f"{numbers.name}: {key} missing from the table"
        for name, version in record["provenance"]["packages"].items():
            assert f"<td>packages.{name}</td><td class=\"v\">{version}</td>" in table


DISPLAY = """(async (path) => {
  const entry = results[path];
  app.setView({navbarMode: "resultinfo", resultPath: path, content: "img", contentPath: entry.data_uri});
  for (let i = 0; i < 200; i++) {
    await new Promise(r => setTimeout(r, 50));
    const img = [...document.querySelectorAll("img")].find(x => x.src === entry.data_uri);
    if (img && img.complete && img.naturalWidth > 0) {
      const box = img.getBoundingClientRect();
      return {shown: true, naturalWidth: img.naturalWidth, width: box.width, height: box.height,
              text: document.body.innerText};
    }
  }
  return {shown: false, text: document.body.innerText};
})(%s)"""


def test_chromium_displays_every_figure(report):
    """Headless Chromium (no network) opens the report, shows each figure through the report's own
    view, and the image decodes (naturalWidth > 0) at a visible size, with its caption beside it.
    A screenshot per figure is kept in test-artifacts/report/. Skips without Chromium (fails
    under CI: tests/support/facilities.py)."""
    require(find_chromium() is not None, "headless Chromium is not installed (Debian: apt-get install -y chromium)")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    figures = [p for p, v in report["results"].items() if v["mime_type"] == "image/png"]
    assert figures
    with Browser() as browser:
        browser.open(report["path"].resolve().as_uri())
        assert browser.evaluate("typeof app") == "object", "the report's app did not start"
        for path in figures:
            shown = browser.evaluate(DISPLAY % json.dumps(path))
            browser.screenshot(ARTIFACTS / f"{Path(path).stem}.png")
            assert shown["shown"], f"{path} was not displayed"
            assert shown["width"] > 200 and shown["height"] > 100, (path, shown["width"], shown["height"])
            caption = re.sub(r"<[^>]+>", "", report["results"][path]["caption"])
            assert " ".join(caption.split()[:6]) in " ".join(shown["text"].split()), path
