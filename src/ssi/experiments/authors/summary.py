"""The authors' experiments in words: the README's table and docs/results/authors.md.

Presentation only: every verdict is :func:`ssi.experiments.authors.verdicts.verdict` (or
``candidates_verdict``) as computed there, its word read from the authors' verdict file
(``figures/authors/VERDICTS.json``, :mod:`ssi.verdicts`; ``words`` below, experiment name -> word);
the numbers are those of ``figures/authors/numbers/authors.json`` and, for the paper-convention
counterpart, ``figures/numbers/*.json``. Files that share one gain fit (a plain and a tied network
in two files) are one row and one section.

What is counted: the verdicts of the files a claim rests on. An earlier version (role "earlier
version" in config/authors.yaml, superseded by a later file of the same experiment) keeps its row,
verdict and section, in a table of its own, and is left out of the counts; an exploratory file has
no verdict. The per-point tables (each L or ω of each file) are on a page of their own,
docs/results/authors_runs.md, linked from each section.
"""
from __future__ import annotations

from .. import authors
from . import verdicts as authors_verdicts
from ...escape import AUTHORS
from ...verdicts import VERDICTS
from ..claim_text import num
from ..claims import anchor

#: their student names in words
STUDENT_WORDS = {"plain_network": "untied", "tied_network": "tied", "attention": "attention"}
#: their loss names in words (docs/theory.md, "The authors' conventions")
LOSS_WORDS = {"square": "torch MSE (y − ŷ)²", "frobenius": "non-squared ‖y − ŷ‖_F"}

#: the role of a file superseded by a later one (config/authors.yaml): shown, never counted
SUPERSEDED = "earlier version"
#: the page of the per-point tables, beside docs/results/authors.md
RUNS_PAGE = "authors_runs.md"
#: heading of the section on the protocols that could give a gain ∝ L²
CANDIDATES_TITLE = "C4: protocols that could give a gain ∝ L²"


def groups(config, numbers) -> list[list[str]]:
    """Experiment names in config order, files that share a gain fit together."""
    experiments = config[authors.EXPERIMENT]["experiments"]
    out, done = [], set()
    for name in experiments:
        if name in done:
            continue
        key, _ = authors_verdicts.gain_of(name, numbers)
        group = [n for n in (key.split("/") if key and "/" in key else [name]) if n in experiments]
        done.update(group)
        out.append(group)
    return out


