"""The visual grammar is written once, in :mod:`ssi.plotting`, and every figure reads it.

The grammar (docs/figures.md): SGD as markers with error bars, the ODE as a solid line, the
paper's law as a grey dashed line, a threshold as a grey dotted line, a fitted law as a thin
dash-dotted line; one colour (and, for networks, one marker) per concept. Two checks:

* the grammar's own tables give each role its own line style and each concept its own
  (colour, marker), so that no style means two things;
* no figure module writes a colour or a line style of its own: every ``color=``/``ls=`` (and the
  like) takes a name from :mod:`ssi.plotting`, so that one concept cannot get two styles in two
  figures. White and "none" (boxes behind text, hollow markers) are not styles.

The case it catches: before the grammar, the figure modules held 34 literal colours and 42
literal line styles; the ODE was drawn orange, black dashed, grey dashed or dotted depending on
the figure, and dotted meant a law in one figure and the 2/√d level in another.
"""
from __future__ import annotations

import ast
from pathlib import Path

from ssi import plotting

ROOT = Path(__file__).resolve().parents[2]
#: keyword arguments (and dict keys) that set a colour or a line style
COLOUR_KEYS = {"color", "c", "colors", "facecolor", "edgecolor", "fc", "ec", "mfc", "mec",
               "markerfacecolor", "markeredgecolor", "ecolor"}
STYLE_KEYS = {"ls", "linestyle", "linestyles"}
#: values that are not a style: no line, no fill, the white box behind a text
NOT_A_STYLE = {"none", "None", "", "white", "w"}


def figure_modules() -> list[Path]:
    """The modules that draw figures: every module of the package that saves one, but the grammar's own."""
    return sorted(p for p in (ROOT / "src/ssi").rglob("*.py")
                  if p.name != "plotting.py" and ("save_figure" in p.read_text() or "new_figure" in p.read_text()))


def literal_styles(path: Path, root: Path = ROOT) -> list[str]:
    """Every colour or line style written as a string literal in ``path`` (keyword arguments and
    dict entries), as "file:line key=value" (the file relative to ``root``)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        pairs = []
        if isinstance(node, ast.Call):
            pairs = [(k.arg, k.value) for k in node.keywords if k.arg]
        elif isinstance(node, ast.Dict):
            pairs = [(k.value, v) for k, v in zip(node.keys, node.values)
                     if isinstance(k, ast.Constant) and isinstance(k.value, str)]
        for key, value in pairs:
            if (key in COLOUR_KEYS | STYLE_KEYS and isinstance(value, ast.Constant) and isinstance(value.value, str)
                    and value.value not in NOT_A_STYLE):
                found.append(f"{path.relative_to(root)}:{value.lineno} {key}={value.value!r}")
    return found


def test_each_role_has_its_own_line_style():
    roles = {"ODE": plotting.ODE_STYLE, "law": plotting.LAW_STYLE, "threshold": plotting.THRESHOLD_STYLE,
             "fit": plotting.FIT_STYLE, "SGD": plotting.SGD_STYLE}
    styles = {name: style["linestyle"] for name, style in roles.items()}
    assert len(set(styles.values())) == len(styles), styles
    assert plotting.SGD_STYLE["linestyle"] == "none" and "marker" in plotting.SGD_STYLE   # SGD: markers only
    assert plotting.LAW_STYLE["color"] == plotting.THRESHOLD_STYLE["color"] == plotting.GUIDE


def test_each_network_has_its_own_colour_and_marker():
    networks = ("tied", "untied", "attention")
    assert len({plotting.COLOURS[n] for n in networks}) == len(networks)
    assert len({plotting.MARKERS[n] for n in networks}) == len(networks)
    assert len(set(plotting.SIE_COLOURS.values())) == len(plotting.SIE_COLOURS)
    assert len(set(plotting.REGION_COLOURS)) == len(plotting.REGION_COLOURS)


def test_no_figure_module_writes_a_style_of_its_own():
    modules = figure_modules()
    assert len(modules) >= 8, modules          # the figure modules are found
    found = [hit for path in modules for hit in literal_styles(path)]
    assert found == [], "use the names of ssi.plotting (docs/figures.md):\n" + "\n".join(found)


def test_a_literal_style_is_found(tmp_path):
    """What the check reads: a literal colour and dash in a call and in a dict are reported; a
    name, white and "none" are not."""
    module = tmp_path / "figure.py"
    module.write_text('ax.plot(x, y, color="#E69F00", ls="--")\nkw = {"linestyle": ":", "fc": "white"}\n'
                      'ax.plot(x, y, color=COLOURS["ode"], ls="none")\n')
    found = literal_styles(module, root=tmp_path)
    assert found == ["figure.py:1 color='#E69F00'", "figure.py:1 ls='--'", "figure.py:2 linestyle=':'"]


def test_marks_with_one_meaning_are_distinct():
    """The marks that carry one meaning in every figure (a share of runs, the median replicate, the
    explicit engine, the ODE leaving the axis, each learning-rate protocol but the plain one) are
    pairwise distinct and none is a network's marker.

    The case it catches: the share of runs not escaped was "v", as was the ODE leaving the axis and
    the authors' √L protocol; the explicit engine's open square was the untied network's marker."""
    special = {"share": plotting.SHARE_MARKER, "median": plotting.MEDIAN_MARKER,
               "explicit": plotting.EXPLICIT_STYLE["marker"], "ODE exit": plotting.ODE_EXIT_STYLE["marker"]}
    special |= {p: plotting.protocol_marker(p) for p in plotting.PROTOCOL_STYLE if p != "same_lr"}
    assert len(set(special.values())) == len(special), special
    assert not set(special.values()) & set(plotting.MARKERS.values()), special
    assert plotting.protocol_marker("same_lr") == plotting.MARKERS["sgd"]      # the plain SGD mark


def test_an_ordered_parameter_is_shades_of_one_colour():
    """A few values of an ordered parameter (d, L) are shades of the series' colour, lightest for
    the smallest, the last the colour itself: no palette colour, which would name a concept.

    The case it catches: the two-phases figure gave d = 10³ vermilion (the untied network's colour)
    and d = 10⁵ reddish purple (SIE 4's)."""
    from matplotlib.colors import to_rgb

    shades = plotting.shades(plotting.BLACK, 4)
    assert shades[-1] == to_rgb(plotting.BLACK)
    lightness = [sum(s) for s in shades]
    assert lightness == sorted(lightness, reverse=True) and len(set(lightness)) == 4
    palette = {tuple(round(c, 6) for c in p) for p in plotting.PALETTE} - {to_rgb(plotting.BLACK)}
    assert not {tuple(round(c, 6) for c in s) for s in shades} & palette
