"""Scenario sets: short personal-memory histories (natural-dev, bench/data/*.json), read end to end.

    python bench/natural.py ../shared/data/natural-dev/natural-dev.json
    python bench/natural.py ../shared/data/natural-dev/natural-dev.json --one-by-one --predictions bench/out/natural.jsonl
    python bench/natural.py ../shared/data/natural-dev/natural-dev.json --cli --one-by-one --only gym_switch
    python bench/natural.py bench/data/everyday.json --json bench/results/everyday.json
    python bench/natural.py bench/data/everyday.json --one-by-one --json bench/results/everyday_one_by_one.json
    python bench/natural.py bench/data/everyday.json --model qwen --json bench/results/everyday_qwen.json
    python bench/results.py     # then regenerate docs/results.md from bench/results/*.json

FILE is a JSON list of scenarios {"name", "records": [...], "questions": [{"q", "answers", "kind"}]}
(the README beside natural-dev.json), or a set file of bench/data/ (bench/data/README.md): {"name",
"description", "blocks", "scenarios": [the same scenarios, "name" optional, "block"]}, whose results
also hold the fields the removed bench/everyday.py wrote: "set", "answer_model", "one_by_one",
"summary" (right answers by kind) and "questions" (every question's row); --block LABEL,...
keeps those blocks' scenarios. Each scenario gets a fresh database in a temporary directory; its
records are added with cmc.Memory.add, all in one call (one extraction batch) or with
--one-by-one one call per record (an agent storing what the user says as it is said); then every
question is asked with cmc.Memory.ask (with --answer-model, cmc.ask with that reader). The model is
loaded once and shared by every scenario, so every add but the run's first is warm. --cli drives `python cmc.py add/ask --db X --json` as
subprocesses instead: every call loads the model, which is the cold time a user of the CLI sees.

Measured, overall and per kind:
  accuracy            the benchmark's normalised substring match (bench/common.score)
  answer_in_evidence  a gold answer, as whole normalised words, in the records the reader was shown
  stale_shown         update questions whose evidence holds an answer of one of the scenario's
                      past_value questions (an older value shown beside the current one);
                      stale_record_shown counts those where some evidence record names an old
                      value and no gold answer (the record that says "left IronWorks for Pulse"
                      is not one), stale_current_shown those where such a record is shown as
                      current (not marked "(replaced later)")
and the wall seconds of each add (the run's first add, cold, and the median of the others) and
each ask (median), the extraction status of every record, the model, the cmc commit.

--json (default bench/results/natural-<FILE stem>-<mode>[-<model>].json, mode batch / one-by-one,
cli- in front with --cli; <set>-<mode>[-<model>].json for a set file) holds all of it; --predictions writes one JSON line per question.
--only NAME,... keeps those scenarios; --limit N keeps the first N scenarios (after --only).
"""

import argparse
import json
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402
from common import cmc  # noqa: E402

CMC = common.REPO / "cmc.py"
STALE_KIND, PAST_KIND = "update", "past_value"


# ── scenarios ──

def read(path: Path) -> tuple[dict | None, list[dict]]:
    """(None, the scenarios) of a bare list (natural-dev), or (its head, its scenarios) of a set file
    of bench/data/; a set's scenario without a name is named by its 0-based position."""
    doc = json.loads(path.read_text())
    if isinstance(doc, list):
        return None, doc
    if not isinstance(doc, dict) or "name" not in doc or "scenarios" not in doc:
        raise SystemExit(f"{path} is neither a list of scenarios nor a set with a name and scenarios.")
    return ({k: v for k, v in doc.items() if k != "scenarios"},
            [{"name": str(i), **s} for i, s in enumerate(doc["scenarios"])])


def load(path: Path, only: str | None, limit: int | None, blocks: str | None = None) -> tuple[dict | None, list[dict]]:
    """FILE's head (None for a bare list) and its scenarios: those of the --block labels, those
    named by --only (in file order), the first --limit of them."""
    head, scenarios = read(path)
    if blocks:
        labels = [b.strip() for b in blocks.split(",") if b.strip()]
        unknown = sorted(set(labels) - set((head or {}).get("blocks", {})))
        if unknown:
            raise SystemExit(f"No block {', '.join(unknown)} in {path}.")
        scenarios = [s for s in scenarios if s.get("block") in labels]
    if only:
        names = [n.strip() for n in only.split(",") if n.strip()]
        unknown = sorted(set(names) - {s["name"] for s in scenarios})
        if unknown:
            raise SystemExit(f"No scenario {', '.join(unknown)} in {path}.")
        scenarios = [s for s in scenarios if s["name"] in names]
    return head, scenarios[:limit] if limit is not None else scenarios


