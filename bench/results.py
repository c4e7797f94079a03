"""Regenerate the benchmark sections of docs/results.md (and its PNG chart) from the harnesses'
JSON files, so every number on the page is one a run wrote.

    python bench/results.py [--fc bench/results/factconsolidation.json] [--memstream bench/results/memstream.json]

Only the sections between <!-- bench:NAME:start --> and <!-- bench:NAME:end --> are replaced (NAME
is factconsolidation or memstream); a missing section is appended, everything else on the page is
kept as it is. A missing JSON leaves its section untouched. The chart needs matplotlib
(`.venv/bin/pip install -r bench/requirements.txt`); --no-chart skips it.

The paper's numbers below are typed in from the paper (cmc-paper.txt), each with its reader and
the place it is stated; ours come only from the JSON.
"""

import argparse
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402

DOC = common.REPO / "docs" / "results.md"
CHART = "results-factconsolidation.png"
FC_JSON = common.RESULTS / "factconsolidation.json"
MS_JSON = common.RESULTS / "memstream.json"
LENGTHS = ("6k", "32k", "64k", "262k")
FC_SUBSETS = tuple(f"{h}_{n}" for n in LENGTHS for h in ("sh", "mh"))
EXTRACTED_BY = ("model", "rule", "review", "cache")  # cmc's records.extracted_by, by prefix
NEW_PAGE = "# Results\n\nMeasured on this machine; see each section for how.\n"
TARGETS = {"aie_mh": 0.84, "aie_sh": 0.98, "tokens": 200}

# (view, reader, SH %, MH %, mean reader-input tokens, truncated, where the paper states it);
# None where the paper does not state the number.
# Kept as the strings the paper prints; "—" where the paper does not state the number.
PAPER_FC = [
    ("cmc", "HY4-preview", "97.25", "78.25", "184.64", "0", "§4.1, App. G"),
    ("prior-read-refresh", "HY4-preview", "97.25", "21.50", "194.56", "0", "§4.1, App. G"),
    ("stale-closure", "HY4-preview", "—", "11.75", "182", "0", "§4.1"),
    ("fact-bm25", "HY4-preview", "97.50", "20.75", "1,528", "0", "§4.1"),
    ("fact-bm25-matched", "HY4-preview", "97.00", "7.25", "182", "—", "§4.1"),
    ("latest-state", "HY4-preview", "—", "17.00", "—", "600", "§4.1"),
    ("raw-history", "HY4-preview", "—", "5.00", "—", "600", "§4.1"),
    ("cmc", "Qwen3.5-4B", "96.50", "76.50", "201.39", "—", "App. D.3"),
    ("stale-closure", "Qwen3.5-4B", "32.00", "16.50", "197.38", "—", "App. D.3"),
    ("fact-bm25", "Qwen3.5-4B", "96.50", "20.50", "1,794.00", "—", "App. D.3"),
    ("cmc", "Llama-3.1-8B-Instruct", "90.75", "55.00", "—", "—", "App. D.3 (363/400, 220/400)"),
    ("fact-bm25", "Llama-3.1-8B-Instruct", "92.00", "11.50", "—", "—", "App. D.3 (368/400, 46/400)"),
]
# 262K cells (HY4-preview, §4.4): (view, SH %, MH %); the history suffix is raw-history's read.
PAPER_FC_262K = [("cmc", "95.0", "61.0"), ("raw-history", "8.0", "1.0")]
# MQuAKE-MemStream, Table 3 (§4.3, App. F): Qwen3.5-4B reader, two-hop CF-3k cases, 798 MH
# questions after the audit; (view, MH % after the audit, MH % before it).
PAPER_MS = [("cmc", "96.62", "96.38"), ("latest-state", "53.38", "53.25"), ("stale-closure", "13.41", "13.63"),
            ("raw-history", "—", "60.38")]


# ── page ───────

