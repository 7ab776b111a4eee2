"""Write docs/results/authors.md and the README's table of the authors' experiments from the
authors' run: `python workflow/scripts/authors_docs.py [wall]`.

Reads config/authors.yaml, figures/authors/numbers/authors.json, figures/numbers/*.json (the
default run, for the paper-convention column) and the SGD jobs' provenance (simulation seconds).
"""
import json
import sys
from pathlib import Path

import yaml

from ssi.experiments import authors, authors_verdicts
from ssi.experiments.claims import update_readme
from ssi.io import atomic_write_text

root = Path(__file__).resolve().parents[2]
config = yaml.safe_load((root / "config" / "authors.yaml").read_text())
numbers = json.loads((root / config["figures_dir"] / "numbers" / "authors.json").read_text())
authors._nan(numbers)
default = {p.stem: json.loads(p.read_text()) for p in (root / "figures" / "numbers").glob("*.json")}
per = {name: authors.job_seconds(config, name) for name in config["authors"]["experiments"]}
timing = {"wall": sys.argv[1] if len(sys.argv) > 1 else "n/a", "job_seconds": sum(per.values()), "per_experiment": per}
atomic_write_text(root / "docs" / "results" / "authors.md", authors.results_markdown(config, numbers, default, timing))
hours = {name: authors.their_hours(config, name) for name in config["authors"]["experiments"]}
update_readme(root / "README.md", authors_verdicts.readme_table(config, numbers, default, timing, hours),
              authors_verdicts.START, authors_verdicts.END)


# --- the explicit answers to the open questions, from the same run ------------------------------
def f(v, spec=".2f"):
    return authors._fmt(v, spec)


ex = numbers["experiments"]
default_sp = default.get("semantic_positional", {})
ans = ["", "## Answers to the open questions", ""]

# C5 transition at d = 100 and 1000 under their loss
ans += ["### C5 transition, their loss (non-squared Frobenius), η = 0.05, T = 3·10⁵, m₀ = e₀ = 0", ""]
for name in ("positional_semantic_transition_d100", "positional_semantic_transition_d1000"):
    e = ex[name]
    ans += [f"**d = {e['d']}**, {e['seeds']} seeds × {len(e['rows'])} ω: switch ω (half of the escaped runs "
            f"positional) {f(e.get('switch_omega'), '.3f')}; runs not escaped (√(m²+e²) < {authors.ESCAPED} at T): "
            f"{f(e.get('share_not_escaped'), '.1%')}.", "",
            "| ω | final |m| | final |e| | share escaped | share positional (of escaped) |", "|---|---|---|---|---|"]
    for r in e["rows"]:
        ans.append(f"| {r['omega']:g} | {f(r['final_overlap_mean'], '.3f')} ± {f(r['final_overlap_sd'], '.3f')} | "
                   f"{f(r['final_abs_e_mean'], '.3f')} | {f(r['share_escaped'])} | {f(r['share_positional'])} |")
    ans.append("")
for t in default_sp.get("transition", []):
    if t["steps"] == 300000:
        ans.append(f"Squared loss (our default C5 panel), d = {t['d']}, same T: switch ω SGD {f(t['switch_sgd'], '.3f')}, "
                   f"ODE {f(t['switch_ode'], '.3f')}, not escaped {f(float(sum(t['not_escaped_fraction']) / len(t['not_escaped_fraction'])), '.1%')}.")
pred = default_sp.get("prediction", {})
if pred:
    ans += ["", f"Phase diagram (squared loss, a = 1): initial direction turns positional at ω = "
                f"{f(pred.get('switch_dynamics'), '.3f')}, global minimum at ω = {f(pred.get('switch_global'), '.3f')}.", ""]

# C4 at SIE 2 with their protocol
g = numbers["gains"].get("square_sequencelength_plain/square_sequencelength_tied")
if g:
    ans += ["### C4 at SIE 2, their protocol (tied η·√L, untied η = 2·10⁻⁴, torch MSE, Σh₂, ReLU, d = 1000, "
            "T = 2.5·10⁷, overlapped start)", "",
            f"Gain T_untied/T_tied at the seed-mean crossing of 2/√d: SGD ∝ L^{f(g['exponent'])} "
            f"[{f(g['low'])}, {f(g['high'])}] (95 % bootstrap over seeds, L with both crossings finite: "
            f"{[L for L, x in zip(g['Ls'], g['gain']) if x == x and x not in (float('inf'),)]}); ODE L^{f(g['ode_exponent'])}.", "",
            "| L | gain SGD | gain ODE | untied seeds ≥ 2/√d by T | untied steps run |", "|---|---|---|---|---|"]
    rows_u = {r["L"]: r for r in ex["square_sequencelength_plain"]["rows"]}
    for L, gs, go in zip(g["Ls"], g["gain"], g["ode_gain"]):
        ans.append(f"| {L} | {f(gs)} | {f(go)} | {f(rows_u[L]['share_above_authors'], '.0%')} | {rows_u[L]['steps_run']:.3g} |")
    ans.append("")
