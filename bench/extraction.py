"""Extraction at scale on FactConsolidation: wall time, model calls, rules, and accuracy.

    python bench/extraction.py --lengths 6k,32k,64k,262k --batch 8 --json bench/results/extraction.json
    python bench/results.py     # then regenerate docs/results.md from bench/results/*.json

Each history is ingested from scratch into bench/out/extract_<length>.db with cmc's own
extract_pending (cache, induced rules, batched model calls). Accuracy is measured on the fact
lines whose true arguments are known: a line counts as right when one of its triples has the
line's subject and object (compared as cmc entity keys); its triples are its assertions and
the facts cmc keeps the other way round (the other_way table: "Elton John performed Rocket
Man." is also Rocket Man performed_by Elton John). correct_as_written counts the assertions alone. The true arguments come from the
MQuAKE relation templates in the shared MQuAKE files ("{} is a citizen of" + object): that
knowledge lives here, in the benchmark, never in cmc.

--data PATH reads another file of the same format (e.g. the reworded copy bench/reworded.py
builds) into its own database, extract_<length>_<model>_<tag>.db (tag: --tag, else the data
file's folder name when the file is called Conflict_Resolution.json, else its stem). Its true
arguments come from --gold (default: the sidecar <data stem>.gold.json beside the data file,
when there is one; else the templates as above). With a sidecar the result also counts the lines
whose subject and object were found in either order, and splits the lines by whether the
rewording names the subject or the object first.

    python bench/extraction.py --lengths 6k --data bench/out/reworded/Conflict_Resolution.json
"""
import argparse
import json
import os
import random
import re
import shlex
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
import cmc  # noqa: E402
import common  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "external"
FC = DATA / "memoryagentbench-factconsolidation" / "Conflict_Resolution.json"
TEMPLATE_SOURCES = [DATA / "mquake-hard-deepedit" / "MQuAKE-hard.json",
                    DATA / "mquake-contradict-eureka" / "contradict.json"]
# MQuAKE cloze templates of relations FactConsolidation uses that no shared file spells out
# as a "{}" prompt (MQuAKE's relation prompts: P1412, P937, P407, P740, P35, P364). Without them
# 7.8% of the 64K history's lines (358 of 4,580) were left out of the accuracy. Lines of the
# office-holder template ("The {} is": "The President of Albania is Ilir Meta.", whose MQuAKE
# subject is the office) stay unscored: any line "The ... is ..." would match it.
EXTRA_TEMPLATES = ("{} speaks the language of", "{} worked in the city of", "{} was written in the language of",
                   "{} was founded in the city of", "The name of the current head of state in {} is",
                   "The original language of {} is")


def history_lines(length: str, data: Path = FC) -> list[str]:
    for row in json.loads(Path(data).read_text()):
        if row["metadata"]["source"] == f"factconsolidation_mh_{length}":
            return [l.split(". ", 1)[1] for l in row["context"].split("\n")[1:] if l.strip()]
    raise SystemExit(f"no history {length} in {data}")


def template_strings() -> list[str]:
    """The MQuAKE cloze templates ('{} is a citizen of'), longest first."""
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
    found.update(EXTRA_TEMPLATES)
    # longest first: the most specific template wins (ties in a fixed order)
    return sorted(found, key=lambda t: (-len(t), t))


def template_pattern(template: str) -> re.Pattern:
    """A cloze template as a regex over a whole fact line: group 1 subject, group 2 object."""
    return re.compile("^" + re.escape(template).replace(r"\{\}", "(.+?)") + r" (.+)\.$")


def templates() -> list[re.Pattern]:
    """MQuAKE cloze templates ('{} is a citizen of') as regexes over a fact line."""
    return [template_pattern(t) for t in template_strings()]


def explain(line: str, pats: list[tuple[str, re.Pattern]]) -> tuple[str, str, str] | None:
    """(template, subject, object) of the first (most specific) template that explains line."""
    for template, p in pats:
        if m := p.match(line):
            return template, m.group(1), m.group(2)
    return None


def gold_arguments(lines: list[str]) -> dict[int, tuple[str, str]]:
    """line index -> (subject, object) for lines a known template explains."""
    pats = [(t, template_pattern(t)) for t in template_strings()]
    return {i: (e[1], e[2]) for i, line in enumerate(lines) if (e := explain(line, pats))}