def past_values(scenario: dict) -> list[str]:
    """Every answer of the scenario's past_value questions: the values an update replaced."""
    return [a for q in scenario["questions"] if q["kind"] == PAST_KIND for a in q["answers"]]


# ── drivers ──  the same add / ask, in this process (warm) or through the CLI (cold)

class InProcess:
    """cmc.Memory in this process, over one model loaded once for the whole run."""

    def __init__(self, model_arg: str | None, model=None, judge_arg: str | None = None,
                 answer_arg: str | None = None):
        self.model = model if model is not None else cmc.load_model(model_arg)
        self.name = self.model.name
        same = judge_arg in (None, "none") or judge_arg == model_arg
        self.judge = judge_arg if judge_arg in (None, "none") else self.model if same else cmc.load_model(judge_arg)
        # the reader, when not the extractor (a test's fake is both; so is the one model named)
        own = model is None and (answer_arg != model_arg if answer_arg else not model_arg)
        self.reader = cmc.load_reader(answer_arg, None) if own else None
        self.reader_name = self.reader.name if own else self.name
        self.memory = None
        self.read_all = False
        self.budget = None  # cmc's: ASK_BUDGET

    def open(self, path: Path) -> None:
        self.memory = cmc.Memory(path, model=self.model, judge=self.judge)

    def add(self, texts: list[str]) -> list[str]:
        return [ex.status for ex in self.memory.add(*texts)]

    def ask(self, question: str) -> tuple[str, list[dict]]:
        reader = self.reader or self.model
        if self.read_all:
            read = every_record(self.memory.db, question)
            got = cmc.answer(reader, read, cmc.speakers_of(self.memory.db, read))
        else:
            got = cmc.ask(self.memory.db, reader, question, budget=self.budget)
        return got.answer, got.evidence

    def close(self) -> None:
        self.memory.close()


ALL_RECORDS = "SELECT serial, text, time, added_at, status FROM records ORDER BY serial"


def every_record(db, question: str) -> cmc.Recall:
    """The control with no memory system: every record of the scenario, in order, newest last,
    rendered as cmc renders evidence (nothing selected, nothing hidden)."""
    rows = {r["serial"]: r for r in db.execute(ALL_RECORDS)}
    evidence = [{"serial": s, "time": r["time"], "text": r["text"], "why": "all"} for s, r in rows.items()]
    return cmc.Recall(question, evidence, [], [], cmc.EVIDENCE_PREFIX + cmc.render_lines(evidence, rows))


class Cli:
    """`python cmc.py add / ask --db X --json` as subprocesses: each call starts cold."""

    def __init__(self, model_arg: str | None, answer_arg: str | None = None):
        self.model_arg, self.answer_arg = model_arg, answer_arg
        self.name = cmc.load_model(model_arg).name  # LlamaModel loads its weights on first use only
        self.reader_name = cmc.load_reader(answer_arg, model_arg).name  # as `cmc ask` picks it
        self.path = None

    def open(self, path: Path) -> None:
        self.path = path

    def _run(self, command: str, words: list[str]):
        model = ["--model", self.model_arg] if self.model_arg else []
        if command == "ask" and self.answer_arg:
            model += ["--answer-model", self.answer_arg]
        # '--' ends the options, so a record that starts with '-' stays a record
        argv = [sys.executable, str(CMC), command, "--db", str(self.path), "--json", *model, "--", *words]
        done = subprocess.run(argv, capture_output=True, text=True)
        if done.returncode:
            raise SystemExit(f"cmc.py {command} exited {done.returncode}: {done.stderr.strip()[-500:]}")
        return json.loads(done.stdout)

    def add(self, texts: list[str]) -> list[str]:
        return [row["status"] for row in self._run("add", texts)]

    def ask(self, question: str) -> tuple[str, list[dict]]:
        doc = self._run("ask", [question])
        return doc["answer"], doc["evidence"]

    def close(self) -> None:
        pass


# ── run ──

def run_scenario(driver, scenario: dict, one_by_one: bool, folder: Path) -> tuple[list[dict], list[dict]]:
    """Add a scenario's records to a fresh database, ask its questions; (adds, predictions)."""
    path = folder / f"{scenario['name']}.db"
    reask = path.exists()  # --keep DIR of an earlier run: its databases are asked again
    driver.open(path)
    adds, predictions = [], []
    records = scenario["records"]
    for told in ([] if reask else [[r] for r in records] if one_by_one else [records]):
        start = time.perf_counter()
        statuses = driver.add(told)
        adds.append({"scenario": scenario["name"], "records": len(told), "statuses": statuses,
                     "seconds": round(time.perf_counter() - start, 3)})
    past = past_values(scenario)
    for q in scenario["questions"]:
        start = time.perf_counter()
        answer, evidence = driver.ask(q["q"])
        seconds = round(time.perf_counter() - start, 3)
        predictions.append(predict(scenario["name"], q, answer, evidence, past, seconds))
        p = predictions[-1]
        common.log(f"{'ok' if p['correct'] else 'NO'} {scenario['name']}: {q['q']} -> {answer!r} "
                   f"(gold {q['answers'][0]!r}; in evidence: {p['answer_in_evidence']})")
    driver.close()
    return adds, predictions


