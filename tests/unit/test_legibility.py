"""The figure checks (tests/support/figure_checks.py): each check fails on a figure made to break
it and passes on the same figure drawn as ssi.plotting draws it; the colour model against
published values."""
import numpy as np
import pytest

from ssi import legibility, plotting
from support import figure_checks
from support.figure_checks import colour_distance, problems, simulate_vision, to_lab


@pytest.fixture
def fig_ax():
    import matplotlib.pyplot as plt

    fig, ax = plotting.new_figure(width=plotting.WIDTH_SINGLE, height=2.4)
    yield fig, ax
    plt.close(fig)


def _labelled(ax):
    ax.set_xlabel("$x$")
    ax.set_ylabel("value")


def _kinds(found):
    return " | ".join(found)


# --- colour model -------------------------------------------------------------------------------
def test_lab_matches_published_values():
    # CIELAB (D65) of sRGB white and red (e.g. Bruce Lindbloom's calculator): (100, 0, 0), (53.24, 80.09, 67.20)
    assert np.allclose(to_lab([1.0, 1.0, 1.0]), [100, 0, 0], atol=0.02)
    assert np.allclose(to_lab([1.0, 0.0, 0.0]), [53.24, 80.09, 67.20], atol=0.05)


@pytest.mark.parametrize("vision", ["deuteranopia", "protanopia", "tritanopia"])
def test_simulation_keeps_greys_and_confuses_the_right_pair(vision):
    # Machado et al. (2009): every row of a matrix sums to 1, so greys are seen as they are
    for grey in (0.0, 0.3, 0.7, 1.0):
        assert np.allclose(simulate_vision([grey] * 3, vision), grey, atol=2e-3)
    red_green = colour_distance("#ff0000", "#00ff00", vision)
    blue_yellow = colour_distance("#0000ff", "#ffff00", vision)
    if vision == "tritanopia":
        assert blue_yellow < 0.75 * colour_distance("#0000ff", "#ffff00")
    else:
        assert red_green < 0.5 * colour_distance("#ff0000", "#00ff00")


def test_figure_colours_are_far_apart_in_every_vision():
    """The colours one figure shows side by side (the figure's series, the phase-diagram regions)."""
    groups = {"SIE": list(plotting.SIE_COLOURS.values()),
              "networks": [plotting.COLOURS[k] for k in ("tied", "untied", "attention")],
              "semantic/positional": [plotting.COLOURS["semantic"], plotting.COLOURS["positional"]],
              "SGD/ODE": [plotting.COLOURS["sgd"], plotting.COLOURS["ode"]],
              "regions": list(plotting.REGION_COLOURS)}
    for name, colours in groups.items():
        dist, vision, i, j = figure_checks.closest_pair(colours)
        assert dist >= figure_checks.MIN_COLOUR_DISTANCE, (name, vision, colours[i], colours[j], dist)


def test_old_phase_diagram_colours_fail():
    old = ("#339966", "#cc3300", "#ffcc00", "#3333ff", "#66ff33", "#ff9966", "#ff5050", "#99ccff")
    dist, vision, *_ = figure_checks.closest_pair(old)
    assert dist < figure_checks.MIN_COLOUR_DISTANCE and vision in ("deuteranopia", "protanopia")


# --- each check, failing then passing -------------------------------------------------------------
def test_legend_over_data(fig_ax):
    fig, ax = fig_ax
    x = np.linspace(0, 1, 50)
    ax.plot(x, 0.5 + 0 * x, color=plotting.BLUE, label="flat")
    ax.plot(x, x, color=plotting.ORANGE, label="rising")
    _labelled(ax)
    ax.legend(loc="center")
    assert "covers plotted data" in _kinds(problems(fig))
    plotting.place_legend(ax)
    assert "covers plotted data" not in _kinds(problems(fig))


def test_markers_only_series_under_a_legend(fig_ax):
    fig, ax = fig_ax
    ax.plot([0.02, 0.05], [0.95, 0.9], "o", color=plotting.BLUE, label="points")
    ax.plot([0.5, 1.0], [0.0, 0.1], "s", color=plotting.VERMILION, label="other")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    _labelled(ax)
    ax.legend(loc="upper left")
    assert "covers plotted data" in _kinds(problems(fig))


def test_text_over_text_and_off_the_figure(fig_ax):
    fig, ax = fig_ax
    _labelled(ax)
    ax.text(0.5, 0.5, "one label", transform=ax.transAxes)
    ax.text(0.5, 0.5, "another label", transform=ax.transAxes)
    assert "overlaps text" in _kinds(problems(fig))
    ax.texts[1].set_position((0.5, 0.2))
    assert "overlaps text" not in _kinds(problems(fig))
    ax.text(0.9, 0.9, "a sentence far too long to stay inside the figure", transform=ax.transAxes, in_layout=False)
    assert "runs off the figure" in _kinds(problems(fig))


