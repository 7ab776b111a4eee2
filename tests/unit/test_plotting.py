"""The figure style (ssi.plotting): words for every registry key, mathtext numbers and laws,
deterministic bytes, a cheap import; the summary figure drawn from claim rows built here."""
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from ssi import plotting, problems
from support.figure_checks import saved_figure_problems

ROOT = Path(__file__).resolve().parents[2]


def _outside_math(text):
    return "".join(re.split(r"(?<!\\)\$", text)[0::2])


def test_every_registry_key_and_configured_name_has_words():
    keys = set(problems.TARGETS) | set(problems.STUDENTS) | set(problems.ACTIVATIONS)
    keys |= set(problems.POSITIONAL_ENCODINGS) - {"orthonormal"}
    for name in ("config.yaml", "authors.yaml"):
        config = yaml.safe_load((ROOT / "config" / name).read_text())
        for spec in config.get("authors", {}).get("experiments", {}).values():
            keys |= {spec["target"], *spec["students"]}
    missing = sorted(k for k in keys if k not in plotting.LABELS)
    assert not missing, f"no words for {missing} in ssi.plotting.LABELS"
    for key in keys:
        words = plotting.label(key)
        assert "_" not in _outside_math(words) and "^" not in _outside_math(words), (key, words)
        assert words.count("$") % 2 == 0


def test_unknown_key_names_itself():
    with pytest.raises(ValueError, match="no label for 'he9_sum'"):
        plotting.label("he9_sum")


@pytest.mark.parametrize("value, text", [(0.5, "0.5"), (300, "300"), (2.5e7, r"$2.5\times10^{7}$"),
                                         (1e5, "$10^{5}$"), (0.0022, "0.0022"), (1.2e-4, r"$1.2\times10^{-4}$")])
def test_numbers_are_mathtext_never_e_notation(value, text):
    assert plotting.number(value) == text


def test_law_and_verdict_line():
    assert plotting.law("L", 1.4912, 1.47, 1.514) == r"$L^{1.49\,[1.47,\,1.51]}$"
    assert plotting.law("d", 0.5) == "$d^{0.50}$"
    assert plotting.verdict_line(plotting.law("L", 1.49, 1.47, 1.51), "$L^{2}$") == \
        r"measured $L^{1.49\,[1.47,\,1.51]}$ · paper $L^{2}$"
    assert plotting.schedule_tex({"lr": 0.0022, "scaling": "power", "exponent": -0.5, "d_ref": 1000}) == \
        r"$\eta = 0.0022\,(d/1000)^{-0.5}$"


def test_saving_is_byte_deterministic(tmp_path):
    import matplotlib.pyplot as plt

    paths = []
    for i in range(2):
        fig, ax = plotting.new_figure(width=plotting.WIDTH_SINGLE)
        ax.plot([1, 2, 3], [1, 4, 9], "o-", color=plotting.BLUE, label="$L^{2}$")
        ax.set_xlabel("$L$")
        ax.set_ylabel("steps")
        plotting.place_legend(ax)
        for ext in ("png", "pdf"):
            paths.append(tmp_path / f"f{i}.{ext}")
            plotting.save_figure(fig, paths[-1])
        plt.close(fig)
    assert paths[0].read_bytes() == paths[2].read_bytes() and paths[1].read_bytes() == paths[3].read_bytes()


def test_undrawn_figures_are_neither_drawn_nor_checked_nor_saved(tmp_path, monkeypatch):
    import matplotlib.pyplot as plt

    fig, ax = plotting.new_figure(width=plotting.WIDTH_SINGLE)
    ax.plot([1, 2, 3], [1, 4, 9], "o-", label="x_raw^caret")      # illegible: would be refused when saved
    monkeypatch.setattr(type(fig), "draw", lambda *args: pytest.fail("an undrawn figure was drawn"))
    with plotting.undrawn():
        legend = plotting.place_legend(ax)
        plotting.place_legends([(ax, {})])
        plotting.save_figure(fig, tmp_path / "f.png")
    plt.close(fig)
    assert legend.get_texts()[0].get_text() == "x_raw^caret"
    assert not (tmp_path / "f.png").exists()


def test_figure_style_does_not_import_seaborn_or_pandas():
    # every figure job would pay their import (~1 s) for nothing
    code = "import sys, ssi.plotting, ssi.legibility; print('seaborn' in sys.modules, 'pandas' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False False"


# --- the summary figure -----------------------------------------------------------------------------
def _verdict_rows():
    from ssi import verdicts

    return verdicts.rows_of(verdicts.load(ROOT / "figures" / "VERDICTS.json"))


def _numbers():
    return {p.stem: json.loads(p.read_text()) for p in sorted((ROOT / "figures/numbers").glob("*.json"))}


def test_summary_draws_one_mark_per_claim_row_with_its_verdict(tmp_path, monkeypatch):
    """Every row of the verdict file gets one mark in its verdict's colour and marker and its verdict
    word; a claim with a row that differs shows "differs" for it (the six-panel summary averaged C4's
    "differs" row into "partly")."""
    from ssi.experiments import summary

    figures = []
    monkeypatch.setattr(plotting, "save_figure", lambda fig, path: figures.append(fig))
    rows = _verdict_rows()
    summary.plot(rows, _numbers(), [tmp_path / "summary.png"])
    board = figures[0].axes[0]
    marks = [line for line in board.get_lines() if line.get_marker() not in ("None", "", None)]
    assert len(marks) == len(rows)
    by_marker = {marker: word for word, (marker, _) in plotting.VERDICT_MARKERS.items()}
    shown = sorted(by_marker[line.get_marker()] for line in marks)
    assert shown == sorted(r["verdict"] for r in rows)
    for line in marks:
        word = by_marker[line.get_marker()]
        assert summary.VERDICTS[int(line.get_xdata()[0])] == word
        assert line.get_markeredgecolor() == plotting.VERDICT_STYLE[word][0]
    text = " ".join(t.get_text() for t in figures[0].findobj(plotting.matplotlib.text.Text))
    for row in rows:
        assert summary._row_name(row) in text
    assert text.count("differs") >= sum(r["verdict"] == "differs" for r in rows)