def predict(name: str, q: dict, answer: str, evidence: list[dict], past: list[str], seconds: float) -> dict:
    """One question's prediction line: the answer scored, what the evidence held."""
    shown = "\n".join(e["text"] for e in evidence)
    row = {"scenario": name, "q": q["q"], "kind": q["kind"], "golds": q["answers"], "answer": answer,
           "correct": common.score(answer, q["answers"]),
           "answer_in_evidence": common.answer_in(shown, q["answers"]),
           "evidence": [e["serial"] for e in evidence], "why": [e.get("why", "") for e in evidence],
           "gold_from": sorted({e.get("why", "")[:6] for e in evidence if common.answer_in(e["text"], q["answers"])}),
           "seconds": seconds}
    if q["kind"] == STALE_KIND:
        # an old value that is also part of a gold answer ("Dr. Varga" / "Varga") is not stale
        older = [v for v in past if not common.answer_in(" ".join(q["answers"]), [v])]
        row["stale_shown"] = common.answer_in(shown, older) if older else None
        # stricter: a record that names an old value and no current one (not "left X for Y")
        stale = [e for e in evidence if common.answer_in(e["text"], older) and not common.answer_in(e["text"], q["answers"])]
        row["stale_record_shown"] = bool(stale) if older else None
        # the measure: such a record shown as current, not marked "(replaced later)"
        row["stale_current_shown"] = any(not e.get("replaced") for e in stale) if older else None
    return row


def median(values: list[float]) -> float | None:
    return round(statistics.median(values), 3) if values else None


def summarise(predictions: list[dict], adds: list[dict]) -> dict:
    """Accuracy and answer-in-evidence overall and per kind, stale evidence, times, statuses."""
    by_kind = defaultdict(list)
    for p in predictions:
        by_kind["all"].append(p)
        by_kind[p["kind"]].append(p)
    rows = [{"kind": kind, "n": len(ps), "right": sum(p["correct"] for p in ps),
             "accuracy": round(sum(p["correct"] for p in ps) / len(ps), 4),
             "answer_in_evidence": round(sum(p["answer_in_evidence"] for p in ps) / len(ps), 4)}
            for kind, ps in sorted(by_kind.items(), key=lambda kv: (kv[0] != "all", kv[0]))]
    stale = [p for p in predictions if p.get("stale_shown") is not None]
    warm = [a["seconds"] for a in adds[1:]]
    seconds = {"add_first": adds[0]["seconds"] if adds else None, "add_warm_median": median(warm),
               "add_warm_per_record": round(sum(warm) / sum(a["records"] for a in adds[1:]), 3) if warm else None,
               "adds": len(adds), "ask_first": predictions[0]["seconds"] if predictions else None,
               "ask_median": median([p["seconds"] for p in predictions]), "asks": len(predictions)}
    return {"results": rows,
            "stale_shown": {"update_questions_with_past_value": len(stale),
                            "stale_shown": sum(p["stale_shown"] for p in stale),
                            "stale_record_shown": sum(p["stale_record_shown"] for p in stale),
                            "stale_current_shown": sum(bool(p.get("stale_current_shown")) for p in stale)},
            "seconds": seconds,
            "extraction": dict(Counter(s for a in adds for s in a["statuses"]).most_common())}


def set_fields(predictions: list[dict]) -> dict:
    """The fields the removed bench/everyday.py wrote for a set: right answers by kind ("all"
    last) and every question's row."""
    by_kind = defaultdict(list)
    for p in predictions:
        by_kind[p["kind"]].append(p["correct"])
    summary = {k: {"n": len(v), "right": sum(v)} for k, v in sorted(by_kind.items())}
    summary["all"] = {"n": len(predictions), "right": sum(p["correct"] for p in predictions)}
    return {"summary": summary,
            "questions": [{"scenario": p["scenario"], "kind": p["kind"], "question": p["q"], "gold": p["golds"],
                           "answer": p["answer"], "correct": p["correct"], "seconds": p["seconds"]}
                          for p in predictions]}