@pytest.mark.parametrize("text", ["he2_sum_norm", "gain T_untied / T_tied", "(d/1000)^-0.5", "L^1.00"])
def test_code_names_and_carets(fig_ax, text):
    fig, ax = fig_ax
    _labelled(ax)
    ax.set_title(text)
    assert "raw" in _kinds(problems(fig))
    ax.set_title(r"gain $T_{\mathrm{untied}}/T_{\mathrm{tied}}$, $L^{1.00}$, $d^{-1/2}$")
    assert "raw" not in _kinds(problems(fig))


def test_log_axis_under_a_decade(fig_ax):
    fig, ax = fig_ax
    ax.plot([1, 2, 4, 7], [1, 2, 3, 4], "o", color=plotting.BLUE)
    ax.set_xscale("log")
    ax.set_xlim(0.9, 8)
    _labelled(ax)
    assert "spans less than a decade" in _kinds(problems(fig))
    plotting.plain_log_ticks(ax)
    assert "spans less than a decade" not in _kinds(problems(fig))


def test_every_axis_labelled_one_line_titles_unrotated_symbols(fig_ax):
    fig, ax = fig_ax
    ax.plot([0, 1], [0, 1], color=plotting.BLUE)
    ax.set_title("first line\nsecond line")
    ax.set_ylabel(r"$\omega$")
    found = _kinds(problems(fig))
    assert "x axis" in found and "no label" in found
    assert "more than one line" in found and "rotated" in found
    ax.set_xlabel("$a$")
    ax.set_title("one line")
    ax.set_ylabel(r"$\omega$", rotation=0)
    assert problems(fig) == []


def test_colour_distance_of_series(fig_ax):
    fig, ax = fig_ax
    _labelled(ax)
    # seaborn's "colorblind" orange and vermilion: ΔE 12.6 under deuteranopia
    a, = ax.plot([0, 1], [0, 1], color="#DE8F05", label="SIE 2")
    ax.plot([0, 1], [1, 0], color="#D55E00", label="SIE 4")
    assert "ΔE" in _kinds(problems(fig))
    a.set_color(plotting.SIE_COLOURS[2])
    ax.lines[1].set_color(plotting.SIE_COLOURS[4])
    assert "ΔE" not in _kinds(problems(fig))


def test_categories_of_a_phase_diagram(fig_ax):
    from matplotlib.colors import ListedColormap

    fig, ax = fig_ax
    _labelled(ax)
    regions = np.arange(8).reshape(2, 4)
    old = ("#339966", "#cc3300", "#ffcc00", "#3333ff", "#66ff33", "#ff9966", "#ff5050", "#99ccff")
    mesh = ax.pcolormesh(regions, cmap=ListedColormap(old), vmin=-0.5, vmax=7.5)
    assert "categories" in _kinds(problems(fig))
    mesh.set_cmap(ListedColormap(plotting.REGION_COLOURS))
    assert "categories" not in _kinds(problems(fig))


# --- legend entries without data ------------------------------------------------------------------
def _entries(found):
    return [s for s in found if "matches nothing drawn" in s]


@pytest.fixture
def two_panels():
    import matplotlib.pyplot as plt

    fig, axes = plotting.new_figure(ncols=2, width=plotting.WIDTH_DOUBLE, height=2.4)
    yield fig, axes
    plt.close(fig)


def test_legend_entry_for_a_series_not_drawn(fig_ax):
    """A proxy ``Line2D([], [], color=vermilion)`` for "untied" when only the tied series is
    drawn, and a labelled artist with empty data (``ax.plot([], [], label=...)``): neither names
    anything on the panel. Drawing the untied series (as error-bar points and its ODE line) mends
    the first; the empty one stays."""
    from matplotlib.lines import Line2D

    fig, ax = fig_ax
    _labelled(ax)
    x = np.linspace(1, 2, 5)
    ax.plot(x, x, color=plotting.BLUE, marker="o", label="tied")
    ax.plot([], [], color=plotting.GREEN, label="attention")
    proxy = Line2D([], [], color=plotting.VERMILION, marker="s", label="untied")
    ax.legend(handles=[*ax.get_legend_handles_labels()[0], proxy], loc="upper left", bbox_to_anchor=(1, 1))
    found = _entries(problems(fig))
    assert len(found) == 2 and "'attention'" in found[0] and "'untied'" in found[1], found
    assert "marker #d55e00" in found[1] and "line #d55e00" in found[1]
    ax.errorbar(x, 2 * x, yerr=0.1 * x, color=plotting.VERMILION, marker="s", ls="none")
    ax.plot(x, 2 * x, color=plotting.VERMILION)
    found = _entries(problems(fig))
    assert len(found) == 1 and "'attention'" in found[0], found


