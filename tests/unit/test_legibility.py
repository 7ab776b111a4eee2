"""Legibility checks (ssi.legibility): each check fails on a figure made to break it and passes on
the same figure drawn as ssi.plotting draws it; the colour model against published values; the
save path refuses an illegible figure."""
import numpy as np
import pytest

from ssi import legibility, plotting
from ssi.legibility import colour_distance, problems, simulate_vision, to_lab


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
        dist, vision, i, j = legibility.closest_pair(colours)
        assert dist >= legibility.MIN_COLOUR_DISTANCE, (name, vision, colours[i], colours[j], dist)


def test_old_phase_diagram_colours_fail():
    old = ("#339966", "#cc3300", "#ffcc00", "#3333ff", "#66ff33", "#ff9966", "#ff5050", "#99ccff")
    dist, vision, *_ = legibility.closest_pair(old)
    assert dist < legibility.MIN_COLOUR_DISTANCE and vision in ("deuteranopia", "protanopia")


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


def test_save_figure_refuses_an_illegible_figure(fig_ax, tmp_path):
    fig, ax = fig_ax
    ax.plot([0, 1], [0, 1], color=plotting.BLUE)
    ax.set_title("he2_sum")
    with pytest.raises(legibility.IllegibleFigure, match="he2_sum"):
        plotting.save_figure(fig, tmp_path / "bad.png")
    assert not (tmp_path / "bad.png").exists()
    plotting.save_figure(fig, tmp_path / "kept.png", check=False)     # the escape hatch exists, explicitly
    assert (tmp_path / "kept.png").stat().st_size > 0