def sidecar(data: Path) -> Path:
    """Where bench/reworded.py writes the true arguments of a data file it built."""
    return Path(data).with_name(Path(data).stem + ".gold.json")


def sidecar_gold(path: Path, length: str, lines: list[str]) -> tuple[dict[int, tuple[str, str]], dict[int, str],
                                                                   dict[int, str]]:
    """line index -> (subject, object), line index -> which argument the line names first
    ('subject' / 'object'), and line index -> the MQuAKE template the line was reworded from,
    from a bench/reworded.py sidecar. Refuses a sidecar of other lines."""
    doc = json.loads(Path(path).read_text())
    if length not in doc["histories"]:
        raise SystemExit(f"no history {length} in {path}")
    hist = doc["histories"][length]
    if len(lines) > hist["lines"]:
        raise SystemExit(f"{path} describes {hist['lines']} lines of {length}, the data has {len(lines)}")
    gold, first, template = {}, {}, {}
    for g in hist["gold"]:
        i = g["line"]
        if i >= len(lines):  # --limit
            continue
        if lines[i] != g["text"]:
            raise SystemExit(f"{path}: line {i} of {length} is {g['text']!r} there, {lines[i]!r} in the data")
        gold[i], first[i], template[i] = (g["subject"], g["object"]), g["first"], g["template"]
    return gold, first, template


def shown(path: Path) -> str:
    """A path relative to the repository when inside or beside it, as bench/common.py records them."""
    path = Path(path).resolve()
    return os.path.relpath(path, ROOT) if path.is_relative_to(ROOT.parent) else str(path)


def line_triples(db, other_way: bool = True) -> dict[int, list[tuple[str, str]]]:
    """serial -> the (subject key, object key) of each of its assertions, then of each fact cmc
    keeps the other way round (unless other_way is False)."""
    triples: dict[int, list[tuple[str, str]]] = {}
    query = "SELECT serial, subject_key, object_key FROM assertions"
    if other_way:
        query += " UNION ALL SELECT serial, subject_key, object_key FROM other_way"
    for serial, s, o in db.execute(query):
        triples.setdefault(serial, []).append((s, o))
    return triples


def accuracy(db, lines, gold, other_way: bool = True) -> tuple[int, int, list[str]]:
    right, wrong = 0, []
    triples = line_triples(db, other_way)
    for i, (s, o) in gold.items():
        if (cmc.entity_key(s), cmc.entity_key(o)) in triples.get(i + 1, []):
            right += 1
        else:
            wrong.append(f"{lines[i]}  ->  {triples.get(i + 1, [])}")
    return right, len(gold), wrong


def breakdown(db, gold, first, template=None) -> dict:
    """Right lines (subject and object in the true direction) and lines whose two arguments were
    found in either direction, overall, split by which argument the line names first, and (given
    line index -> template) per template as [gold lines, right, right in either direction]."""
    triples = line_triples(db)
    out = {"correct_either_direction": 0}
    for name in ("subject", "object"):
        out[f"{name}_first"] = {"gold_lines": 0, "correct": 0, "correct_either_direction": 0}
    per: dict[str, list[int]] = {}
    for i, (s, o) in gold.items():
        key = (cmc.entity_key(s), cmc.entity_key(o))
        found = triples.get(i + 1, [])
        right, either = key in found, key in found or key[::-1] in found
        row = out[f"{first[i]}_first"]
        row["gold_lines"] += 1
        row["correct"] += right
        row["correct_either_direction"] += either
        out["correct_either_direction"] += either
        if template:
            counts = per.setdefault(template[i], [0, 0, 0])
            counts[0], counts[1], counts[2] = counts[0] + 1, counts[1] + right, counts[2] + either
    if template:
        out["by_template"] = dict(sorted(per.items(), key=lambda kv: (kv[1][1] / kv[1][0], -kv[1][0])))
    return out