@pytest.mark.parametrize("key, drawn", [
    ({"marker": "s"}, {"marker": "o"}),                                   # another shape
    ({"marker": "o", "mfc": "white"}, {"marker": "o"}),                   # open key, filled points
    ({"ls": "--"}, {"ls": "-"}),                                          # another dash pattern
    ({"ls": "-", "color": "#8c8c8c"}, {"ls": "-", "color": plotting.BLUE}),   # a grey line is not a style key
])
def test_legend_key_of_another_style(fig_ax, key, drawn):
    """A key must look like what it names: the points are circles and the key a square, or the key
    is open and the points filled, or the line dashed in the key and solid on the panel."""
    from matplotlib.lines import Line2D

    fig, ax = fig_ax
    _labelled(ax)
    style = {"ls": "none", "color": plotting.BLUE}
    ax.plot([1, 2, 3], [1, 3, 2], **{**style, **drawn})
    ax.legend(handles=[Line2D([], [], label="series", **{**style, **key})], loc="upper left", bbox_to_anchor=(1, 1))
    assert _entries(problems(fig)), (key, drawn)
    ax.plot([1, 2, 3], [2, 1, 3], **{**style, **key})
    assert not _entries(problems(fig))


def test_legend_region_colour_no_region_has(fig_ax):
    """A phase diagram's key names every region, but only regions 0, 1 and 4 are on the map: the
    patch of region 3 matches no cell. A patch matches the colours the mesh maps its data to."""
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Patch

    fig, ax = fig_ax
    _labelled(ax)
    ax.pcolormesh(np.array([[0, 1], [4, 4]]), cmap=ListedColormap(plotting.REGION_COLOURS), vmin=-0.5, vmax=7.5)
    handles = [Patch(color=plotting.REGION_COLOURS[k], label=f"region {k}") for k in (0, 1, 3, 4)]
    fig.legend(handles=handles, loc="outside lower center", ncol=4, frameon=False)
    found = _entries(problems(fig))
    assert len(found) == 1 and "'region 3'" in found[0] and "figure legend" in found[0], found
    handles.pop(2)
    fig.legends[0].remove()
    fig.legend(handles=handles, loc="outside lower center", ncol=4, frameon=False)
    assert not _entries(problems(fig))


def test_legend_patch_for_a_continuous_colour_map(fig_ax):
    """A patch naming a value of a continuous map: a coarse 3 × 3 image of 0 … 1 in viridis draws
    none of viridis(0.3) itself, yet 0.3 lies inside its range; viridis(0.9) (norm up to 2, data
    up to 1, so 0.45 of the map at most) names a colour the image never reaches."""
    import matplotlib
    from matplotlib.patches import Patch

    fig, ax = fig_ax
    _labelled(ax)
    viridis = matplotlib.colormaps["viridis"]
    ax.imshow(np.linspace(0, 1, 9).reshape(3, 3), cmap=viridis, vmin=0, vmax=2)
    fig.legend(handles=[Patch(color=viridis(0.3 / 2), label="0.3"), Patch(color=viridis(0.9), label="1.8")],
               loc="outside lower center", ncol=2)
    found = _entries(problems(fig))
    assert len(found) == 1 and "'1.8'" in found[0], found


def test_legend_entry_of_another_panel(two_panels):
    """An axes' legend names what that axes (or its twin) draws: a key on the right panel for the
    series drawn only on the left one is flagged; the same key in a figure legend is not."""
    from matplotlib.lines import Line2D

    fig, (left, right) = two_panels
    for ax in (left, right):
        _labelled(ax)
    left.plot([1, 2, 3], [1, 3, 2], color=plotting.BLUE)
    right.plot([1, 2, 3], [2, 1, 3], color=plotting.ORANGE, label="drawn here")
    key = Line2D([], [], color=plotting.BLUE, label="drawn on the left")
    right.legend(handles=[right.lines[0], key], loc="upper left", bbox_to_anchor=(1, 1))
    found = _entries(problems(fig))
    assert len(found) == 1 and "'drawn on the left'" in found[0], found
    right.get_legend().remove()
    fig.legend(handles=[key], loc="outside lower center")
    assert not _entries(problems(fig))


