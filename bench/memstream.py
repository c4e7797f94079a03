"""MQuAKE-MemStream (paper §4.3, Appendix F): MQuAKE cases turned into ordered memory streams.

    python bench/memstream.py build [--cases PATH] [--out PATH]
    python bench/memstream.py eval  [--dataset PATH] [--pools 0] [--limit N] [--json PATH]
    python bench/results.py     # then regenerate docs/results.md from bench/results/*.json

build reads MQuAKE-format cases (MQuAKE-hard's 4-hop cases by default, or any CF-3k-format file:
case_id, requested_rewrite, questions, new_answer(_alias), single_hops, new_single_hops) and
writes the dataset JSON: pools of streams, questions with their answer aliases, the audit.

Construction (as the paper says):
- Cases in file order, pooled in groups of --pool-size (100). Per pool, a pre-edit block (every
  single_hops cloze followed by its answer, every requested_rewrite filled with its old target)
  then a post-edit block (every new_single_hops cloze with its answer, every requested_rewrite
  with its new target), each block shuffled; a rewrite that repeats a hop is kept twice.
- Per case: its first composite question (gold: new_answer and its aliases) and one post-edit
  single-hop question (gold: that hop's answer and aliases) drawn with the same generator.
- Pool-consistency audit: every post-edit hop of every case is compared with the final value of
  its subject-relation key in the pooled stream; a case whose hop was overwritten by another
  case loses its composite question. Aliases are kept for scoring only.

Decisions where the paper is silent:
- One random.Random(20260907) serves the whole file, in this order per pool: shuffle the
  pre-edit block, shuffle the post-edit block, then for each case in file order draw the index
  of its single-hop question (randrange over its new_single_hops).
- Only whole pools are built: a file of 429 cases (MQuAKE-hard) gives 4 pools and leaves the
  last 29 cases out. --first 800 takes the paper's population from a CF-3k file; --pool-size
  3000 gives its one-big-pool sensitivity count.
- A record is "<cloze> <answer>." (a requested_rewrite: its prompt filled with the subject, then
  the target), the same sentence form as FactConsolidation's lines.
- The audit's subject-relation key is the cloze text as written (normalised words), its value
  the normalised answer; the last record of a key in the stream is its final value. Keying by
  the written cloze rather than Wikidata ids also catches two entities that share a name, which
  a reader of the text cannot tell apart (3 such clozes in MQuAKE-hard). A single-hop question
  whose own hop was overwritten is excluded too (the paper reports none such).
- Scoring: the FactConsolidation rule (MemoryAgentBench substring exact match, raw and parsed
  output) over the answer and its aliases; answer-in-evidence requires whole words.
- raw-history is rendered under the same 60,000-character rule as every view (the paper trimmed
  it to its reader's 4,096-token window instead).

eval stores each pool in its own database (bench/out/ms_<name>_p<pool>.db, source
'ms:<name>:p<pool>:<i>'), extracts it once with cmc's own extraction (reused across runs), and
reads every kept question under cmc / latest-state / stale-closure / raw-history (--views) with
one cmc.answer call each. --json has the FactConsolidation harness's shape; subsets are "sh",
"mh" and "all".
"""

import argparse
import hashlib
import json
import random
import shlex
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402
from common import cmc  # noqa: E402

CASES = common.SHARED / "data" / "external" / "mquake-hard-deepedit" / "MQuAKE-hard.json"
SEED = 20260907
POOL_SIZE = 100
EVAL_VIEWS = ("cmc", "latest-state", "stale-closure", "raw-history")


# ── build ──────

def _key(cloze: str) -> str:
    return " ".join(cmc.words_of(cloze))


def _record(cloze: str, answer: str, case_id, block: str, origin: str) -> dict:
    text = " ".join(f"{cloze.strip()} {answer.strip()}.".split())
    return {"text": text, "case_id": case_id, "block": block, "from": origin,
            "key": _key(cloze), "value": common.normalize_answer(answer)}


