"""Generate docs/results.md (and its PNG chart) from the harnesses' JSON files in bench/results/,
so every number on the page is one a run wrote.

    python bench/results.py                 # writes docs/results.md and docs/results-factconsolidation.png
    python bench/results.py --no-chart      # the page only (no matplotlib needed)
    python bench/results.py --results DIR --out PAGE

The whole page is written anew from the JSONs alone: no hand-written section is kept, and the
harnesses (bench/natural.py, locomo.py, factconsolidation.py, memstream.py, gold_audit.py,
extraction.py, everyday.py, read_latency.py, mcp_startup.py) write only their JSON. A section
whose JSON is missing is left out. The same JSONs give the same page, byte for byte. The date
of a run is the one its JSON records; a JSON without one is marked "not recorded", and whether
its code predates the write-side rule deletion is then read from the file's git log date. No
JSON records the machine except mcp_startup.json (cores, Python, load).

The chart needs matplotlib (`.venv/bin/pip install -r bench/requirements.txt`); --no-chart skips it.

The paper's numbers below are typed in from the paper (cmc-paper.txt), each with its reader and
the place it is stated; ours come only from the JSON.
"""

import argparse
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402

DOC = common.REPO / "docs" / "results.md"
CHART = "results-factconsolidation.png"
LENGTHS = ("6k", "32k", "64k", "262k")
FC_SUBSETS = tuple(f"{h}_{n}" for n in LENGTHS for h in ("sh", "mh"))
EXTRACTED_BY = ("model", "rule", "review", "cache")  # cmc's records.extracted_by, by prefix
TARGETS = {"aie_mh": 0.84, "aie_sh": 0.98, "tokens": 200}
# The write-side repair rules (relabelling a model's triples after the fact) were deleted in this
# commit; a run on code before it measured them in place (docs/design.md says why they went).
RULES_DELETED = ("4ff67a9", "2026-12-06")
MODES = {"one-by-one": "one record per `add`", "batch": "each scenario in one `add`"}
NATURAL_CURRENT = "natural-dev-one-by-one.json"  # the run of the code as it is

# The paper's figures beside ours (bench/data/paper.json: FactConsolidation §4.1 / App. D.3 / App. G,
# its 262K cells §4.4, MQuAKE-MemStream Table 3, the 262K read §3), as the paper prints them.
PAPER = json.loads((Path(__file__).parent / "data" / "paper.json").read_text(encoding="utf-8"))
PAPER_FC = [tuple(r) for r in PAPER["factconsolidation"]["rows"]]
PAPER_FC_262K = [tuple(r) for r in PAPER["factconsolidation_262k"]["rows"]]
PAPER_MS = [tuple(r) for r in PAPER["memstream"]["rows"]]
PAPER_READ_262K = tuple(PAPER["read_262k"]["row"])


# ── formatting ──

def pct(x) -> str:
    return "—" if x is None else f"{100 * x:.1f}%"


def num(x, digits=0) -> str:
    return "—" if x is None else f"{x:,.{digits}f}"


def secs(x) -> str:
    return "—" if x is None else f"{x:.3f} s" if x < 1 else f"{x:.2f} s"


def table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows])


def _rows(doc) -> dict:
    return {(r["view"], r["subset"]): r for r in doc["results"]}


def _cell(rows, view, subset, key, fmt=pct) -> str:
    r = rows.get((view, subset))
    return fmt(r[key]) if r and r.get(key) is not None else "—"


def _pooled(rows, view, subsets) -> dict | None:
    """One row pooled over several subset rows (weighted by n)."""
    parts = [rows[(view, s)] for s in subsets if (view, s) in rows]
    n = sum(p["n"] for p in parts)
    if not n:
        return None
    mean = lambda k: sum(p[k] * p["n"] for p in parts) / n  # noqa: E731
    return {"n": n, "accuracy": mean("accuracy"), "answer_in_evidence": mean("answer_in_evidence"),
            "mean_input_tokens": mean("mean_input_tokens"), "truncated": sum(p["truncated"] for p in parts)}


# ── provenance: command, commit, date, machine of each JSON ──

class Runs:
    """What the page says about where each JSON came from."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.logged = _git_dates(folder)
        self.rows: list[list[str]] = []

    def date(self, name: str, doc) -> str:
        d = doc.get("date") if isinstance(doc, dict) else None
        if d:
            return d
        logged = self.logged.get(name)
        return f"not recorded (file committed {logged})" if logged else "not recorded"

    def before_deletion(self, name: str, doc) -> bool | None:
        """True when the run's code still had the write-side repair rules (by the JSON's commit
        where git knows it, else by its date or the file's git log date)."""
        commit = (doc.get("commit") or "") if isinstance(doc, dict) else ""
        known = _is_descendant(commit.removesuffix("-dirty"), RULES_DELETED[0], self.folder)
        if known is not None:
            return not known
        d = (doc.get("date") if isinstance(doc, dict) else None) or self.logged.get(name)
        if not d or d == RULES_DELETED[1]:
            return None
        return d < RULES_DELETED[1]

    def line(self, name: str, doc, what: str, writes: bool = True) -> str:
        """The provenance sentence a section gives a JSON (and its row in the index of runs).
        writes: whether the write side (extraction) took part in the run."""
        d = doc if isinstance(doc, dict) else {}
        command, commit = d.get("command"), d.get("commit")
        machine = _machine(d)
        before = self.before_deletion(name, doc)
        code = {True: "before", False: "after", None: "not known"}[before]
        self.rows.append([f"`{name}`", what, f"`{commit[:12]}`" if commit else "not recorded",
                          self.date(name, doc), machine, code])
        return ((f"`{command}`" if command else "Command not recorded") + "; "
                + (f"commit `{commit[:12]}{'-dirty' if commit.endswith('-dirty') else ''}`" if commit
                   else "commit not recorded")
                + f"; date {self.date(name, doc)}; machine {machine}"
                + ("; **before the write-side rule deletion**." if before and writes else "."))


