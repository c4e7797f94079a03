"""Extraction at scale on FactConsolidation: wall time, model calls, rules, and accuracy.

    python bench/extraction.py --lengths 6k,32k --model PATH --batch 8 --json bench/out/extraction.json

Each history is ingested from scratch into bench/out/extract_<length>.db with cmc's own
extract_pending (cache, induced rules, batched model calls). Accuracy is measured on the fact
lines whose true arguments are known: a line counts as right when one of its triples has the
line's subject and object (compared as cmc entity keys). The true arguments come from the
MQuAKE relation templates in the shared MQuAKE files ("{} is a citizen of" + object): that
knowledge lives here, in the benchmark, never in cmc.
"""
import argparse
import json
import random
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import cmc  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "external"
FC = DATA / "memoryagentbench-factconsolidation" / "Conflict_Resolution.json"
TEMPLATE_SOURCES = [DATA / "mquake-hard-deepedit" / "MQuAKE-hard.json",
                    DATA / "mquake-contradict-eureka" / "contradict.json"]


def history_lines(length: str) -> list[str]:
    for row in json.loads(FC.read_text()):
        if row["metadata"]["source"] == f"factconsolidation_mh_{length}":
            return [l.split(". ", 1)[1] for l in row["context"].split("\n")[1:] if l.strip()]
    raise SystemExit(f"no history {length} in {FC}")


def templates() -> list[re.Pattern]:
    """MQuAKE cloze templates ('{} is a citizen of') as regexes over a fact line."""
    found: set[str] = set()

    def walk(x):
        if isinstance(x, dict):
            if isinstance(x.get("prompt"), str) and "{}" in x["prompt"]:
                found.add(x["prompt"])
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    for path in TEMPLATE_SOURCES:
        if path.exists():
            walk(json.loads(path.read_text()))
    # longest first: the most specific template wins
    return [re.compile("^" + re.escape(t).replace(r"\{\}", "(.+?)") + r" (.+)\.$")
            for t in sorted(found, key=len, reverse=True)]


def gold_arguments(lines: list[str]) -> dict[int, tuple[str, str]]:
    """line index -> (subject, object) for lines a known template explains."""
    pats, gold = templates(), {}
    for i, line in enumerate(lines):
        for p in pats:
            if m := p.match(line):
                gold[i] = (m.group(1), m.group(2))
                break
    return gold


def accuracy(db, lines, gold) -> tuple[int, int, list[str]]:
    right, wrong = 0, []
    triples: dict[int, list[tuple[str, str]]] = {}
    for serial, s, o in db.execute("SELECT serial, subject_key, object_key FROM assertions"):
        triples.setdefault(serial, []).append((s, o))
    for i, (s, o) in gold.items():
        if (cmc.entity_key(s), cmc.entity_key(o)) in triples.get(i + 1, []):
            right += 1
        else:
            wrong.append(f"{lines[i]}  ->  {triples.get(i + 1, [])}")
    return right, len(gold), wrong


def run(length: str, model_path: str | None, batch: int, limit: int | None, out: Path) -> dict:
    lines = history_lines(length)[:limit]
    path = out / f"extract_{length}_{Path(model_path).stem if model_path else 'gemma'}.db"
    for suffix in ("", "-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    db = cmc.open_db(path)
    started = time.perf_counter()
    model = cmc.load_model(model_path)
    cmc.add_records(db, [(l, f"fc:{length}:{i}") for i, l in enumerate(lines)])
    stats = cmc.IngestStats()
    cmc.extract_pending(db, model, batch_size=batch, stats=stats)
    seconds = time.perf_counter() - started
    right, total, wrong = accuracy(db, lines, gold_arguments(lines))
    counts = dict(db.execute("SELECT status, count(*) FROM records GROUP BY status").fetchall())
    rules = dict(db.execute("SELECT status, count(*) FROM rules GROUP BY status").fetchall())
    random.Random(0).shuffle(wrong)
    return {"length": length, "records": len(lines), "seconds": round(seconds, 1),
            "model_calls": stats.model_calls, "by_model": stats.by_model, "by_rule": stats.by_rule,
            "by_cache": stats.by_cache, "reviewed": stats.reviewed, "statuses": counts, "rules": rules,
            "gold_lines": total, "correct": right, "accuracy": round(right / max(total, 1), 4),
            "model": Path(model_path).name if model_path else "gemma-3-270m (embedded)",
            "batch": batch, "wrong_examples": wrong[:15]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lengths", default="6k")
    ap.add_argument("--model", default=None, help="GGUF for extraction (default: embedded gemma-3-270m)")
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--limit", type=int, default=None, help="first N lines of each history")
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    out = ROOT / "bench" / "out"
    out.mkdir(parents=True, exist_ok=True)
    results = []
    for length in args.lengths.split(","):
        r = run(length, args.model, args.batch, args.limit, out)
        results.append(r)
        print(json.dumps({k: v for k, v in r.items() if k != "wrong_examples"}), flush=True)
        for w in r["wrong_examples"][:8]:
            print("   wrong:", w)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"results": results}, indent=1))


if __name__ == "__main__":
    main()