def case_records(case: dict, block: str) -> list[dict]:
    """A case's assertions for the pre- ('pre') or post-edit ('post') block, in case order."""
    hops, target = ("single_hops", "target_true") if block == "pre" else ("new_single_hops", "target_new")
    records = [_record(h["cloze"], h["answer"], case["case_id"], block, f"{hops}[{i}]")
               for i, h in enumerate(case[hops])]
    for i, rw in enumerate(case["requested_rewrite"]):
        records.append(_record(rw["prompt"].format(rw["subject"]), rw[target]["str"], case["case_id"],
                               block, f"requested_rewrite[{i}]"))
    return records


def build(cases: list[dict], pool_size: int = POOL_SIZE, seed: int = SEED) -> dict:
    """Pools, streams, questions and the audit, deterministically from the cases."""
    rng = random.Random(seed)
    pools, questions, overwritten = [], [], []
    for p in range(len(cases) // pool_size):
        members = cases[p * pool_size:(p + 1) * pool_size]
        pre = [r for c in members for r in case_records(c, "pre")]
        post = [r for c in members for r in case_records(c, "post")]
        rng.shuffle(pre)
        rng.shuffle(post)
        stream = pre + post
        final = {}
        for r in stream:
            final[r["key"]] = r
        for c in members:
            k = rng.randrange(len(c["new_single_hops"]))
            lost = []
            for i, h in enumerate(c["new_single_hops"]):
                last = final[_key(h["cloze"])]
                if last["value"] != common.normalize_answer(h["answer"]):
                    lost.append(i)
                    overwritten.append({"pool": p, "case_id": c["case_id"], "hop": i, "cloze": h["cloze"],
                                        "answer": h["answer"], "final": last["text"],
                                        "by_case": last["case_id"]})
            hop = c["new_single_hops"][k]
            questions.append(_question(p, c, "mh", c["questions"][0], c["new_answer"],
                                       c.get("new_answer_alias", []),
                                       "a post-edit hop is overwritten in the pool" if lost else ""))
            questions.append(_question(p, c, "sh", hop["question"], hop["answer"], hop.get("answer_alias", []),
                                       "this hop is overwritten in the pool" if k in lost else ""))
        pools.append({"pool": p, "case_ids": [c["case_id"] for c in members],
                      "records": [{f: r[f] for f in ("text", "case_id", "block", "from")} for r in stream]})
    excluded = {h: sum(1 for q in questions if q["subset"] == h and q["excluded"]) for h in ("mh", "sh")}
    return {"seed": seed, "pool_size": pool_size, "cases_used": len(pools) * pool_size,
            "cases_left_out": len(cases) - len(pools) * pool_size, "pools": pools, "questions": questions,
            "audit": {"overwritten_hops": overwritten, "cases_with_overwritten_hop":
                      len({(o["pool"], o["case_id"]) for o in overwritten}), "excluded": excluded}}


def _question(pool, case, hop, question, answer, aliases, exclusion) -> dict:
    return {"id": f"p{pool}:{hop}:{case['case_id']}", "pool": pool, "case_id": case["case_id"],
            "subset": hop, "question": question, "answers": [answer, *aliases],
            "excluded": bool(exclusion), "exclusion": exclusion}


def cmd_build(args) -> dict:
    path = Path(args.cases)
    raw = path.read_bytes()
    cases = json.loads(raw)[:args.first]
    needed = ("case_id", "requested_rewrite", "questions", "new_answer", "single_hops", "new_single_hops")
    for c in cases:
        missing = [f for f in needed if f not in c]
        if missing:
            raise SystemExit(f"{path}: case {c.get('case_id', '?')} lacks {', '.join(missing)}; "
                             "give a file in MQuAKE's CF-3k format.")
    if len(cases) < args.pool_size:
        raise SystemExit(f"{path} has {len(cases)} cases, fewer than one pool of {args.pool_size}; "
                         "pass a smaller --pool-size.")
    dataset = {"name": path.stem, "source": common.shown(path), "source_sha256": hashlib.sha256(raw).hexdigest(),
               **build(cases, args.pool_size, args.seed)}
    out = Path(args.out or common.OUT / f"memstream-{path.stem}.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(dataset, indent=1, ensure_ascii=False) + "\n")
    audit = dataset["audit"]
    common.log(f"{len(dataset['pools'])} pools of {args.pool_size} cases ({dataset['cases_left_out']} left out), "
               f"{sum(len(p['records']) for p in dataset['pools'])} records; audit: "
               f"{audit['cases_with_overwritten_hop']} cases with an overwritten hop, excluded "
               f"{audit['excluded']['mh']} mh / {audit['excluded']['sh']} sh questions; wrote {out}")
    return dataset


# ── eval ───────

def cmd_eval(args, models: common.Models) -> dict:
    path = Path(args.dataset)
    if not path.is_file():
        raise SystemExit(f"No dataset at {path}; run `python bench/memstream.py build` first.")
    dataset = json.loads(path.read_text())
    pools = [int(p) for p in args.pools.split(",")] if args.pools else [p["pool"] for p in dataset["pools"]]
    views = common.parse_views(args.views, EVAL_VIEWS)
    name, out = dataset["name"], Path(args.out_dir)
    items, views_by_db, extraction = [], {}, {}
    for p in pools:
        pool = dataset["pools"][p]
        key = f"p{p}"
        db_path = out / f"ms_{name}_p{p}.db"
        db = cmc.open_db(db_path)
        common.ingest(db, [r["text"] for r in pool["records"]], f"ms:{name}:p{p}:", models.extractor,
                      f"ms_{name}_p{p}")
        extraction[key] = {"db": common.shown(db_path), **common.extraction_summary(db)}
        views_by_db[key] = common.Views(db)
        for hop in ("sh", "mh"):
            kept = [q for q in dataset["questions"] if q["pool"] == p and q["subset"] == hop and not q["excluded"]]
            items += [common.Item(q["id"], hop, q["question"], q["answers"], key) for q in kept[:args.limit]]
    start, reader = time.monotonic(), models.reader()
    predictions = common.evaluate(reader, items, views_by_db, views)
    groups = {"sh": {"sh"}, "mh": {"mh"}, "all": {"sh", "mh"}}
    document = {"results": common.aggregate(predictions, groups), "model": reader.name,
                "commit": common.commit(), "benchmark": "memstream",
                "command": shlex.join(["python", "bench/memstream.py", *args.argv]),
                "date": time.strftime("%Y-%m-%d"), "dataset": {
                    k: dataset[k] for k in ("name", "source", "source_sha256", "seed", "pool_size", "cases_used",
                                            "cases_left_out")},
                "audit": {"cases_with_overwritten_hop": dataset["audit"]["cases_with_overwritten_hop"],
                          "excluded": dataset["audit"]["excluded"]},
                "pools": pools, "limit": args.limit, "views": views, "extraction": extraction,
                "read_seconds": round(time.monotonic() - start, 1),
                "empty_evidence_prompt_tokens": common.empty_evidence_tokens(reader)}
    common.write_results(args, document, predictions)
    return document


def parser() -> argparse.ArgumentParser:
    p = common.parser(__doc__)
    sub = p.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="build the dataset JSON from MQuAKE-format cases")
    b.add_argument("--cases", default=str(CASES), help="MQuAKE-format case file (default: MQuAKE-hard)")
    b.add_argument("--out", help="dataset JSON (default: bench/out/memstream-<cases stem>.json)")
    b.add_argument("--pool-size", type=int, default=POOL_SIZE)
    b.add_argument("--first", type=int, help="only the first N cases of the file (the paper: the first 800 of CF-3k)")
    b.add_argument("--seed", type=int, default=SEED)
    e = sub.add_parser("eval", help="read the dataset's questions under each view")
    e.add_argument("--dataset", default=str(common.OUT / f"memstream-{CASES.stem}.json"))
    e.add_argument("--pools", help="comma-separated pool numbers (default: all)")
    e.add_argument("--views", help=f"comma-separated (default: {','.join(EVAL_VIEWS)})")
    common.add_model_options(e)
    e.add_argument("--limit", type=int, help="only the first N kept questions of each pool and hop class")
    e.add_argument("--json", help="write the results JSON here")
    e.add_argument("--predictions", default=str(common.OUT / "memstream.predictions.jsonl"))
    e.add_argument("--out-dir", default=str(common.OUT), help="where the per-pool databases live")
    return p


def main(argv: list[str] | None = None, model=None):
    """Run a command; a test passes its own fake as model (reader and extractor)."""
    args = common.arguments(parser(), argv)
    if args.command == "build":
        return cmd_build(args)
    return common.run_views(cmd_eval, args, model)


if __name__ == "__main__":
    main()