def print_table(doc: dict) -> None:
    print(f"{'kind':16} {'n':>4} {'acc':>7} {'in-ev':>7}")
    for r in doc["results"]:
        print(f"{r['kind']:16} {r['n']:>4} {100 * r['accuracy']:>6.1f}% {100 * r['answer_in_evidence']:>6.1f}%")
    s, t = doc["stale_shown"], doc["seconds"]
    print(f"stale value shown: {s['stale_shown']} of {s['update_questions_with_past_value']} update questions "
          f"with a past value ({s['stale_record_shown']} in a record without the current value, "
          f"{s['stale_current_shown']} of them not marked replaced)")
    print(f"add: first {t['add_first']} s, warm median {t['add_warm_median']} s ({t['adds']} adds); "
          f"ask: first {t['ask_first']} s, median {t['ask_median']} s ({t['asks']} asks)")
    print(f"extraction: {doc['extraction']}; model {doc['model']}; commit {doc['commit']}")


def default_json(data: Path, args, head: dict | None = None) -> Path:
    mode = ("cli-" if args.cli else "") + ("one-by-one" if args.one_by_one else "batch")
    model = f"-{Path(args.model).stem}" if args.model else ""
    return common.RESULTS / (f"{head['name']}-{mode}{model}.json" if head else f"natural-{data.stem}-{mode}{model}.json")


def parser() -> argparse.ArgumentParser:
    p = common.parser(__doc__)
    p.add_argument("file", help="scenario JSON, e.g. ../shared/data/natural-dev/natural-dev.json or bench/data/everyday.json")
    p.add_argument("--one-by-one", action="store_true", help="one add per record (default: one add per scenario)")
    p.add_argument("--model", help="GGUF path or 'gemma' / 'qwen', given to cmc.Memory (default: embedded gemma)")
    p.add_argument("--answer-model", help="the reader, if not --model (GGUF path or 'gemma' / 'qwen')")
    p.add_argument("--cli", action="store_true", help="run `python cmc.py add/ask` subprocesses (cold every call)")
    p.add_argument("--only", help="comma-separated scenario names")
    p.add_argument("--block", help="comma-separated block labels of a set file: only their scenarios")
    p.add_argument("--limit", type=int, help="only the first N scenarios")
    p.add_argument("--json", help="results JSON (default: bench/results/natural-<stem>-<mode>.json, "
                   "<set>-<mode>.json for a set file)")
    p.add_argument("--predictions", help="one JSON line per question")
    p.add_argument("--judge-model", help="model that judges replacements ('none', 'gemma', 'qwen', a GGUF; "
                   "default: cmc's)")
    p.add_argument("--read-all", action="store_true", help="the control: the reader reads every record "
                   "of the scenario (no selection, nothing hidden); in-process only")
    p.add_argument("--budget", type=int, help="characters of evidence the reader reads (default: cmc's ask budget)")
    p.add_argument("--keep", help="keep each scenario's database in this folder; a database already "
                   "there is asked again without adding (read-side runs)")
    return p


def main(argv: list[str] | None = None, model=None) -> dict:
    """Run the harness; a test passes its own fake as model."""
    args = common.arguments(parser(), argv)
    data = Path(args.file)
    head, scenarios = load(data, args.only, args.limit, args.block)
    try:
        driver = (Cli(args.model, args.answer_model) if args.cli
                  else InProcess(args.model, model, args.judge_model, args.answer_model))
        if args.budget:
            if args.cli:
                raise SystemExit("error: --budget runs in-process; drop --cli")
            driver.budget = args.budget
        if args.read_all:
            if args.cli:
                raise SystemExit("error: --read-all runs in-process; drop --cli")
            driver.read_all = True
        adds, predictions = [], []
        with tempfile.TemporaryDirectory(prefix="cmc-natural-") as tmp:
            folder = Path(args.keep) if args.keep else Path(tmp)
            folder.mkdir(parents=True, exist_ok=True)
            for scenario in scenarios:
                a, p = run_scenario(driver, scenario, args.one_by_one, folder)
                adds += a
                predictions += p
    except cmc.CmcError as e:
        raise SystemExit(f"error: {e}")
    document = {"benchmark": "natural", "data": common.shown(data), "scenarios": len(scenarios),
                "mode": "one-by-one" if args.one_by_one else "batch", "cli": args.cli,
                "judge": args.judge_model or cmc.DEFAULT_JUDGE,
                **summarise(predictions, adds), "model": driver.name, "commit": common.commit(),
                "command": shlex.join(["python", "bench/natural.py", *args.argv]), "date": time.strftime("%Y-%m-%d")}
    if args.read_all:
        document["view"] = "every record"
    if not args.cli:
        document["budget"] = args.budget or cmc.ASK_BUDGET
    document["answer_model"] = driver.reader_name
    if head is not None:
        document.update({"set": head["name"], "one_by_one": args.one_by_one, **set_fields(predictions)})
    common.write_results(args, document, predictions, json_default=default_json(data, args, head))
    print_table(document)
    return document


if __name__ == "__main__":
    main()