prot = root / config["results_dir"] / "authors" / "protocols.json"
if prot.is_file():
    P = json.loads(prot.read_text())["numbers"]
    ans += ["### Other normalisations and protocols (ODE, `results/authors/authors/protocols.json`)", "",
            "| target | gain exponent (tied η√L, untied η) | untied steps exponent | tied steps exponent |", "|---|---|---|---|"]
    for k, v in P.items():
        if k.startswith("A_"):
            ans.append(f"| {k[2:]} | {f(v['exponent_gain'])} | {f(v['exponent_untied'])} | {f(v['exponent_tied'])} |")
    b, c = P["B_gain_untied_over_attention"], P["C_gain_untied_over_tied_normalised"]
    ans += ["", f"(i) each network at its ODE-best η, untied ReLU vs trace attention on Σh₂, L = {b['Ls']}: gain ∝ L^{f(b['exponent'])}.",
            f"(ii) untied ReLU on Σh₂ at its best η against the tied ReLU network on (1/√L)Σh₂ at its best η: gain ∝ L^{f(c['exponent'])}.",
            "Best-η escape steps exponents: " + ", ".join(f"{k} L^{f(v['exponent_steps'])} (η ∝ L^{f(v['exponent_lr'])})"
                                                       for k, v in P["best"].items()) + ".", ""]
cand = numbers.get("candidates")
if cand:
    seeds = next(iter(cand["families"].values()))["seeds"]
    ans += [f"#### The same candidates by SGD ({seeds} seeds per L at each network's ODE-best η, d = {cand['d']}; "
            "`src/ssi/experiments/authors_candidates.py`)", "",
            "Steps to 2/√d of the seed-mean overlap; exponents over L with 95 % bootstrap intervals over seeds.", "",
            "| family | L | best η (ODE) | SGD steps | ODE steps | seeds ≥ 2/√d | SGD exponent [95 %] | ODE exponent |",
            "|---|---|---|---|---|---|---|---|"]
    for k, v in cand["families"].items():
        ans.append(f"| {k} | {v['Ls'][0]}–{v['Ls'][-1]} | {f(v['lr'][0], '.3g')}–{f(v['lr'][-1], '.3g')} | "
                   f"{f(v['steps_sgd'][0], '.3g')}–{f(v['steps_sgd'][-1], '.3g')} | "
                   f"{f(v['steps_ode'][0], '.3g')}–{f(v['steps_ode'][-1], '.3g')} | "
                   f"{f(min(v['share_crossed']), '.0%')}–{f(max(v['share_crossed']), '.0%')} | "
                   f"L^{f(v['exponent_sgd'])} [{f(v['low'])}, {f(v['high'])}] | L^{f(v['exponent_ode'])} |")
    ans += ["", "| gain | L | SGD exponent [95 %] | ODE exponent | 2 inside the interval? |", "|---|---|---|---|---|"]
    for k, g in cand["gains"].items():
        what = (f"{g['numerator']} / {g['denominator']}" if isinstance(g["denominator"], str)
                else f"{g['numerator']} (tied time constant)")
        ans.append(f"| {k}: {what} | {g['Ls'][0]}–{g['Ls'][-1]} | L^{f(g['exponent_sgd'])} [{f(g['low'])}, {f(g['high'])}] | "
                   f"L^{f(g['exponent_ode'])} | {'yes' if g['two_in_interval'] else 'no'} |")
    ans.append("")

# yellow region
y = ex["yellow_region"]["rows"][0]
ans += ["### Yellow-region long run (a² = 0.5776, ω = 0.95, d = 1000, T = 10⁸, 20 seeds, their loss)", "",
        f"Final |m| {f(y['final_overlap_mean'], '.3f')} ± {f(y['final_overlap_sd'], '.3f')}, final |e| {f(y['final_abs_e_mean'], '.3f')}; "
        f"escaped {f(y['share_escaped'], '.0%')}, of which positional {f(y['share_positional'], '.0%')}, semantic {f(y['share_semantic'], '.0%')}.", ""]
lr = default_sp.get("long_run")
if lr:
    ans.append(f"Squared loss (default C5): {lr['semantic']} of {lr['replicates']} semantic, {lr['positional']} positional.")
    ans.append("")

# null, attention, staircase, linear
ans += ["### Null divergence, attention vs untied square, staircase, linear max-lr and sequence-length", ""]
for name in ("nulldivergence", "nulldivergence_v2", "attention_square_overlapped", "staircase_test",
             "linear_maxlr_plain", "linear_maxlr_tied", "linear_maxlr_plain_singledirection",
             "linear_maxlr_tied_singledirection", "linear_overlapped_sequencelenght", "linear_random_sequencelenght"):
    e = ex[name]
    spec = config["authors"]["experiments"][name]
    line = f"- `{e['file']}`: "
    if e.get("gain"):
        line += f"gain ∝ L^{f(e['gain']['exponent'])} [{f(e['gain']['low'])}, {f(e['gain']['high'])}]; "
    parts = []
    for r in e["rows"]:
        parts.append(f"{r['student']} L={r['L']}: end {f(r['final_overlap_mean'], '.3f')}"
                     + (f", 2/√d at {f(r['steps_mean_authors'], '.3g')} (ODE {f(r.get('ode_steps_authors'), '.3g')})"
                        if r['steps_mean_authors'] == r['steps_mean_authors'] and r['steps_mean_authors'] != float('inf') else ""))
    line += "; ".join(parts[:: max(1, len(parts) // 8)])
    ans.append(line)
ans.append("")
text = (root / "docs" / "results" / "authors.md").read_text()
marker = "## Phase diagram under the authors' script"
text = text.replace(marker, "\n".join(ans) + "\n" + marker)
atomic_write_text(root / "docs" / "results" / "authors.md", text)