def _upper(text: str) -> str:
    return text[:1].upper() + text[1:]


def _machine(doc: dict) -> str:
    if "cpus" not in doc:
        return "not recorded"
    load = doc.get("load_average_1_5_15_min")
    return (f"{doc['cpus']} cores, Python {doc.get('python', '?')}"
            + (f", load average {load[0]} (1 min)" if load else ""))


def _git(folder: Path, *args: str) -> subprocess.CompletedProcess | None:
    try:
        return subprocess.run(["git", "-C", str(folder), *args], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None


def _git_dates(folder: Path) -> dict[str, str]:
    """The date of each file's newest commit, by file name (files git does not track: none)."""
    if not folder.is_dir():
        return {}
    done = _git(folder, "log", "--relative", "--format=%x00%ad", "--date=short", "--name-only", "--", ".")
    dates: dict[str, str] = {}
    if done is None or done.returncode:
        return dates
    day = None
    for line in done.stdout.splitlines():
        if line.startswith("\0"):
            day = line[1:]
        elif line.strip() and day:
            dates.setdefault(Path(line.strip()).name, day)
    return dates


def _is_descendant(commit: str, ancestor: str, folder: Path) -> bool | None:
    """Whether commit contains ancestor (None when git does not know both)."""
    if not commit or not folder.is_dir():
        return None
    done = _git(folder, "merge-base", "--is-ancestor", ancestor, commit)
    if done is None or done.returncode not in (0, 1):
        return None
    return done.returncode == 0


# ── natural-dev ──

def _reader_name(model_file: str) -> str:
    """qwen2.5-coder-1.5b-instruct-q4_k_m.gguf -> Qwen2.5-Coder-1.5B."""
    return "Qwen2.5-Coder-1.5B" if model_file.startswith("qwen") else model_file.removesuffix(".gguf")


def natural_label(name: str, doc: dict) -> tuple[str, str]:
    """A short name for a run's column, and what the run was."""
    built = bool(doc["seconds"].get("adds"))
    repairs_off = "norepairs" in name
    control = doc.get("view") == "every record"
    short = ("control: every record read" if control else "built and asked" if built else "asked again") + \
        (", repair rules off" if repairs_off else "") + \
        (f", {_reader_name(doc['answer_model'])} reader" if doc.get("answer_model") else "") + \
        (f" reading {num(doc['budget'])} characters" if doc.get("budget") and doc.get("answer_model") else "") + \
        (f", judge {_reader_name(doc['judge'])}" if doc.get("judge", "none") != "none" else "")
    parts = [MODES.get(doc["mode"], doc["mode"]) + (" via the CLI" if doc.get("cli") else ""), f"judge {doc.get('judge', 'none')}",
             "each record added, then every question asked" if built else
             "no add: the databases an earlier run kept (`--keep`) asked again with this run's read"]
    if control:
        parts.append("no memory system: the reader reads every record of the scenario with cmc's answer prompt "
                     "(`--read-all`)")
    if repairs_off:
        parts.append("those databases built with the write-side repair rules switched off (`CMC_REPAIRS=0`)")
    return short, "; ".join(parts)


def natural_section(docs: dict[str, dict], runs: Runs) -> str:
    names = sorted(docs, key=lambda n: (not docs[n]["seconds"].get("adds"), "norepairs" in n, n))
    label = {n: natural_label(n, docs[n]) for n in names}
    out = ["## natural-dev", "",
           "Short personal-memory scenarios (records written the way an agent stores what a user says, "
           "then questions), each in a fresh database, read end to end (`bench/natural.py`). **Dev data: it "
           "shaped the code** (the windows read whole beside the graph read, the deletion of the write-side "
           "repair rules, the replacement judge's prompt and marking in place of hiding). *Answered*: the benchmark's normalised substring match; *answer in "
           "evidence*: a gold answer, as whole words (each allowed a plural or possessive s), in the records the "
           "reader was shown; *stale shown*: update "
           "questions whose evidence also shows one of the scenario's past values (*as current*: in a record "
           "without the current value and not marked \"(replaced later)\")."]
    body = []
    for n in names:
        d = docs[n]
        a = next(r for r in d["results"] if r["kind"] == "all")
        s, st = d["seconds"], d["stale_shown"]
        body.append([label[n][0], str(d["scenarios"]), str(a["n"]), f"**{pct(a['accuracy'])}** ({a['right']})",
                     pct(a["answer_in_evidence"]),
                     f"{st['stale_shown']} of {st['update_questions_with_past_value']}"
                     + (f" ({st['stale_current_shown']} as current)" if "stale_current_shown" in st else ""),
                     secs(s.get("ask_median")), secs(s.get("add_warm_median")), secs(s.get("add_first")),
                     num(s.get("adds")) if s.get("adds") else "—"])
    out += ["", table(["run", "scenarios", "questions", "answered", "answer in evidence", "stale shown",
                       "ask median", "add median (warm)", "first add", "adds"], body)]
    kinds = sorted({r["kind"] for d in docs.values() for r in d["results"] if r["kind"] != "all"})
    by = {n: {r["kind"]: r for r in d["results"]} for n, d in docs.items()}
    body = []
    for k in kinds:
        count = next((by[n][k]["n"] for n in names if k in by[n]), 0)
        body.append([k, str(count)] + [f"{pct(by[n][k]['accuracy'])} ({pct(by[n][k]['answer_in_evidence'])})"
                                       if k in by[n] else "—" for n in names])
    out += ["", "By kind (answered; answer in evidence in brackets):", "",
            table(["kind", "n"] + [label[n][0] for n in names], body)]
    ext = [(n, docs[n]["extraction"]) for n in names if docs[n].get("extraction")]
    if ext:
        out += ["", "Extraction status of every record added: " + "; ".join(
            f"{label[n][0]}: " + ", ".join(f"{k} {v}" for k, v in e.items()) for n, e in ext) + "."]
    out += ["", "Runs:", ""] + [f"- **{label[n][0]}** (`{n}`; extractor `{docs[n]['model']}`, "
                                f"reader `{docs[n].get('answer_model') or docs[n]['model']}`; "
                                f"{label[n][1]}): " + runs.line(n, docs[n], "natural-dev") for n in names]
    return "\n".join(out)


# ── LoCoMo ──

LOCOMO_DEFAULT_RUN = re.compile(r"locomo-conv-\d+-answer\.json")  # one conversation, cmc's own budget


def _sample(doc: dict) -> str:
    """', one question in 3' for a run that asked every third question (', starting at question
    2' when it did not start at the first), else ''."""
    if doc.get("every", 1) <= 1:
        return ""
    start = f", starting at question {doc['offset'] + 1}" if doc.get("offset") else ""
    return f", one question in {doc['every']}{start}"


def _answerable(doc: dict) -> list[str]:
    """The answerable categories a LoCoMo run asked (those it has questions of)."""
    return [r["category"] for r in doc["results"] if r["category"] not in ("1-4", "5")]


def locomo_section(docs: dict[str, dict], runs: Runs) -> str:
    out = ["## LoCoMo dev", "",
           "Long two-person conversations (`locomo10-dev.json`), one record per turn with its session's date. "
           "**Dev data: the window read and the `ask` budget were chosen on it.**",
           "",
           "*Every gold turn*: all of a question's gold turns are in cmc's recall (6,000 characters); *BM25*: plain "
           "BM25 over the turns, cut to the same number of characters as cmc's evidence for that question; *gold "
           "turns found*: the mean fraction of gold turns in the evidence; *token F1*, *substring*: the answer `ask` "
           "gives (`ask` selects the characters each run names the same way; 6,000 before the record-based "
           "window read of 2026-12-06); *\"not in memory\"*: the share of questions answered so."]
    for name, d in docs.items():
        extracted = "model extraction at each add" if d.get("extract") else \
            "turns stored without extraction (the window read alone; no write-side code ran)"
        only = f", categories {', '.join(map(str, d['categories']))}" if d.get("categories", [1, 2, 3, 4, 5]) != [1, 2, 3, 4, 5] else ""
        only += _sample(d)
        only += f", the reader reading {num(d['ask_budget'])} characters" if d.get("answer") and d.get("ask_budget") else ""
        dates = ", reader without the dates of relative times (`--no-dates`)" if d.get("reader_dates") is False else ""
        out += ["", f"### {'Answers' if d.get('answer') else 'Retrieval'}: {', '.join(d['conversations'])}{only}{dates}", "",
                f"{len(d['conversations'])} conversation(s), "
                f"{num(sum(i['turns'] for i in d['ingest'].values()))} turns, {extracted}; "
                + (f"reader `{d.get('answer_model') or d['model']}`. " if d.get("answer") else "no model. ")
                + runs.line(name, d, "LoCoMo", writes=bool(d.get("extract"))), ""]
        header = ["category", "n", "every gold turn: cmc", "BM25", "gold turns found: cmc", "BM25", "median evidence"]
        if d.get("answer"):
            header += ["token F1", "substring", "\"not in memory\""]
        body = []
        for r in d["results"]:
            label = f"{r['category']} {r['name']}"
            row = [f"**{label}**" if r["category"] == "1-4" else label, str(r["n"]),
                   pct(r["cmc_recall"]), pct(r["bm25_recall"]), pct(r["cmc_found"]), pct(r["bm25_found"]),
                   f"{num(r['median_evidence_chars'])} chars"]
            if d.get("answer"):
                row += ["—" if r["f1"] is None else f"{r['f1']:.3f}", pct(r["substring"]), pct(r["abstention"])]
            body.append(row)
        out.append(table(header, body))
        s = d["seconds"]
        out += ["", f"Recall: {s['recall_median'] * 1000:.1f} ms a question (median)"
                + (f"; ask: {secs(s['ask_median'])} (median)." if s.get("ask_median") else ".")]
    return "\n".join(out)


# ── the reader ──

def reader_section(found: dict, runs: Runs) -> str:
    """Every answer run, by the model that read the evidence: the table the default reader is chosen on."""
    body = []
    for name, d in found.get("natural", {}).items():
        if runs.before_deletion(name, d):
            continue
        a = next(r for r in d["results"] if r["kind"] == "all")
        body.append([f"`{d.get('answer_model') or d['model']}`", "natural-dev, " + MODES.get(d["mode"], d["mode"])
                     + (", control: every record read" if d.get("view") == "every record" else "")
                     + (f", {num(d['budget'])} characters read" if d.get("budget") else ""),
                     f"{a['n']}", f"**{pct(a['accuracy'])}** answered", secs(d["seconds"].get("ask_median")),
                     f"`{name}`"])
    for name, d in found.get("locomo", {}).items():
        if not d.get("answer") or not d.get("ask_budget"):
            continue  # runs from before the ask budget was set apart from recall's
        r = next((r for r in d["results"] if r["category"] == "1-4"), None)
        c5 = next((r for r in d["results"] if r["category"] == "5"), None)
        cats = _answerable(d)
        body.append([f"`{d.get('answer_model') or d['model']}`", f"LoCoMo {', '.join(d['conversations'])}{_sample(d)}, {num(d['ask_budget'])} characters read",
                     f"{r['n'] if r else 0} + {c5['n'] if c5 else 0}",
                     "; ".join(([f"token F1 **{r['f1']:.3f}** (categor{'ies' if len(cats) > 1 else 'y'} {', '.join(map(str, cats))})"]
                                if r else [])
                               + ([f"adversarial \"not in memory\" {pct(c5['abstention'])}"] if c5 else [])),
                     secs(d["seconds"].get("ask_median")), f"`{name}`"])
    return "\n".join(["## The reader", "",
                      "The answer runs since the write-side rule deletion, by the model that read the evidence "
                      "(`--answer-model`, `--model` or `--budget` in its command; each run's commit is under its "
                      "section, and rows compare where the code and the sample are the same). The default "
                      "reader is the one that reads best within the 5-second `ask` target on this 2-core machine.",
                      "", table(["reader", "data", "questions", "quality", "ask median", "JSON"], body)])


# ── FactConsolidation ──

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


def _models(doc) -> str:
    extractor = " + ".join(dict.fromkeys(e.get("model", "unknown") for e in doc["extraction"].values()))
    return (f"reader and extractor `{doc['model']}`" if extractor == doc["model"] else
            f"reader `{doc['model']}`, extraction `{extractor}`")


def fc_section(doc: dict, chart: str | None, runs: Runs, name: str = "factconsolidation.json") -> str:
    rows, views = _rows(doc), doc["views"]
    subsets = doc["subsets"]
    ns = {s: rows[(views[0], s)]["n"] for s in subsets if (views[0], s) in rows}
    full = set(subsets) == set(FC_SUBSETS) and all(n == 100 for n in ns.values())
    out = ["## FactConsolidation", "",
           "MemoryAgentBench's FactConsolidation (Conflict_Resolution): numbered fact lines, many overwritten, "
           "then single-hop (SH) and multi-hop (MH) questions at four history lengths. **Dev data: it shaped the "
           "code** (extraction, anchoring and ranking were tuned on it).", ""]
    if full:
        out.append("Full grid: 8 subsets × 100 questions.")
    else:
        ran = ", ".join(f"{s} (first {n} questions)" for s, n in ns.items())
        out.append(f"**Partial run**: {ran}; not comparable to the paper's 800-question figures.")
    out += ["", "Every view reads the same frozen extraction (below) and uses the same reader call and prompt "
            "(`cmc.answer`). Accuracy is MemoryAgentBench's substring exact match; *answer in evidence* is the gold "
            "string found, as whole words, in the evidence the reader was shown; *tokens* is the mean reader prompt "
            "length in the reader's tokens; *truncated* counts evidence clipped by the 60,000-character rule.", "",
            "### By view", ""]
    body = [[f"`{v}`", _cell(rows, v, "sh", "accuracy"), _cell(rows, v, "mh", "accuracy"),
             _cell(rows, v, "all", "accuracy"), _cell(rows, v, "sh", "answer_in_evidence"),
             _cell(rows, v, "mh", "answer_in_evidence"),
             _cell(rows, v, "all", "mean_input_tokens", lambda x: num(x, 1)),
             _cell(rows, v, "all", "truncated", num), _cell(rows, v, "all", "n", num)] for v in views]
    out.append(table(["view", "SH acc", "MH acc", "overall", "SH answer in evidence",
                      "MH answer in evidence", "tokens", "truncated", "n"], body))
    out += ["", f"{_upper(_models(doc))}. Run: " + runs.line(name, doc, "FactConsolidation")]
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
        out += ["", f"The reader prompt with no evidence record at all is {doc['empty_evidence_prompt_tokens']} "
                "tokens of this reader."]
    out += ["", "### Beside the paper", "",
            f"Ours: reader `{doc['model']}`. The paper's numbers are typed in from the paper with their readers; "
            "its extraction was an LLM's, ours is cmc's own. — means the paper does not state the number.", ""]
    body = []
    for view, reader, sh, mh, tok, trunc, where in PAPER_FC:
        if view in views:
            body.append([f"`{view}`", _cell(rows, view, "sh", "accuracy"), _cell(rows, view, "mh", "accuracy"),
                         _cell(rows, view, "all", "mean_input_tokens", lambda x: num(x, 1)),
                         reader, sh, mh, tok, trunc, where])
    out.append(table(["view", "ours SH", "ours MH", "our tokens", "paper reader", "paper SH %", "paper MH %",
                      "paper tokens", "paper truncated", "where"], body))
    if "262k" in lengths:
        body = []
        for view, sh, mh in PAPER_FC_262K:
            body.append([f"`{view}`", _cell(rows, view, "sh_262k", "accuracy"),
                         _cell(rows, view, "mh_262k", "accuracy"), sh, mh])
        out += ["", "262K cells (paper: HY4-preview, §4.4; its history suffix is our raw-history):", "",
                table(["view", "ours SH", "ours MH", "paper SH %", "paper MH %"], body)]
    out += ["", "### Extraction (frozen, shared by every view)", "", _extraction(doc)]
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


def fc_other_section(docs: dict[str, dict], runs: Runs) -> str:
    """The other FactConsolidation runs (other readers, the reworded copy, older grids): cmc view."""
    out = ["### Other FactConsolidation runs (cmc view)", "",
           "Older runs, kept for what they compare: another reader on the same evidence, the reworded copy "
           "(`bench/reworded.py`: each explained fact line said in other words, same arguments), single lengths. "
           "Each measured the code of its own commit.", ""]
    body = []
    for name, d in docs.items():
        rows = _rows(d)
        cells = ", ".join(f"{s} {pct(rows[('cmc', s)]['accuracy'])}" for s in d["subsets"] if ("cmc", s) in rows)
        data = "reworded" if "reworded" in (d.get("data") or "") else "original"
        window = f"; choice window {d['choice_window']}" if d.get("choice_window") else ""
        body.append([f"`{name}`", f"`{d['model']}`{window}", data, _cell(rows, "cmc", "sh", "accuracy"),
                     _cell(rows, "cmc", "mh", "accuracy"), _cell(rows, "cmc", "mh", "answer_in_evidence"),
                     _cell(rows, "cmc", "all", "mean_input_tokens", lambda x: num(x, 1)), cells])
    out.append(table(["JSON", "reader", "data", "SH acc", "MH acc", "MH answer in evidence", "tokens",
                      "by subset"], body))
    out.append("")
    for name, d in docs.items():
        out.append(f"- `{name}`: " + runs.line(name, d, "FactConsolidation"))
    return "\n".join(out)


def gold_section(doc: dict, runs: Runs, name: str = "gold_audit.json") -> str:
    classes = ("current", "superseded_only", "unreachable")
    body = []
    for r in doc["results"]:
        n = r["n"] or 1
        body.append([r["subset"].upper().replace("_", " "), str(r["n"]), *(f"{r[c]} ({r[c] / n:.1%})" for c in classes),
                     f"{(r['current'] + r['unreachable']) / n:.1%}"])
    return "\n".join([
        "### Where the gold answers are (FactConsolidation, no model)", "",
        runs.line(name, doc, "FactConsolidation gold audit"), "",
        "From each question's anchors, on the frozen extraction: *current* = the gold is in cmc's rendered "
        "evidence (the walk over the current graph); *superseded only* = found only when the walk may also "
        "follow facts a later record overwrote (the benchmark's gold chain runs through an old value); "
        "*unreachable* = neither. *Bound* = current + unreachable.", "",
        table(["subset", "n", "current", "superseded only", "unreachable", "bound"], body), "",
        "(subject, relation) keys stated in more than one sentence form, per history: "
        + ", ".join(f"{k.upper()} {v}" for k, v in doc["mixed_form_keys"].items()) + "."])


# ── MQuAKE-MemStream ──

def ms_section(doc: dict, runs: Runs, name: str = "memstream.json") -> str:
    rows, views, ds = _rows(doc), doc["views"], doc["dataset"]
    pools = doc["pools"]
    n_pools = ds["cases_used"] // ds["pool_size"]
    out = ["## MQuAKE-MemStream", "",
           "MQuAKE cases turned into ordered memory streams as the paper's §4.3 builds them (`bench/memstream.py`); "
           "held out: no code was tuned on it.", "",
           f"Dataset: `{ds['name']}` ({ds['cases_used']} cases in {n_pools} pools of {ds['pool_size']}, "
           f"{ds['cases_left_out']} left out; seed {ds['seed']}; source sha256 `{ds['source_sha256'][:12]}…`). "
           f"Audit: {doc['audit']['cases_with_overwritten_hop']} cases with a hop overwritten in their pool; "
           f"excluded {doc['audit']['excluded']['mh']} MH and {doc['audit']['excluded']['sh']} SH questions."]
    if len(pools) < n_pools or doc.get("limit"):
        limit = f", first {doc['limit']} kept questions of each pool and hop class" if doc.get("limit") else ""
        out += ["", f"**Partial run**: pool {', '.join(map(str, pools))} of the {n_pools} pools{limit}."]
    body = [[f"`{v}`", _cell(rows, v, "sh", "accuracy"), _cell(rows, v, "mh", "accuracy"),
             _cell(rows, v, "sh", "answer_in_evidence"), _cell(rows, v, "mh", "answer_in_evidence"),
             _cell(rows, v, "all", "mean_input_tokens", lambda x: num(x, 1)),
             _cell(rows, v, "all", "truncated", num), _cell(rows, v, "all", "n", num)] for v in views]
    out += ["", table(["view", "SH acc", "MH acc", "SH answer in evidence", "MH answer in evidence", "tokens",
                       "truncated", "n"], body)]
    out += ["", f"{_upper(_models(doc))}. Run: " + runs.line(name, doc, "MQuAKE-MemStream")]
    out += ["", "Beside the paper (Table 3: Qwen3.5-4B reader, 800 two-hop MQuAKE-Remastered CF-3k cases, 798 MH "
            "questions after its audit; its SH accuracies are not stated in the text; its raw history was trimmed "
            "to the reader's 4,096-token window). Different cases and reader: not comparable number for number.",
            "", table(["view", "ours MH", "paper MH % (after audit)", "paper MH % (before audit)"],
                      [[f"`{v}`", _cell(rows, v, "mh", "accuracy"), after, before]
                       for v, after, before in PAPER_MS if v in views])]
    out += ["", "Extraction (frozen, shared by every view):", "", _extraction(doc)]
    return "\n".join(out)


# ── extraction, everyday, latency, start-up ──

def extraction_section(docs: dict[str, dict], runs: Runs) -> str:
    out = ["## Extraction at scale (FactConsolidation histories)", "",
           "Each history ingested from scratch with cmc's own extraction (cache, induced rules, batched model "
           "calls; `bench/extraction.py`). A fact line is right when one of its triples has the line's subject and "
           "object (as cmc entity keys), the true arguments coming from MQuAKE's relation templates or, for the "
           "reworded copy, its sidecar. *As written*: the assertions alone, without the facts kept the other way "
           "round. Dev data (FactConsolidation)."]
    for name, d in docs.items():
        body = []
        for r in d["results"]:
            body.append([r["length"].upper(), num(r["records"]), f"{r['seconds']:.1f} s", num(r["model_calls"]),
                         f"{num(r['by_model'])} / {num(r['by_rule'])} / {num(r['by_cache'])}", num(r["reviewed"]),
                         f"{num(r['correct'])} of {num(r['gold_lines'])}", f"**{100 * r['accuracy']:.2f}%**",
                         num(r["correct_as_written"]), num(r["other_way"]), f"`{r['model']}`, batch {r['batch']}"])
        out += ["", f"`{name}`. " + runs.line(name, d, "extraction"), "",
                table(["history", "records", "wall", "model calls", "records by model / rule / cache", "reviewed",
                       "right", "accuracy", "as written", "other way", "model"], body)]
        split = [r for r in d["results"] if "subject_first" in r]
        if split:
            out += ["", "Reworded lines by which argument the wording names first (right of gold lines): " + "; ".join(
                f"{r['length'].upper()} subject first {r['subject_first']['correct']} of "
                f"{r['subject_first']['gold_lines']}, object first {r['object_first']['correct']} of "
                f"{r['object_first']['gold_lines']}" for r in split) + "."]
    return "\n".join(out)


def everyday_section(docs: dict[str, dict], runs: Runs) -> str:
    names = list(docs)
    out = ["## Everyday memory", "",
           "Short hand-written histories in which a person changes their mind, read end to end "
           "(`bench/everyday.py`); written for this bench, not taken from any benchmark. Dev data: several sets "
           "were written as held-out checks and run before any change made for them, but many of their misses "
           "then led to rules (the write-side ones are deleted since). Kinds: `same` (the update repeats the sentence with a new value), `reworded`, "
           "`chain` (a hop through the updated fact), `keep` (another fact of the subject survives), `reverse` "
           "(the question names the value), `value` (dates, times, numbers).", ""]
    kinds = [k for k in next(iter(docs.values()))["summary"] if k != "all"] + ["all"]
    body = []
    for k in kinds:
        cells = []
        for name in names:
            s = docs[name]["summary"].get(k)
            cells.append(f"{s['right']} of {s['n']} ({s['right'] / s['n']:.1%})" if s else "—")
        body.append([f"**{k}**" if k == "all" else k] + cells)
    out += [table(["kind"] + [f"`{n}`" for n in names], body), "", "Runs:", ""]
    for name in names:
        d = docs[name]
        mode = "one record per add" if d.get("one_by_one") else "each scenario in one add"
        out.append(f"- **`{name}`** (extraction `{d['model']}`, reader `{d['answer_model']}`, {mode}): "
                   + runs.line(name, d, "everyday"))
    return "\n".join(out)


def latency_section(rows: list[dict], runs: Runs, name: str = "read_latency.json") -> str:
    out = ["## Read latency and ingest", "",
           "The read path alone (anchor, traverse, render; no model) over the 262K FactConsolidation history and "
           "synthetic records of the same shape up to the larger size (`bench/read_latency.py`); triples come from "
           "templates, not a model. Ingest: new rule-matchable records extracted without a model, in process "
           "(median of the runs) and through `python cmc.py add --file`. " + runs.line(name, rows, "read latency"), ""]
    body = [[num(r["records"]), num(r["questions"]), f"**{r['p50_ms']:.2f}** / {r['p95_ms']:.2f} / {r['max_ms']:.2f} ms",
             f"{r['cpu_p50_ms']:.2f} / {r['cpu_p95_ms']:.2f} ms",
             f"{num(r['gold_in_evidence'])} of {num(r['questions'])}", f"{num(r['evidence_chars_p50'])} chars",
             f"{num(r['ingest_records_per_s'])} /s (" + ", ".join(num(x) for x in r.get("ingest_runs", [])) + ")",
             f"{num(r['cli_ingest_records_per_s'])} /s", f"{r['db_bytes'] / 1e6:,.0f} MB", f"{r['build_s']:.1f} s"]
            for r in rows]
    out.append(table(["records", "questions", "read p50 / p95 / max", "CPU p50 / p95", "gold in evidence",
                      "evidence p50", "ingest in process (runs)", "`add --file`", "database", "build"], body))
    at_262k = [r for r in rows if r["records"] < 100_000]
    if at_262k:
        out += ["", f"Beside the paper (§3 *Implementation cost*, timing in App. J): the graph read at 262K takes "
                f"{PAPER_READ_262K[0]} ms median, {PAPER_READ_262K[1]} ms p95 (CPU); ours "
                f"{at_262k[0]['cpu_p50_ms']:.2f} / {at_262k[0]['cpu_p95_ms']:.2f} ms CPU on "
                f"{num(at_262k[0]['records'])} records."]
    return "\n".join(out)


def mcp_section(doc: dict, runs: Runs, name: str = "mcp_startup.json") -> str:
    runs_ms = ", ".join(f"{x:,.1f}" for x in doc["initialize_ms_runs"])
    return "\n".join([
        "## MCP server start-up", "",
        "How long a client waits for `initialize` from spawning `python cmc.py mcp` (`bench/mcp_startup.py`; "
        "the database is opened and the model loaded only later). " + runs.line(name, doc, "MCP start-up", writes=False), "",
        table(["measure", "value"], [["`initialize`, cold, median", f"**{doc['initialize_ms_median']:,.1f} ms**"],
                                    ["runs", f"{runs_ms} ms"], ["target", f"{doc['target_ms']:,} ms"]])])


def interleaved_section(doc: dict, runs: Runs, name: str = "interleaved.json") -> str:
    return "\n".join([
        "## Adding and asking in turn", "",
        "One process that adds a record, then asks, seven times (an agent over MCP; `bench/interleaved.py`, "
        "invented records): the seconds after the first add and the first ask, which load the models. "
        + runs.line(name, doc, "add and ask in turn"), "",
        table(["extractor", "judge", "reader", "`add` median", "`ask` median", "first add", "first ask"],
              [[f"`{doc['extractor']}`", f"`{doc['judge']}`", f"`{doc['reader']}`", f"**{doc['add_median_s']:.2f} s**",
                f"**{doc['ask_median_s']:.2f} s**", f"{doc['first_add_s']:.2f} s", f"{doc['first_ask_s']:.2f} s"]])])


# ── summary ──

def ablation_section(docs: dict[str, dict], runs: Runs) -> str:
    out = ["## Ablations", "", "A rule family stays only while switching it off loses answers on dev data."]
    for name, d in docs.items():
        body = [[side, str(d[side]["right"]), str(d[side]["answer_in_evidence"]), f"`{d[side].get('commit', '—')}`"]
                for side in ("on", "off")]
        out += ["", f"### {d['what']}", "", f"{d['questions']} questions of `{d['data']}` ({d['mode']}), "
                f"model `{d['model']}`, {d['date']}. {d['note']}.", "",
                table(["rules", "answered", "answer in evidence", "commit"], body), "",
                "Commands: " + "; ".join(f"`{c}`" for c in d["commands"]) + f" (`{name}`)."]
    return "\n".join(out)


def statuses_section(docs: dict[str, dict], runs: Runs) -> str:
    def chooser(doc: dict) -> str:
        return f"judge `{doc['judge']}`" if doc.get("judge") else f"extraction model `{doc['model']}`"
    docs = dict(sorted(docs.items(), key=lambda kv: not kv[1].get("judge")))  # as `add` by default, first
    body = [[chooser(doc), k, str(sum(c.values()))] + [str(c.get(s, 0)) for s in ("facts", "unresolved", "no_fact")]
            for doc in docs.values() for k, c in doc["counts"].items()]
    return "\n".join(["## Extraction statuses", "", "The status `add` gives dev lines whose status a person decided "
                      "(`bench/statuses.py`; dev data), each line read alone as extraction reads it: chosen by the "
                      "judge, as `add` does when Qwen2.5-Coder-1.5B is installed (the default install), or with "
                      "`--judge none` by the extraction model, gemma-3-270m, as when it is not.", "",
                      table(["chosen by", "lines", "n", "facts", "unresolved", "no_fact"], body),
                      *[x for name, doc in docs.items() for x in ("", runs.line(name, doc, "statuses"))]])


def turns_section(docs: dict[str, dict], runs: Runs) -> str:
    out = ["## Conversation turns, one record per `add`", "",
           "The first turns of a LoCoMo conversation added as an agent stores a chat, with the status and "
           "triples extraction gave each (`bench/turns.py`; dev data). The run below had the extraction prompt's "
           "withdrawn chat examples (design.md)."]
    for name, d in docs.items():
        counts = ", ".join(f"{s} {n}" for s, n in sorted(Counter(t["status"] for t in d["turns"]).items()))
        body = [[str(t["serial"]), t["text"].replace("|", "/"), t["status"],
                 "; ".join(f"{s} —{r}→ {o}" for s, r, o in t["triples"]).replace("|", "/")] for t in d["turns"]]
        out += ["", f"### {d['conv']}: {len(d['turns'])} turns ({counts})", "",
                table(["serial", "turn", "status", "triples"], body), "", runs.line(name, d, "turns")]
    return "\n".join(out)


def summary_section(found: dict, runs: Runs) -> str:
    def dev(name, doc, shaped):
        before = runs.before_deletion(name, doc)
        return ("yes" if shaped else "no") + (" (code before the write-side rule deletion)" if before else "")

    body = []
    nat = found.get("natural")
    if nat:
        name = NATURAL_CURRENT if NATURAL_CURRENT in nat else sorted(nat)[-1]
        a = next(r for r in nat[name]["results"] if r["kind"] == "all")
        body.append(["natural-dev, " + MODES.get(nat[name]["mode"], nat[name]["mode"]), dev(name, nat[name], True),
                     f"**{pct(a['accuracy'])}** of {a['n']} answered; answer in evidence {pct(a['answer_in_evidence'])}; "
                     f"ask {secs(nat[name]['seconds']['ask_median'])} median", f"`{name}`"])
        built = sorted((n for n in nat if nat[n]["seconds"].get("adds")), key=lambda n: n != NATURAL_CURRENT)
        if built:
            s = nat[built[0]]["seconds"]
            body.append([f"`add` of one record, warm median ({num(s['adds'])} adds, natural-dev)",
                         dev(built[0], nat[built[0]], True), f"**{secs(s['add_warm_median'])}**", f"`{built[0]}`"])
    for name, d in found.get("locomo", {}).items():
        r = next((r for r in d["results"] if r["category"] == "1-4"), None)
        if r is None:
            continue  # a run of the adversarial questions alone: the reader section
        asked = _answerable(d)
        if d.get("answer") and not LOCOMO_DEFAULT_RUN.fullmatch(name):
            continue  # other readers and budgets: the reader section
        if d.get("answer"):
            body.append([f"LoCoMo {', '.join(d['conversations'])}, answers", "yes",
                         f"token F1 **{r['f1']:.3f}** over categor{'ies' if len(asked) > 1 else 'y'} "
                         f"{', '.join(map(str, asked))}; ask {secs(d['seconds']['ask_median'])} median",
                         f"`{name}`"])
        else:
            body.append([f"LoCoMo dev, {len(d['conversations'])} conversations, retrieval only", "yes",
                         f"every gold turn in the evidence for **{pct(r['cmc_recall'])}** of {r['n']} questions "
                         f"(BM25 at equal size {pct(r['bm25_recall'])})", f"`{name}`"])
    for key, name, what, shaped in (("fc", "factconsolidation.json", "FactConsolidation, 800 questions, cmc view", True),
                                    ("ms", "memstream.json", "MQuAKE-MemStream, cmc view", False)):
        doc = found.get(key)
        if doc:
            rows = _rows(doc)
            body.append([what, dev(name, doc, shaped),
                         f"SH {_cell(rows, 'cmc', 'sh', 'accuracy')}, MH **{_cell(rows, 'cmc', 'mh', 'accuracy')}**",
                         f"`{name}`"])
    for r in found.get("latency") or []:
        body.append([f"read, {num(r['records'])} records (no model)", "—",
                     f"p50 **{r['p50_ms']:.2f} ms**, p95 {r['p95_ms']:.2f} ms", "`read_latency.json`"])
    mcp = found.get("mcp")
    if mcp:
        body.append(["MCP `initialize`, cold", "—", f"**{mcp['initialize_ms_median']:,.0f} ms** median of "
                     f"{len(mcp['initialize_ms_runs'])}", "`mcp_startup.json`"])
    return "\n".join(["## Summary", "", table(["what", "dev data (shaped the code)?", "figure", "JSON"], body)])


# ── chart ──

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
    fig.savefig(path, dpi=100, metadata={"Software": None})
    plt.close(fig)


# ── page ──

def _load(folder: Path, pattern: str, skip: set[str]) -> dict[str, object]:
    found = {}
    for p in sorted(folder.glob(pattern)):
        if p.name not in skip:
            found[p.name] = json.loads(p.read_text())
            skip.add(p.name)
    return found


def build(folder: Path, chart: str | None) -> tuple[str, dict]:
    """The page and what it was built from."""
    runs, used = Runs(folder), set()
    fc_main = _load(folder, "factconsolidation.json", used)
    found = {"natural": _load(folder, "natural-*.json", used), "locomo": _load(folder, "locomo-*.json", used),
             "fc": fc_main.get("factconsolidation.json"), "gold": _load(folder, "gold_audit.json", used),
             "fc_other": {**_load(folder, "factconsolidation_*.json", used), **_load(folder, "fc_*.json", used)},
             "ms": _load(folder, "memstream.json", used).get("memstream.json"),
             "extraction": _load(folder, "extraction*.json", used), "everyday": _load(folder, "everyday*.json", used),
             "latency": _load(folder, "read_latency.json", used).get("read_latency.json"),
             "mcp": _load(folder, "mcp_startup.json", used).get("mcp_startup.json"),
             "interleaved": _load(folder, "interleaved.json", used).get("interleaved.json"),
             "ablation": _load(folder, "ablation-*.json", used),
             "statuses": _load(folder, "statuses*.json", used),
             "turns": _load(folder, "turns-*.json", used)}
    # the locomo retrieval run first, then the answer runs
    found["locomo"] = dict(sorted(found["locomo"].items(), key=lambda kv: (bool(kv[1].get("answer")), kv[0])))
    # the page's sections in order, each from what was found for it (left out when nothing was)
    found["reader"] = {"natural": found["natural"], "locomo": found["locomo"]}
    order = [("natural", natural_section), ("locomo", locomo_section), ("reader", reader_section),
             ("ablation", ablation_section),
             ("statuses", statuses_section), ("turns", turns_section),
             ("fc", lambda doc, runs: fc_section(doc, chart, runs)), ("fc_other", fc_other_section),
             ("gold", lambda docs, runs: gold_section(docs["gold_audit.json"], runs)), ("ms", ms_section),
             ("extraction", extraction_section), ("everyday", everyday_section), ("latency", latency_section),
             ("mcp", mcp_section), ("interleaved", interleaved_section)]
    sections = [section(found[key], runs) for key, section in order if found[key]]
    left = sorted(p.name for p in folder.glob("*.json") if p.name not in used)
    summary = summary_section(found, runs)
    after = sorted(row[0] for row in runs.rows if row[-1] == "after")
    head = [
        "# Results", "",
        f"Generated by `python bench/results.py` from `{common.shown(folder)}/*.json` alone; do not edit by hand "
        "(rerun it after a benchmark writes its JSON). Each section gives its JSON's command, cmc commit, date "
        "and machine as the JSON records them (\"not recorded\" where it does not; commands are as recorded: "
        "their `--doc` option, which rewrote this page, is gone). Design decisions and the measurements behind "
        "them: [design.md](design.md). The dated notes this page held before are in its git history.", "",
        "**Dev data.** natural-dev, LoCoMo dev, FactConsolidation and the everyday scenarios shaped the code: "
        "choices were made on their numbers, so they are not held-out scores. MQuAKE-MemStream was not tuned on.", "",
        f"**Older code.** The write-side repair rules were deleted on {RULES_DELETED[1]} (commit "
        f"{RULES_DELETED[0]}), after natural-dev answered the same with them on and off (below). A run marked "
        "*before the write-side rule deletion* measured code that still had them and has not been repeated since"
        + (f"; only {', '.join(after)} measured code after it." if after else "."), "",
        summary]
    tail = ["## All runs", "", table(["JSON", "benchmark", "commit", "date", "machine",
                                      "code before / after the write-side rule deletion"], sorted(runs.rows))]
    if left:
        tail += ["", "JSONs in the folder that no section reads: " + ", ".join(f"`{n}`" for n in left) + "."]
    page = "\n\n".join(["\n".join(head), *sections, "\n".join(tail)]) + "\n"
    return page, found


def main(argv: list[str] | None = None) -> str:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--results", default=str(common.RESULTS), help="the folder of the harnesses' JSON files")
    p.add_argument("--out", default=str(DOC), help="the results page to write")
    p.add_argument("--no-chart", action="store_true", help="do not draw the PNG chart")
    args = p.parse_args(argv)
    out, folder = Path(args.out), Path(args.results)
    fc = folder / "factconsolidation.json"
    chart = None if args.no_chart or not fc.is_file() else CHART
    page, found = build(folder, chart)
    if chart:
        fc_chart(found["fc"], out.parent / CHART)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(page)
    common.log(f"wrote {out}")
    return page


if __name__ == "__main__":
    main()