def replace_section(page: str, name: str, body: str) -> str:
    """The page with the text between NAME's markers replaced by body (appended if absent)."""
    start, end = f"<!-- bench:{name}:start -->", f"<!-- bench:{name}:end -->"
    block = f"{start}\n{body.strip()}\n{end}"
    pattern = re.compile(re.escape(start) + r".*?" + re.escape(end), re.DOTALL)
    if pattern.search(page):
        return pattern.sub(lambda _: block, page, count=1)
    return page.rstrip("\n") + ("\n\n" if page.strip() else "") + block + "\n"


def pct(x) -> str:
    return "—" if x is None else f"{100 * x:.1f}%"


def num(x, digits=0) -> str:
    return "—" if x is None else f"{x:,.{digits}f}"


def table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows])


def _rows(doc) -> dict:
    return {(r["view"], r["subset"]): r for r in doc["results"]}


def _pooled(rows, view, subsets) -> dict | None:
    """One row pooled over several subset rows (weighted by n)."""
    parts = [rows[(view, s)] for s in subsets if (view, s) in rows]
    n = sum(p["n"] for p in parts)
    if not n:
        return None
    mean = lambda k: sum(p[k] * p["n"] for p in parts) / n  # noqa: E731
    return {"n": n, "accuracy": mean("accuracy"), "answer_in_evidence": mean("answer_in_evidence"),
            "answer_in_rendered": sum(p.get("answer_in_rendered", 0) * p["n"] for p in parts) / n,
            "mean_input_tokens": mean("mean_input_tokens"), "truncated": sum(p["truncated"] for p in parts)}


def _run_line(doc) -> str:
    extractor = " + ".join(dict.fromkeys(e.get("model", "unknown") for e in doc["extraction"].values()))
    models = (f"Reader and extractor: `{doc['model']}`." if extractor == doc["model"] else
              f"Reader: `{doc['model']}`; extraction: `{extractor}`.")
    return (f"{models} cmc commit `{doc['commit'][:12]}"
            f"{'-dirty' if doc['commit'].endswith('-dirty') else ''}`, run on {doc.get('date', '?')}.")


def _extraction(doc) -> str:
    rows = []
    for name, e in doc.get("extraction", {}).items():
        how: dict[str, int] = {}
        for key, n in e.get("extracted_by", {}).items():  # 'rule:7' counts as 'rule'
            how[key.split(":")[0]] = how.get(key.split(":")[0], 0) + n
        rows.append([name, f"`{e.get('model', 'unknown')}`", num(e["records"]), num(e["facts"]),
                     num(e["unresolved"]), num(e["no_fact"]), num(e["assertions"]), num(e["current_edges"]),
                     " / ".join(num(how.get(k, 0)) for k in EXTRACTED_BY)])
    return table(["database", "extracted by", "records", "facts", "unresolved", "no_fact", "assertions",
                  "current edges", f"records by {' / '.join(EXTRACTED_BY)}"], rows)


def _cell(rows, view, subset, key, fmt=pct) -> str:
    r = rows.get((view, subset))
    return fmt(r[key]) if r else "—"


def _generated(source: Path) -> str:
    try:
        shown = source.resolve().relative_to(common.REPO)
    except ValueError:
        shown = source
    return f"Generated by `bench/results.py` from `{shown}`; do not edit by hand."


