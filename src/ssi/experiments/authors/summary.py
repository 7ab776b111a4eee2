"""The authors' experiments in words: what the README's table, docs/results/authors.md and
docs/results/authors_runs.md say (:func:`page_context`; the page generator's templates lay it out).

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


def _gain_rows(g) -> list[dict]:
    """The gain per L of a fit: L, SGD, ODE (None where absent)."""
    ode = g.get("ode_gain", [None] * len(g["Ls"]))
    return [{"L": L, "sgd": g["gain"][i], "ode": ode[i]} for i, L in enumerate(g["Ls"])]


def _cost(config, group, job_seconds) -> str:
    theirs = sum(authors.their_hours(config, n) for n in group)
    ours = [job_seconds.get(n) for n in group]
    ours_text = (f"{sum(x['job_seconds'] for x in ours):.0f} job-seconds in the recorded run"
                 if all(ours) else "not measured")
    return f"their method ≈ {theirs:.1f} CPU-hours; ours: {ours_text}"


def _candidates(cand, words=None) -> dict:
    """The C4-candidates section: seeds, d, verdict, one row per family and per gain."""
    agrees, why = authors_verdicts.candidates_verdict(cand)
    gains = [{**g, "what": (f"{g['numerator']} / {g['denominator']}" if isinstance(g["denominator"], str)
                            else f"{g['numerator']} (tied time constant)")} for g in cand["gains"].values()]
    return {"seeds": next(iter(cand["families"].values()))["seeds"], "d": cand["d"],
            "word": _word(words, "candidates", agrees), "why": why,
            "families": [{"name": k, **v} for k, v in cand["families"].items()], "gains": gains}


def page_context(config, numbers, default, job_seconds=None, words=None) -> dict:
    """What the templates of the authors' pages read (docs/results/authors.md, authors_runs.md and
    the README's table, under workflow/templates/): one item per row of :func:`table_rows`, in
    order, with its words (files, claim, conventions, the paper-convention counterpart, cost,
    figures, gain per L), the counts, and every run of every file.

    ``default``: name -> numbers of the default run; ``job_seconds``: experiment -> {jobs, job_seconds}
    of the recorded authors' run (benchmarks/results/workflow.json), or None."""
    job_seconds = job_seconds or {}
    experiments = config[authors.EXPERIMENT]["experiments"]
    rows = table_rows(config, numbers, default, words)
    items = []
    for row in rows:
        group = row["group"]
        item = {"kind": row["kind"], "word": row["agrees"], "why": row["why"], "candidates": not group}
        if not group:
            items.append({**item, "anchor": anchor(CANDIDATES_TITLE), **_candidates(numbers["candidates"], words)})
            continue
        title = _files(config, group, backticks=False)
        _, g = authors_verdicts.gain_of(group[0], numbers)
        items.append({**item, "title": title, "anchor": anchor(title), "files": _files(config, group),
                      "claim": experiments[group[0]]["claim"],
                      "notes": " ".join(f"{experiments[n]['role'].capitalize()}: {experiments[n]['note']}." for n in group),
                      "conventions": conventions(config, group), "paper_side": paper_side(experiments[group[0]], default),
                      "cost": _cost(config, group, job_seconds), "figures": _figures(config, group, "../../"),
                      "gain": _gain_rows(g) if g and "ode_gain" in g and row["kind"] != "exploratory" else None})
    runs = []
    for group in groups(config, numbers):
        title = _files(config, group, backticks=False)
        roles = sorted({experiments[n]["role"] for n in group})
        _, g = authors_verdicts.gain_of(group[0], numbers)
        runs.append({"title": title, "anchor": anchor(title), "roles": "; ".join(roles).capitalize(),
                     "gain": _gain_rows(g) if g and "ode_gain" in g and roles == ["exploratory"] else None,
                     "files": [{"file": experiments[n]["file"], "key": authors.sweep_key(experiments[n]),
                                "rows": [{**r, "network": STUDENT_WORDS.get(r["student"], r["student"])}
                                         for r in numbers["experiments"][n]["rows"]]} for n in group]})
    return {"level": AUTHORS.level_text(), "runs_page": RUNS_PAGE, "candidates_title": CANDIDATES_TITLE,
            "figures_dir": config["figures_dir"], "rows": items, "counts": counts_text(rows), "runs": runs}