def test_legitimate_legend_entries_pass(two_panels):
    """Entries a reader maps to what is drawn: an error-bar series, a scatter, a fill_between band
    and its Patch proxy, a Patch naming a case drawn as coloured points, a contourf level named by
    a Patch of its colour, a black style key ("SGD": circles in any colour; "ODE": a solid line in
    any colour), an open-marker key, a tuple key, a text-only note, a line on the twin axes, a
    line key for annotation arrows, and a figure legend naming the other panel's series; the
    legend of a blank axes (a legend holder under a panel) reads as the figure's."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    fig, (ax, right) = two_panels
    for a in (ax, right):
        _labelled(a)
    x = np.linspace(1, 2, 6)
    bars = ax.errorbar(x, x, yerr=0.1, color=plotting.BLUE, **plotting.SGD_STYLE, label="tied, SGD")
    ax.plot(x, x + 0.1, color=plotting.BLUE, **plotting.ODE_STYLE)
    ax.errorbar(x, 2 * x, yerr=0.1, color=plotting.VERMILION, mfc=plotting.OPEN_FACE, **plotting.SGD_STYLE)
    dots = ax.scatter(x, 3 * x, s=4, color=plotting.GREEN, alpha=0.3, lw=0, label="runs")
    band = ax.fill_between(x, 3 * x, 3.5 * x, color=plotting.SKY, alpha=0.3, label="interquartile range")
    twin = ax.twinx()
    twin.set_ylabel("other")
    twin.plot(x, -x, color=plotting.PURPLE, ls="--")
    handles = [bars, dots, band, Patch(color=plotting.SKY, alpha=0.3), Patch(color=plotting.VERMILION),
               Line2D([], [], color=plotting.BLACK, ls="none", marker="o"),
               Line2D([], [], color=plotting.BLACK, **plotting.ODE_STYLE),
               Line2D([], [], color=plotting.VERMILION, ls="none", marker="o", mfc="none"),
               (Line2D([], [], color=plotting.BLUE, ls="none", marker="o"), Line2D([], [], color=plotting.BLUE)),
               Line2D([], [], ls="none"),
               Line2D([], [], color=plotting.PURPLE, ls="--")]
    labels = ["tied, SGD", "runs", "band", "band (proxy)", "untied", "SGD", "ODE", "untied, open", "tied, both",
              "SIE 4 not compared", "twin"]
    ax.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.2, 1), fontsize=5)
    grid = np.linspace(0, 1, 20)
    filled = right.contourf(grid, grid, np.add.outer(grid, grid), levels=5, cmap="viridis")
    level = filled.to_rgba(filled.cvalues[2])
    right.annotate("", xy=(0.2, 0.8), xytext=(0.5, 0.5), arrowprops={"arrowstyle": "->", "color": plotting.PURPLE})
    fig.legend(handles=[Patch(color=level), Line2D([], [], color=plotting.BLUE, marker="o"),
                        Line2D([], [], color=plotting.PURPLE)],
               labels=["middle level", "tied (other panel)", "descending direction"], loc="outside lower center",
               ncol=3)
    holder = fig.add_axes((0.0, 0.0, 0.01, 0.01))
    holder.set_axis_off()
    holder.legend(handles=[Line2D([], [], color=plotting.GREEN, ls="none", marker="o")], labels=["runs"], loc="center")
    assert not _entries(problems(fig)), _entries(problems(fig))


# --- text contrast --------------------------------------------------------------------------------
def _contrast(found):
    return [s for s in found if "contrast" in s]


def test_wcag_contrast_matches_published_values():
    # WCAG 2: black on white 21:1; #767676 on white 4.54:1, the lightest grey that passes AA; #777777 4.48:1
    assert legibility.contrast_ratio("black", "white") == pytest.approx(21.0)
    assert legibility.contrast_ratio("#767676", "white") == pytest.approx(4.54, abs=0.01)
    assert legibility.contrast_ratio("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)
    assert legibility.relative_luminance("#ffffff") == pytest.approx(1.0)
    assert legibility.contrast_ratio("#0000ff", "#ffffff") == pytest.approx(8.59, abs=0.01)


def test_text_contrast(fig_ax):
    """Text a reader strains to read: a note in the guide grey #8c8c8c on the white axes (3.4:1),
    black text at alpha 0.4, a label in Okabe–Ito orange (2.2:1), white text on a note's white
    box, black text in a legend on a dark frame. Black text, white text on a dark box, and the
    note on its white box pass."""
    fig, ax = fig_ax
    _labelled(ax)
    ax.plot([0, 1], [0, 1], color=plotting.BLUE, label="series")
    grey = ax.text(0.05, 0.9, "a grey note", color=plotting.GUIDE, transform=ax.transAxes)
    faint = ax.text(0.05, 0.75, "a faint note", alpha=0.4, transform=ax.transAxes)
    ax.set_title("an orange title", color=plotting.ORANGE)
    boxed = ax.text(0.05, 0.6, "white on white", color="white", transform=ax.transAxes,
                    bbox={"fc": "white", "ec": "none"})
    ax.legend(loc="lower right", frameon=True, facecolor="#303030", framealpha=1.0)
    found = _contrast(problems(fig))
    assert len(found) == 5, found
    for words in ("'a grey note'", "'a faint note'", "'an orange title'", "'white on white'", "'series'"):
        assert any(words in s for s in found), words
    grey.set_color("#595959")
    faint.set_alpha(1.0)
    ax.set_title("an orange title", color="black")
    boxed.get_bbox_patch().set_facecolor("#303030")
    ax.get_legend().get_frame().set_facecolor("white")
    plotting.note(ax, "a verdict on its white box", loc="lower left")
    assert not _contrast(problems(fig)), _contrast(problems(fig))


def test_text_on_a_dark_axes_background(fig_ax):
    """Tick labels lie on the figure, a text inside the axes on the axes' face: black on a dark
    axes face fails, while the black tick labels around it on the white figure pass."""
    fig, ax = fig_ax
    _labelled(ax)
    ax.set_facecolor("#202020")
    ax.text(0.5, 0.5, "inside", transform=ax.transAxes)
    found = _contrast(problems(fig))
    assert len(found) == 1 and "'inside'" in found[0], found


# --- continuous colour maps across panels ---------------------------------------------------------
def _scales(found):
    return [s for s in found if "colour scale" in s]


def _landscape(n=12, scale=1.0):
    grid = np.linspace(-1, 1, n)
    return grid, scale * np.subtract.outer(grid ** 2, grid ** 2)


def test_one_quantity_two_colour_scales(two_panels):
    """Two panels of R(e, m), each with a colour bar labelled "loss": the second runs to twice the
    first's range, so one colour means two values. One norm for both mends it; a different colour
    map (or norm class) breaks it again."""
    from matplotlib.colors import Normalize

    fig, axes = two_panels
    meshes = []
    for ax, scale, name in zip(axes, (1.0, 2.0), ("first landscape", "second landscape")):
        _labelled(ax)
        ax.set_title(name)
        grid, values = _landscape(scale=scale)
        mesh = ax.pcolormesh(grid, grid, values, cmap="RdBu_r", vmin=-scale, vmax=scale)
        fig.colorbar(mesh, ax=ax, label="loss")
        meshes.append(mesh)
    found = _scales(problems(fig))
    assert len(found) == 1 and "'loss'" in found[0], found
    assert "[-1, 1] in 'first landscape'" in found[0] and "[-2, 2] in 'second landscape'" in found[0], found
    for mesh in meshes:
        mesh.set_norm(Normalize(-2, 2))
    assert not _scales(problems(fig))
    meshes[1].set_cmap("viridis")
    found = _scales(problems(fig))
    assert len(found) == 1 and "viridis" in found[0], found


def test_colour_scales_without_colour_bars(two_panels):
    """Without colour bars every continuous map of a figure shows one quantity: an image with
    limits [0, 1] beside a filled contour with [0, 3] fails. Maps of different colour-bar labels,
    and categorical maps (a ListedColormap of a few region colours), are never compared."""
    from matplotlib.colors import ListedColormap

    fig, (left, right) = two_panels
    for ax in (left, right):
        _labelled(ax)
    image = left.imshow(np.linspace(0, 1, 16).reshape(4, 4), cmap="viridis")
    grid = np.linspace(0, 1, 10)
    right.contourf(grid, grid, 3 * np.add.outer(grid, grid) / 2, levels=8, cmap="viridis")
    found = _scales(problems(fig))
    assert len(found) == 1 and "no labelled colour bar" in found[0], found
    fig.colorbar(image, ax=left, label="overlap $m$")
    assert not _scales(problems(fig))
    left.pcolormesh(np.array([[0, 1], [2, 3]]), cmap=ListedColormap(plotting.REGION_COLOURS[:4]), vmin=-0.5,
                    vmax=3.5)
    right.pcolormesh(np.array([[0, 1], [2, 3]]) + 10, cmap=ListedColormap(plotting.REGION_COLOURS[4:]))
    assert not _scales(problems(fig))