def fc_section(doc: dict, chart: str | None, source: Path = FC_JSON) -> str:
    rows, views = _rows(doc), doc["views"]
    subsets = doc["subsets"]
    ns = {s: rows[(views[0], s)]["n"] for s in subsets if (views[0], s) in rows}
    full = set(subsets) == set(FC_SUBSETS) and all(n == 100 for n in ns.values())
    out = ["## FactConsolidation (issue 4)", "", _generated(source), "",
           _run_line(doc), ""]
    if full:
        out.append("Full grid: 8 subsets × 100 questions.")
    else:
        ran = ", ".join(f"{s} (first {n} questions)" for s, n in ns.items())
        out.append(f"**Partial run**: {ran}. The full grid (8 subsets × 100 questions) has not been run with "
                   "this harness yet: it waits for the fast extraction (issue 3). These numbers are not "
                   "comparable to the paper's 800-question figures.")
    out += ["", "Every view reads the same frozen extraction (below) and uses the same reader call and prompt "
            "(`cmc.answer`); all are rendered under the 60,000-character rule, then cut to the reader's "
            "budget (`cmc.focus`: over 600 characters, the records of the best-ranked hop paths). Accuracy is "
            "MemoryAgentBench's substring exact match; *answer in evidence* is the gold string found, as whole "
            "words, in the evidence the reader was shown; *tokens* is the mean reader prompt length in the "
            "reader's tokens; *truncated* counts evidence clipped by the 60,000-character rule.", "",
            "### By view", ""]
    body = [[f"`{v}`", _cell(rows, v, "sh", "accuracy"), _cell(rows, v, "mh", "accuracy"),
             _cell(rows, v, "all", "accuracy"), _cell(rows, v, "sh", "answer_in_evidence"),
             _cell(rows, v, "mh", "answer_in_evidence"),
             _cell(rows, v, "all", "mean_input_tokens", lambda x: num(x, 1)),
             _cell(rows, v, "all", "truncated", num), _cell(rows, v, "all", "n", num)] for v in views]
    out.append(table(["view", "SH acc", "MH acc", "overall", "SH answer in evidence",
                      "MH answer in evidence", "tokens", "truncated", "n"], body))
    lengths = [n for n in LENGTHS if any(s.endswith("_" + n) for s in subsets)]
    out += ["", "### By history length (accuracy; answer in evidence in brackets)", ""]
    header, body = ["view"], []
    for n in lengths:
        header += [f"SH {n.upper()}", f"MH {n.upper()}"]
    for v in views:
        cells = [f"`{v}`"]
        for n in lengths:
            for h in ("sh", "mh"):
                r = rows.get((v, f"{h}_{n}"))
                cells.append(f"{pct(r['accuracy'])} ({pct(r['answer_in_evidence'])})" if r else "—")
        body.append(cells)
    out.append(table(header, body))
    if chart:
        out += ["", f"![FactConsolidation by history length]({chart})"]
    out += ["", "### Targets (cmc view, as measured)", "", _fc_targets(rows, lengths, views)]
    if doc.get("empty_evidence_prompt_tokens"):
        out += ["", f"The reader prompt with no evidence record at all (`prompts/answer.txt` as filled by "
                f"`cmc.answer_prompt`) is {doc['empty_evidence_prompt_tokens']} tokens of this reader."]
    out += ["", "### Beside the paper", "",
            f"Ours: reader `{doc['model']}`. The paper's numbers are typed in from the paper with their readers; "
            "its extraction was an LLM's, ours is cmc's own. — means the paper does not state the number.", ""]
    body = []
    for view, reader, sh, mh, tok, trunc, where in PAPER_FC:
        if view in views:
            body.append([f"`{view}`", reader, sh, mh, tok, trunc, where])
    out.append(table(["view", "paper reader", "SH %", "MH %", "tokens", "truncated", "where"], body))
    if "262k" in lengths:
        body = []
        for view, sh, mh in PAPER_FC_262K:
            body.append([f"`{view}`", _cell(rows, view, "sh_262k", "accuracy"),
                         _cell(rows, view, "mh_262k", "accuracy"), sh, mh])
        out += ["", "262K cells (paper: HY4-preview, §4.4; its history suffix is our raw-history):", "",
                table(["view", "ours SH", "ours MH", "paper SH %", "paper MH %"], body)]
    out += ["", "### Extraction (frozen, shared by every view)", "", _extraction(doc),
            "", "### Commands", "", "```sh", ".venv/bin/pip install -r bench/requirements.txt   # matplotlib, "
            "for the chart", doc["command"], "python bench/results.py", "```"]
    return "\n".join(out)


