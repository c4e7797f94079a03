"""FactConsolidation (MemoryAgentBench Conflict_Resolution) with the paper's controls (§4.1,
Appendices D, E, G), read by a local model.

    python bench/factconsolidation.py --subsets mh_6k,sh_6k --limit 20 --json bench/results/factconsolidation.json
    python bench/results.py     # then regenerate docs/results.md from bench/results/*.json

Each history length is stored once in its own database (bench/out/fc_6k.db, ...): one record per
numbered fact line, without its "N. " prefix, source 'fc:6k:N', so serial N+1. The sh and mh rows
of a length share the identical context, so they share the database. cmc's own extraction runs
once on it; that frozen extraction is shared by every view and reused by later runs (delete the
file to extract again, e.g. after the extractor changes). Then every question is read under
every view (bench/common.py describes them) with one cmc.answer call, and scored with the
benchmark's substring exact match (raw and parsed output, the higher kept).

--json writes {"results": [{"view", "subset", "n", "accuracy", "answer_in_evidence",
"answer_in_rendered", "mean_input_tokens", "truncated"}], "model", "commit", ...}: one row per
view and subset run, plus pooled rows "sh", "mh" and "all". answer_in_evidence is the gold in
what the reader was shown (common.READER_BUDGET, what `cmc ask` reads), answer_in_rendered the same. All are fractions. Per-question
predictions go to --predictions (default factconsolidation.predictions.jsonl in --out-dir, so
bench/out/ unless --out-dir says otherwise).
"""

import argparse
import json
import re
import shlex
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402
from common import cmc  # noqa: E402

DATA = common.SHARED / "data" / "external" / "memoryagentbench-factconsolidation" / "Conflict_Resolution.json"
SUBSETS = tuple(f"{hop}_{length}" for length in ("6k", "32k", "64k", "262k") for hop in ("sh", "mh"))
FACT_LINE = re.compile(r"(\d+)\. (.+)")


def fact_lines(context: str) -> list[str]:
    """The facts of a context 'Here is a list of facts:\\n0. <fact>.\\n1. ...', in order."""
    facts = []
    for line in context.splitlines()[1:]:
        if not line.strip():
            continue
        m = FACT_LINE.fullmatch(line.strip())
        if not m or int(m[1]) != len(facts):
            raise SystemExit(f"Unexpected fact line {line!r}: expected '{len(facts)}. <fact>'.")
        facts.append(m[2])
    return facts


def load(data: Path, subsets: list[str], limit: int | None):
    """{length: fact lines} and the question items of the chosen subsets."""
    rows = {r["metadata"]["source"].removeprefix("factconsolidation_"): r for r in json.loads(data.read_text())}
    histories, items = {}, []
    for subset in subsets:
        if subset not in rows:
            raise SystemExit(f"No subset {subset} in {data}; it has {', '.join(sorted(rows))}.")
        row, length = rows[subset], subset.split("_")[1]
        facts = fact_lines(row["context"])
        if histories.setdefault(length, facts) != facts:
            raise SystemExit(f"The {length} rows of {data} do not share one context.")
        for i, (q, golds) in enumerate(list(zip(row["questions"], row["answers"]))[:limit]):
            items.append(common.Item(f"{subset}:{i}", subset, q, list(golds), length))
    return histories, items


def run(args, models: common.Models) -> dict:
    subsets = [s.strip() for s in args.subsets.split(",")] if args.subsets else list(SUBSETS)
    unknown = [s for s in subsets if s not in SUBSETS]
    if unknown:
        raise SystemExit(f"Unknown subset {', '.join(unknown)}; choose among {', '.join(SUBSETS)}.")
    views = common.parse_views(args.views)
    histories, items = load(Path(args.data), subsets, args.limit)
    out = Path(args.out_dir)
    views_by_db, extraction = {}, {}
    for length, facts in histories.items():
        path = out / f"fc_{length}.db"
        db = cmc.open_db(path)
        common.ingest(db, facts, f"fc:{length}:", models.extractor, f"fc_{length}")
        extraction[length] = {"db": common.shown(path), **common.extraction_summary(db)}
        views_by_db[length] = common.Views(db)
    start, reader = time.monotonic(), models.reader()
    predictions = common.evaluate(reader, items, views_by_db, views)
    groups = {s: {s} for s in subsets}
    for hop in ("sh", "mh"):
        groups[hop] = {s for s in subsets if s.startswith(hop)}
    groups["all"] = set(subsets)
    document = {"results": common.aggregate(predictions, groups), "model": reader.name,
                "commit": common.commit(), "benchmark": "factconsolidation",
                "command": shlex.join(["python", "bench/factconsolidation.py", *args.argv]),
                "date": time.strftime("%Y-%m-%d"), "data": common.shown(args.data),
                "subsets": subsets, "limit": args.limit,
                "views": views, "extraction": extraction,
                "read_seconds": round(time.monotonic() - start, 1),
                "empty_evidence_prompt_tokens": common.empty_evidence_tokens(reader)}
    common.write_results(args, document, predictions, predictions_default=out / "factconsolidation.predictions.jsonl")
    return document


def parser() -> argparse.ArgumentParser:
    p = common.parser(__doc__)
    p.add_argument("--data", default=str(DATA), help="Conflict_Resolution.json (default: the shared copy)")
    p.add_argument("--subsets", help=f"comma-separated, e.g. mh_6k,sh_6k (default: all of {','.join(SUBSETS)})")
    p.add_argument("--views", help=f"comma-separated (default: {','.join(common.VIEWS)})")
    common.add_model_options(p)
    p.add_argument("--limit", type=int, help="only the first N questions of each subset")
    p.add_argument("--json", help="write the results JSON here")
    p.add_argument("--predictions", help="per-question predictions (JSON lines; default: "
                   "factconsolidation.predictions.jsonl in --out-dir)")
    p.add_argument("--out-dir", default=str(common.OUT), help="where the per-length databases live")
    return p


def main(argv: list[str] | None = None, model=None) -> dict:
    """Run the harness; a test passes its own fake as model (reader and extractor)."""
    return common.run_views(run, common.arguments(parser(), argv), model)


if __name__ == "__main__":
    main()