def test_summary_verdict_styles_are_four():
    """Four verdicts, four colours and four markers (reproduced and reproduced asymptotically were
    both green)."""
    words = list(plotting.VERDICT_STYLE)
    assert len({plotting.VERDICT_STYLE[w][0] for w in words}) == len(words) == 4
    assert len({plotting.VERDICT_MARKERS[w][0] for w in words}) == 4


def test_summary_verdict_of_a_claim_from_its_rows():
    """A claim with a row that differs shows "differs" (it showed "partly": C4's rows reproduced,
    differs, reproduced averaged away); rows that disagree otherwise are counted by verdict."""
    from ssi.experiments import summary

    def rows(*words):
        return [{"claim": "C4", "row": f"C4 tied vs untied, SIE {k}", "verdict": w, "headline": "h"}
                for k, w in enumerate(words, 1)]

    assert summary.panel_text(rows("reproduced", "reproduced"))[2] == "reproduced"
    title, head, verdict, _ = summary.panel_text(rows("reproduced", "differs", "reproduced"))
    assert verdict == "differs" and "differs" in head
    title, head, verdict, note = summary.panel_text(rows("reproduced", "undecided"))
    assert verdict is None and head == "rows split: 1 ✓, 1 ?" and "…" not in note


def _two_phases_with_gaps():
    """two_phases numbers with the C6 statistic: SIE 1 falling like d^(-1/2), SIE 2 flat, SIE 3 left out."""
    rows, fits = [], []
    for case, rate in (("sie1", 0.5), ("sie2", 0.0)):
        for d in (100, 1000, 10000, 100000):
            rows.append({"case": case, "d": d, "gap_sup": 0.1 * (d / 100) ** -rate, "gap_sup_se": 0.002,
                         "escaped_replicates": 64, "replicates": 64})
        fits.append({"case": case, "dims": [100, 1000, 10000, 100000], "excluded": None, "expected_rate": 0.5,
                     "prefactor": 0.1 * 100 ** rate, "rate": rate, "rate_low": rate - 0.05, "rate_high": rate + 0.05})
    rows.append({"case": "sie3", "d": 1000, "gap_sup": None, "gap_sup_se": None, "escaped_replicates": 9,
                 "replicates": 16})
    fits.append({"case": "sie3", "dims": [1000], "excluded": "one dimension"})
    return {"rows": rows, "gap_fits": fits}


def test_summary_c6_plots_the_statistic_of_its_verdict(monkeypatch, tmp_path):
    """C6's panel draws, per compared case, the gap of the mean trajectory at each d (the statistic
    C6's verdict fits) with its fitted rate in the legend, names the case left out with its escaped
    count, and titles the panel with the verdict file's C6 verdict (the six-panel summary drew
    |t_SGD mean curve − t_ODE| bars, 7.8/4.6/17.3 %, not the numbers its verdict rested on)."""
    from ssi.experiments import summary

    figures = []
    monkeypatch.setattr(plotting, "save_figure", lambda fig, path: figures.append(fig))
    rows = _verdict_rows()
    numbers = dict(_numbers(), two_phases=_two_phases_with_gaps())
    summary.plot(rows, numbers, [tmp_path / "summary.png"])
    panel = figures[0].axes[1]
    drawn = sorted(round(float(y), 6) for line in panel.get_lines() if line.get_marker() in ("o", "s")
                   for y in line.get_ydata())
    expected = sorted(round(r["gap_sup"], 6) for r in numbers["two_phases"]["rows"] if r["gap_sup"] is not None)
    assert drawn == expected
    legend = " ".join(t.get_text() for t in panel.get_legend().get_texts())
    assert "r$ = 0.50 [0.45, 0.55]" in legend and "r$ = 0.00 [-0.05, 0.05]" in legend
    assert "SIE 3 not compared (9/16 escaped)" in legend
    c6 = next(r for r in rows if r["claim"] == "C6")
    assert panel.get_title() == f"C6: {c6['verdict']}"


def test_summary_refuses_an_unknown_verdict(tmp_path):
    from ssi.experiments import summary

    rows = _verdict_rows()
    rows[0]["verdict"] = "yes"
    with pytest.raises(ValueError, match="verdict \\['yes'\\]"):
        summary.plot(rows, _numbers(), [tmp_path / "summary.png"])


def test_summary_type_check_catches_small_and_cut_text():
    """check_type reports a 4-pt text and a text cut off with "…" before anything is saved."""
    import matplotlib.pyplot as plt

    from ssi.experiments import summary

    fig = plt.figure(figsize=(3, 1))
    fig.text(0.1, 0.5, "small", fontsize=4)
    fig.text(0.1, 0.2, "cut …", fontsize=7)
    with pytest.raises(ValueError, match="4 pt.*cut off"):
        summary.check_type(fig)
    plt.close(fig)


def test_summary_figure_is_legible(tmp_path):
    """The figure object itself, as save_figure sees it (no problem in any check)."""
    from ssi.experiments import summary

    found = saved_figure_problems(lambda: summary.plot(_verdict_rows(), _numbers(), [tmp_path / "summary.png"]))
    assert found == {"summary": []}