def _fc_targets(rows, lengths, views) -> str:
    body = []
    for hop, goal in (("mh", TARGETS["aie_mh"]), ("sh", TARGETS["aie_sh"])):
        r = rows.get(("cmc", hop))
        if r and "answer_in_rendered" in r:
            body.append([f"{hop.upper()} answer in the rendered evidence ≥ {goal:.0%}", f"{pct(r['answer_in_rendered'])} "
                         f"(n={r['n']})", "yes" if r["answer_in_rendered"] >= goal else "no"])
        if r:
            body.append([f"{hop.upper()} answer in what the reader sees (after its budget) ≥ {goal:.0%}",
                         f"{pct(r['answer_in_evidence'])} (n={r['n']})", "yes" if r["answer_in_evidence"] >= goal else "no"])
    for n in lengths:
        r = _pooled(rows, "cmc", (f"sh_{n}", f"mh_{n}"))
        if r:
            body.append([f"mean reader input ≤ {TARGETS['tokens']} tokens at {n.upper()}",
                         f"{r['mean_input_tokens']:.1f} (n={r['n']})",
                         "yes" if r["mean_input_tokens"] <= TARGETS["tokens"] else "no"])
    ours = rows.get(("cmc", "mh"))
    for control in ("prior-read-refresh", "fact-bm25", "stale-closure"):
        r = rows.get((control, "mh"))
        if ours and r and control in views:
            body.append([f"MH accuracy: cmc above `{control}`", f"{pct(ours['accuracy'])} vs {pct(r['accuracy'])}",
                         "yes" if ours["accuracy"] > r["accuracy"] else "no"])
    return table(["target", "measured", "met"], body)


def memstream_cases() -> Path:
    return common.SHARED / "data" / "external" / "mquake-hard-deepedit" / "MQuAKE-hard.json"


def ms_section(doc: dict, source: Path = MS_JSON) -> str:
    rows, views, ds = _rows(doc), doc["views"], doc["dataset"]
    pools = doc["pools"]
    n_pools = ds["cases_used"] // ds["pool_size"]
    out = ["## MQuAKE-MemStream (issue 4)", "", _generated(source), "",
           _run_line(doc), "",
           f"Dataset: `{ds['name']}` ({ds['cases_used']} cases in {n_pools} pools of {ds['pool_size']}, "
           f"{ds['cases_left_out']} left out; seed {ds['seed']}; source sha256 `{ds['source_sha256'][:12]}…`). "
           f"Audit: {doc['audit']['cases_with_overwritten_hop']} cases with a hop overwritten in their pool; "
           f"excluded {doc['audit']['excluded']['mh']} MH and {doc['audit']['excluded']['sh']} SH questions."]
    if len(pools) < n_pools or doc.get("limit"):
        out.append("")
        limit = f", first {doc['limit']} kept questions of each pool and hop class" if doc.get("limit") else ""
        out.append(f"**Partial run**: pool {', '.join(map(str, pools))} of the {n_pools} pools{limit}. "
                   "The full run waits for the fast extraction (issue 3).")
    body = [[f"`{v}`", _cell(rows, v, "sh", "accuracy"), _cell(rows, v, "mh", "accuracy"),
             _cell(rows, v, "sh", "answer_in_evidence"), _cell(rows, v, "mh", "answer_in_evidence"),
             _cell(rows, v, "all", "mean_input_tokens", lambda x: num(x, 1)),
             _cell(rows, v, "all", "truncated", num), _cell(rows, v, "all", "n", num)] for v in views]
    out += ["", table(["view", "SH acc", "MH acc", "SH answer in evidence", "MH answer in evidence", "tokens",
                       "truncated", "n"], body)]
    out += ["", "Beside the paper (Table 3: Qwen3.5-4B reader, 800 two-hop MQuAKE-Remastered CF-3k cases, 798 MH "
            "questions after its audit; its SH accuracies are not stated in the text; its raw history was trimmed "
            "to the reader's 4,096-token window). Different cases and reader: not comparable number for number.",
            "", table(["view", "ours MH", "paper MH % (after audit)", "paper MH % (before audit)"],
                      [[f"`{v}`", _cell(rows, v, "mh", "accuracy"), after, before]
                       for v, after, before in PAPER_MS if v in views])]
    default = (common.REPO / ds["source"]).resolve() == memstream_cases().resolve()
    out += ["", "Extraction (frozen, shared by every view):", "", _extraction(doc), "", "Commands:", "", "```sh",
            "python bench/memstream.py build" + ("" if default else f" --cases {ds['source']}"),
            doc["command"], "python bench/results.py", "```"]
    return "\n".join(out)