def _power(x: float) -> str:
    """5.0e-3 -> "5·10⁻³"; 0.05 -> "0.05"."""
    if x == 0 or 1e-2 <= abs(x) < 1e4:
        return f"{x:g}"
    mantissa, exponent = f"{x:.1e}".split("e")
    mantissa = mantissa.rstrip("0").rstrip(".")
    sup = str(int(exponent)).translate(str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻"))
    return f"10{sup}" if mantissa == "1" else f"{mantissa}·10{sup}"


def conventions(config, group: list[str]) -> str:
    """Their conventions in a phrase: loss, η and its scaling per network, start, d, T, seeds."""
    experiments = config[authors.EXPERIMENT]["experiments"]
    spec = experiments[group[0]]
    rates = []
    for name in group:
        s = experiments[name]
        scaling = "" if s["lr_scaling"] in (None, "none") else f"·{s['lr_scaling']}(L)"
        who = "/".join(STUDENT_WORDS.get(x, x) for x in s["students"])
        rates.append(f"{who} η = {_power(s['lr'])}{scaling}")
    return (f"{LOSS_WORDS.get(spec['loss'], spec['loss'])}; {', '.join(rates)}; {spec['init']} start; "
            f"d = {spec['d']}, T = {_power(spec['T'])}, {spec['seeds']} seed{'s' if spec['seeds'] > 1 else ''}")


def _files(config, group, backticks=True) -> str:
    experiments = config[authors.EXPERIMENT]["experiments"]
    q = "`" if backticks else ""
    return " + ".join(f"{q}{experiments[n]['file'].removesuffix('.yaml')}{q}" for n in group)


def _figures(config, group, prefix: str) -> str:
    experiments = config[authors.EXPERIMENT]["experiments"]
    figures_dir = config["figures_dir"]
    if len(group) == 1:
        return f"[figure]({prefix}{figures_dir}/{group[0]}.png)"
    return " · ".join(f"[{STUDENT_WORDS.get(experiments[n]['students'][0], n)}]({prefix}{figures_dir}/{n}.png)"
                      for n in group)


def superseded(config, group: list[str]) -> bool:
    """Whether every file of ``group`` is an earlier version, superseded by a later file."""
    experiments = config[authors.EXPERIMENT]["experiments"]
    return all(experiments[n]["role"] == SUPERSEDED for n in group)


def verdict_words(content: dict) -> dict:
    """Experiment name (or "candidates") -> verdict word, from the authors' verdict file ``content``."""
    return {e["key"]: e["verdict"] for e in content["rows"] if "key" in e}


def _word(words, key: str, computed: str) -> str:
    """The verdict word of ``key``: from ``words`` (the verdict file) when given, else ``computed``;
    "n/a" (exploratory) is never in the file."""
    if words is None or computed == "n/a":
        return computed
    if key not in words:
        raise ValueError(f"the authors' verdict file has no row for {key!r}; regenerate it (snakemake pages)")
    return words[key]


def table_rows(config, numbers, default, words=None) -> list[dict]:
    """Every row of the authors' tables, in config order, the candidates last.

    Each row: ``group`` (experiment names; empty for the candidates), ``agrees`` (the verdict word,
    from ``words``, :func:`verdict_words` of the verdict file, when given) and ``why`` of its
    verdict, and ``kind``: "counted" (a claim rests on it), "superseded" (an earlier version: shown
    with its verdict, not counted) or "exploratory" (no verdict)."""
    rows = []
    for group in groups(config, numbers):
        agrees, why = authors_verdicts.verdict(group[0], config, numbers, default)
        kind = ("exploratory" if agrees == "n/a"
                else "superseded" if superseded(config, group) else "counted")
        rows.append({"group": group, "agrees": _word(words, group[0], agrees), "why": why, "kind": kind})
    if numbers.get("candidates"):
        agrees, why = authors_verdicts.candidates_verdict(numbers["candidates"])
        rows.append({"group": [], "agrees": _word(words, "candidates", agrees), "why": why, "kind": "counted"})
    return rows


def verdict_counts(rows: list[dict]) -> dict[str, int]:
    """Verdict word -> number of counted rows (superseded and exploratory rows left out), in the
    order of :data:`ssi.verdicts.VERDICTS`."""
    words = [row["agrees"] for row in rows if row["kind"] == "counted"]
    order = list(VERDICTS) + sorted(set(words) - set(VERDICTS))
    return {word: words.count(word) for word in order if word in words}


def counts_text(rows: list[dict]) -> str:
    """The counts in a sentence, naming what is left out of them."""
    counted = verdict_counts(rows)
    text = f"Counted: {sum(counted.values())} rows ({', '.join(f'{n} {w}' for w, n in counted.items())})"
    left = {kind: sum(len(r["group"]) for r in rows if r["kind"] == kind) for kind in ("superseded", "exploratory")}
    parts = [f"{n} {what}{'s' if n > 1 else ''}" for n, what in
             ((left["superseded"], "superseded earlier version"), (left["exploratory"], "exploratory file")) if n]
    return text + (f"; not counted (below): {', '.join(parts)}." if parts else ".")


def readme_table(config, numbers, default, words=None) -> str:
    """The README's table: experiment file(s) | claim | measured | verdict, for every file on which a
    claim rests; the counts; the superseded files in a table of their own, left out of the counts;
    the exploratory files named below. Figures: docs/results/authors.md."""
    experiments = config[authors.EXPERIMENT]["experiments"]
    head = ["| experiment file(s) | claim | measured | verdict |", "|---|---|---|---|"]
    rows = table_rows(config, numbers, default, words)
    tables = {"counted": list(head), "superseded": list(head)}
    exploratory = []
    for row in rows:
        group, word = row["group"], row["agrees"]
        if row["kind"] == "exploratory":
            exploratory.append(_files(config, group))
        elif not group:
            tables["counted"].append(f"| C4 candidates for L² (SGD, best η per network) | C4 | {row['why']} | "
                                     f"**{word}** |")
        else:
            tables[row["kind"]].append(f"| {_files(config, group)} | {experiments[group[0]]['claim']} | {row['why']} | "
                                       f"**{word}** |")
    lines = tables["counted"] + ["", counts_text(rows)]
    if len(tables["superseded"]) > 2:
        lines += ["", "Superseded earlier versions:", ""] + tables["superseded"]
    if exploratory:
        lines += ["", "Exploratory, no claim rests on them: " + ", ".join(exploratory) + "."]
    return "\n".join(lines) + "\n"


# --- docs/results/authors.md -----------------------------------------------------------------------
def paper_side(spec, default) -> str:
    """The same quantity under the paper's conventions, from the default run's numbers (figures/numbers)."""
    tu, sp = default.get("tied_untied"), default.get("semantic_positional")
    tgt = spec["target"]
    fits = {(x["case"], x["protocol"], x["threshold"]): x for x in tu["fits"]} if tu else {}
    if tu and tgt == "H2sum":
        a, b = fits[("sie2", "same_lr", "authors")], fits[("sie2", "best_lr", "authors")]
        return (f"Σh₂, d = {a['d']}, L = {a['Ls'][0]}–{a['Ls'][-1]}: gain ∝ L^{num(a['exponent_sgd'])} "
                f"[{num(a['exponent_sgd_low'])}, {num(a['exponent_sgd_high'])}] (one η), "
                f"L^{num(b['exponent_sgd'])} [{num(b['exponent_sgd_low'])}, {num(b['exponent_sgd_high'])}] (best η)")
    if tu and tgt in ("inversesqrtsum", "sqrtz1"):
        a = fits[("sie1", "same_lr", "authors")]
        return (f"(1/√L)Σz, d = {a['d']}, L = {a['Ls'][0]}–{a['Ls'][-1]}: gain ∝ L^{num(a['exponent_sgd'])} "
                f"[{num(a['exponent_sgd_low'])}, {num(a['exponent_sgd_high'])}]")
    if tu and tgt in ("2difference", "2squaredifference"):
        want = "z1_minus_z2" if tgt == "2difference" else "he2_diff"
        return "; ".join(f"L = {n['L']}, d = {n['d']}: tied ends at {num(n['final_overlap_tied'], '.3f')}, untied "
                         f"at {num(n['final_overlap_untied'])}" for n in tu["null"] if n["target"] == want)
    if tu and tgt == "inversesqrtH2sum":
        return ("T_untied/T_attention " + ", ".join(f"L = {r['L']}: {num(r['ratio_macro'])}" for r in tu["attention"])
                + f" (d = {tu['attention'][0]['d']})")
    if sp and tgt == "positional_semantic_model":
        if len(spec["sweep"]["omega"]) == 1:
            lr = sp["long_run"]
            return (f"squared loss: {lr['semantic']} of {lr['replicates']} end semantic, {lr['positional']} "
                    f"positional, {lr['not_escaped']} not escaped")
        return "; ".join(f"squared loss, d = {t['d']}: switch ω {num(t['switch_sgd'], '.3f')} (ODE "
                         f"{num(t['switch_ode'], '.3f')}), not escaped "
                         f"{num(sum(t['not_escaped_fraction']) / len(t['not_escaped_fraction']), '.0%')}"
                         for t in sp["transition"] if t["d"] == spec["d"] and t["steps"] == spec["T"])
    return "none in the default run"


def _gain_table(g) -> list[str]:
    lines = ["| L | gain, SGD | gain, ODE |", "|---|---|---|"]
    for i, L in enumerate(g["Ls"]):
        ode = g.get("ode_gain", [None] * len(g["Ls"]))[i]
        lines.append(f"| {L} | {num(g['gain'][i])} | {num(ode)} |")
    return lines


def _points_table(spec, e) -> list[str]:
    key = authors.sweep_key(spec)
    omega = key == "omega"
    level = AUTHORS.level_text()
    lines = [f"| network | {key} | seed-mean steps to {level} | ODE | final overlap (mean ± sd) | "
             f"share of seeds ≥ {level} |"
             + (" share escaped | positional (of escaped) |" if omega else ""),
             "|---|---|---|---|---|---|" + ("---|---|" if omega else "")]
    for r in e["rows"]:
        extra = f" {num(r['share_escaped'])} | {num(r['share_positional'])} |" if omega else ""
        lines.append(f"| {STUDENT_WORDS.get(r['student'], r['student'])} | {r[key]:g} | "
                     f"{num(r['steps_mean_authors'], '.3g')} | {num(r.get('ode_steps_authors'), '.3g')} | "
                     f"{num(r['final_overlap_mean'], '.3f')} ± {num(r['final_overlap_sd'], '.3f')} | "
                     f"{num(r['share_above_authors'])} |" + extra)
    return lines


def _cost(config, group, job_seconds) -> str:
    theirs = sum(authors.their_hours(config, n) for n in group)
    ours = [job_seconds.get(n) for n in group]
    ours_text = (f"{sum(x['job_seconds'] for x in ours):.0f} job-seconds in the recorded run"
                 if all(ours) else "not measured")
    return f"their method ≈ {theirs:.1f} CPU-hours; ours: {ours_text}"


def _candidates_section(config, cand, words=None) -> list[str]:
    agrees, why = authors_verdicts.candidates_verdict(cand)
    seeds = next(iter(cand["families"].values()))["seeds"]
    lines = [f"## {CANDIDATES_TITLE}", "",
             f"Each family at each network's ODE-best η, {seeds} seeds per L, d = {cand['d']}; steps for the seed-mean "
             f"overlap to reach {AUTHORS.level_text()}, exponents over L with 95 % bootstrap intervals "
             "(`src/ssi/experiments/authors/candidates.py`). "
             f"Verdict: **{_word(words, 'candidates', agrees)}** ({why}).", "",
             "| family | L | best η (ODE) | SGD exponent [95 %] | ODE exponent |", "|---|---|---|---|---|"]
    for k, v in cand["families"].items():
        lines.append(f"| {k} | {v['Ls'][0]}–{v['Ls'][-1]} | {num(v['lr'][0], '.3g')}–{num(v['lr'][-1], '.3g')} | "
                     f"L^{num(v['exponent_sgd'])} [{num(v['low'])}, {num(v['high'])}] | L^{num(v['exponent_ode'])} |")
    lines += ["", "| gain | L | SGD exponent [95 %] | ODE exponent | 2 inside the interval? |", "|---|---|---|---|---|"]
    for k, g in cand["gains"].items():
        what = (f"{g['numerator']} / {g['denominator']}" if isinstance(g["denominator"], str)
                else f"{g['numerator']} (tied time constant)")
        lines.append(f"| {what} | {g['Ls'][0]}–{g['Ls'][-1]} | L^{num(g['exponent_sgd'])} [{num(g['low'])}, "
                     f"{num(g['high'])}] | L^{num(g['exponent_ode'])} | {'yes' if g['two_in_interval'] else 'no'} |")
    return lines + ["", f"![candidates](../../{config['figures_dir']}/protocol_candidates.png)", ""]


def _summary_row(config, row: dict) -> str:
    """One file's (or pair's) row of the page's summary tables."""
    experiments = config[authors.EXPERIMENT]["experiments"]
    group, word = row["group"], row["agrees"]
    title = _files(config, group, backticks=False)
    return f"| [{title}](#{anchor(title)}) | {experiments[group[0]]['claim']} | {row['why']} | **{word}** |"


def results_page(config, numbers, default, job_seconds=None, words=None) -> str:
    """docs/results/authors.md: the summary tables and counts, then one short section per experiment
    (or pair); the per-point tables are on :func:`runs_page`'s page, linked from each section.

    ``default``: name -> numbers of the default run; ``job_seconds``: experiment -> {jobs, job_seconds}
    of the recorded authors' run (benchmarks/results/workflow.json), or None."""
    job_seconds = job_seconds or {}
    experiments = config[authors.EXPERIMENT]["experiments"]
    level = AUTHORS.level_text()
    head = ["| experiment | claim | measured | verdict |", "|---|---|---|---|"]
    lines = ["# The authors' own experiments, rerun beside ours", "",
             "Generated by `snakemake pages` from `figures/authors/numbers/authors.json`, the default run's",
             "`figures/numbers/*.json` and `benchmarks/results/workflow.json`; do not edit.", "",
             "`snakemake --cores all --configfile config/authors.yaml` reruns each experiment file of",
             "IdePHICS/Sequence-Single-Index (`experiments/*.yaml`) with their d, L, T, learning rate and its",
             "scaling, target, student, loss and start, exact in law (their random numbers cannot be matched):",
             "[the authors' conventions](../theory.md#the-authors-conventions). Each verdict is computed from the",
             "numbers by the rules of `src/ssi/experiments/authors/verdicts.py` and the decisiveness rule of",
             f"`src/ssi/verdicts.py` (figures/authors/VERDICTS.json); \"{level}\" is their escape level",
             f"(the seed-mean overlap reaches {level}), the gain is T_untied/T_tied at that level. The numbers of",
             f"each run, L by L (or ω by ω), are on [{RUNS_PAGE}]({RUNS_PAGE}). Each section gives the cost of",
             "their method (T × runs at `their_rate` of config/authors.yaml) and ours (the recorded run).", "",
             "## Summary", "", *head]
    rows = table_rows(config, numbers, default, words)
    other = list(head)
    sections = []
    for row in rows:
        group = row["group"]
        if not group:
            cand = numbers["candidates"]
            lines.append(f"| [C4 candidates for L²](#{anchor(CANDIDATES_TITLE)}) | C4 | {row['why']} | "
                         f"**{row['agrees']}** |")
            sections += _candidates_section(config, cand, words)
            continue
        (lines if row["kind"] == "counted" else other).append(_summary_row(config, row))
        spec = experiments[group[0]]
        title = _files(config, group, backticks=False)
        sections += [f"## {title}", "",
                     " ".join(f"{experiments[n]['role'].capitalize()}: {experiments[n]['note']}." for n in group),
                     f"Their conventions: {conventions(config, group)}.", "",
                     f"**{row['agrees']}**: {row['why']}. Paper conventions (default run): "
                     f"{paper_side(spec, default)}.",
                     f"Cost: {_cost(config, group, job_seconds)}. Figures: {_figures(config, group, '../../')}. "
                     f"Each run: [{RUNS_PAGE}]({RUNS_PAGE}#{anchor(title)}).", ""]
        key, g = authors_verdicts.gain_of(group[0], numbers)
        if g and "ode_gain" in g and row["kind"] != "exploratory":
            sections += _gain_table(g) + [""]
    lines += ["", counts_text(rows)]
    if len(other) > 2:
        lines += ["", "Not counted: the earlier versions, superseded by a later file of the same experiment, and",
                  "the exploratory files.", "", *other]
    lines += [""] + sections + [
        "## Phase diagram under the authors' script", "",
        "Their `analytic/` phase-diagram script (its grid, quadrature and classification rule) against our",
        "diagram, cell by cell, every differing cell decided by a refined computation:",
        "[authors-phase.md](authors-phase.md).", ""]
    return "\n".join(lines)


def runs_page(config, numbers) -> str:
    """docs/results/authors_runs.md: every run of every experiment file, one table per file, one row per
    network and L (or ω), and the gain per L of the exploratory files (the other files' gain tables
    are on docs/results/authors.md, with their verdicts and discussion)."""
    experiments = config[authors.EXPERIMENT]["experiments"]
    level = AUTHORS.level_text()
    lines = ["# The authors' experiments, run by run", "",
             "Generated by `snakemake pages` from `figures/authors/numbers/authors.json`; do not edit.",
             "One table per experiment file of config/authors.yaml, one row per network and L (or ω), as run",
             f"(their seeds): the seed-mean steps for the overlap to reach {level} (their escape level), the ODE's",
             "steps to the same level, the final overlap and the share of seeds that reached the level.",
             "Verdicts, gains and conventions: [authors.md](authors.md).", ""]
    for group in groups(config, numbers):
        title = _files(config, group, backticks=False)
        roles = sorted({experiments[n]["role"] for n in group})
        lines += [f"## {title}", "", f"{'; '.join(roles).capitalize()}; verdict and discussion: "
                  f"[authors.md](authors.md#{anchor(title)}).", ""]
        key, g = authors_verdicts.gain_of(group[0], numbers)
        if g and "ode_gain" in g and roles == ["exploratory"]:        # on authors.md for the others
            lines += _gain_table(g) + [""]
        for name in group:
            if len(group) > 1:
                lines += [f"`{experiments[name]['file']}`:", ""]
            lines += _points_table(experiments[name], numbers["experiments"][name]) + [""]
    return "\n".join(lines)