def run(length: str, model_path: str | None, batch: int, limit: int | None, out: Path,
        data: Path | None = None, gold_path: Path | None = None, tag: str | None = None) -> dict:
    lines = history_lines(length, data or FC)[:limit]
    suffix = f"_{tag}" if tag else ""
    path = out / f"extract_{length}_{Path(model_path).stem if model_path else 'gemma'}{suffix}.db"
    for suffix in ("", "-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    db = cmc.open_db(path)
    started = time.perf_counter()
    model = cmc.load_model(model_path)
    cmc.add_records(db, [(l, f"fc:{length}:{i}") for i, l in enumerate(lines)])
    stats = cmc.IngestStats()
    cmc.extract_pending(db, model, batch_size=batch, stats=stats)
    with cmc.transaction(db):  # which model extracted, as bench/common.py records it for its databases
        db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('bench_extraction_model', ?)", (model.name,))
    seconds = time.perf_counter() - started
    if gold_path:
        gold, first, template = sidecar_gold(gold_path, length, lines)
    else:
        gold, first, template = gold_arguments(lines), None, None
    right, total, wrong = accuracy(db, lines, gold)
    as_written = accuracy(db, lines, gold, other_way=False)[0]
    counts = dict(db.execute("SELECT status, count(*) FROM records GROUP BY status").fetchall())
    rules = dict(db.execute("SELECT status, count(*) FROM rules GROUP BY status").fetchall())
    random.Random(0).shuffle(wrong)
    result = {"length": length, "records": len(lines), "seconds": round(seconds, 1),
              "model_calls": stats.model_calls, "by_model": stats.by_model, "by_rule": stats.by_rule,
              "by_cache": stats.by_cache, "reviewed": stats.reviewed, "statuses": counts, "rules": rules,
              "gold_lines": total, "correct": right, "accuracy": round(right / max(total, 1), 4),
              "correct_as_written": as_written,
              "other_way": db.execute("SELECT count(*) FROM other_way").fetchone()[0],
              "model": Path(model_path).name if model_path else "gemma-3-270m (embedded)",
              "batch": batch, "wrong_examples": wrong[:15]}
    if data is not None:
        result.update(data=shown(data), db=shown(path), gold=shown(gold_path) if gold_path else "templates")
    if first is not None:
        result.update(breakdown(db, gold, first, template))
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lengths", default="6k")
    ap.add_argument("--model", default=None, help="GGUF for extraction (default: embedded gemma-3-270m)")
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--limit", type=int, default=None, help="first N lines of each history")
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--data", type=Path, default=None,
                    help="another Conflict_Resolution.json, e.g. bench/out/reworded/Conflict_Resolution.json "
                         "(default: the shared copy)")
    ap.add_argument("--gold", type=Path, default=None,
                    help="true arguments from a bench/reworded.py sidecar (default with --data: "
                         "<data stem>.gold.json beside it, if there is one)")
    ap.add_argument("--tag", default=None, help="database name suffix for --data (default: derived from its path)")
    args = ap.parse_args()
    out = ROOT / "bench" / "out"
    out.mkdir(parents=True, exist_ok=True)
    data, gold, tag = args.data, args.gold, args.tag
    if data is not None:
        if not data.exists():
            raise SystemExit(f"no file {data}")
        if data.resolve() == FC.resolve():
            data = None  # the shared copy: exactly the default run
        else:
            tag = tag or (data.parent.name if data.stem == FC.stem else data.stem)
            if gold is None and sidecar(data).exists():
                gold = sidecar(data)
    results = []
    for length in args.lengths.split(","):
        r = run(length, args.model, args.batch, args.limit, out, data, gold, tag)
        results.append(r)
        print(json.dumps({k: v for k, v in r.items() if k not in ("wrong_examples", "by_template")}), flush=True)
        for template, (n, right, either) in r.get("by_template", {}).items():
            print(f"   {right:>4} / {n:<4} right, {either:>4} either direction: {template}")
        for w in r["wrong_examples"][:8]:
            print("   wrong:", w)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        run_info = {"benchmark": "extraction", "command": shlex.join(["python", "bench/extraction.py", *sys.argv[1:]]),
                    "commit": common.commit(), "date": time.strftime("%Y-%m-%d")}
        args.json.write_text(json.dumps({**run_info, "results": results}, indent=1))


if __name__ == "__main__":
    main()