# ── chart ──────

def fc_chart(doc: dict, path: Path) -> None:
    """Accuracy and answer-in-evidence by history length, one bar per view."""
    try:
        import matplotlib
    except ImportError:
        raise SystemExit("The chart needs matplotlib: .venv/bin/pip install -r bench/requirements.txt "
                         "(or pass --no-chart).") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows, views = _rows(doc), doc["views"]
    lengths = [n for n in LENGTHS if any(s.endswith("_" + n) for s in doc["subsets"])]
    fig, axes = plt.subplots(2, 2, figsize=(11, 7), sharey=True)
    width = 0.8 / len(views)
    for col, hop in enumerate(("sh", "mh")):
        for row, (metric, label) in enumerate((("accuracy", "accuracy"),
                                                ("answer_in_evidence", "answer in evidence"))):
            ax = axes[row][col]
            for i, v in enumerate(views):
                ys = [100 * rows[(v, f"{hop}_{n}")][metric] if (v, f"{hop}_{n}") in rows else 0 for n in lengths]
                ax.bar([x + (i - (len(views) - 1) / 2) * width for x in range(len(lengths))], ys, width, label=v)
            ax.set_xticks(range(len(lengths)), [n.upper() for n in lengths])
            ax.set_title(f"{hop.upper()} {label}")
            ax.set_ylim(0, 100)
            ax.set_ylabel("%")
            ax.grid(axis="y", alpha=0.3)
    ns = sorted({rows[(views[0], s)]["n"] for s in doc["subsets"] if (views[0], s) in rows})
    fig.suptitle(f"FactConsolidation by history length — reader {doc['model']}, "
                 f"{'/'.join(map(str, ns))} questions per subset")
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=len(views), fontsize=8, frameon=False)
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv: list[str] | None = None) -> str:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--fc", default=str(FC_JSON), help="FactConsolidation results JSON")
    p.add_argument("--memstream", default=str(MS_JSON), help="MQuAKE-MemStream results JSON")
    p.add_argument("--out", default=str(DOC), help="the results page")
    p.add_argument("--no-chart", action="store_true", help="do not draw the PNG chart")
    args = p.parse_args(argv)
    out = Path(args.out)
    page = out.read_text() if out.exists() else NEW_PAGE
    fc, ms = Path(args.fc), Path(args.memstream)
    if fc.is_file():
        doc = json.loads(fc.read_text())
        if not args.no_chart:
            fc_chart(doc, out.parent / CHART)
        page = replace_section(page, "factconsolidation", fc_section(doc, None if args.no_chart else CHART, fc))
    else:
        common.log(f"no {fc}: the FactConsolidation section is left as it is")
    if ms.is_file():
        page = replace_section(page, "memstream", ms_section(json.loads(ms.read_text()), ms))
    else:
        common.log(f"no {ms}: the MemStream section is left as it is")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(page)
    common.log(f"wrote {out}")
    return page


if __name__ == "__main__":
    main()
