"""Candidate ranking without a model: how often cmc's best-ranked candidate is a gold answer.

    python bench/ranking.py                       # FactConsolidation, all 8 subsets
    python bench/ranking.py --memstream bench/out/memstream-MQuAKE-hard.json
    python bench/ranking.py --data bench/out/reworded/Conflict_Resolution.json --out-dir bench/out/reworded
    python bench/ranking.py --reader-budget 0,400,600,800 --tokens   # the reader's budget (cmc.focus)

Reads the databases the answer benchmarks already built (bench/out/fc_<len>.db,
ms_<name>_p<k>.db); nothing is extracted and no model is loaded, so a change to the ranking
(cmc.rank_candidates) is measured on all 800 questions in seconds. Reports per subset: gold in
evidence, gold among the candidates, gold ranked first, gold inside the choice window (what the
reader chooses among), and the mean window size. The reader's own choice is only measured by
bench/factconsolidation.py.

With --reader-budget, each question is judged as the reader would see it: the evidence cut by
cmc.focus to that many characters (0: not cut) and the candidates whose path it still shows;
the report adds the mean reader prompt, in characters or, with --tokens, in the embedded
model's tokens (its vocabulary only is loaded).
"""

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402
from common import cmc  # noqa: E402
import factconsolidation  # noqa: E402


def gold_at(candidates: list[dict], golds: list[str]) -> int | None:
    """Index of the first candidate the benchmark would score correct."""
    return next((i for i, c in enumerate(candidates) if common.score(c["answer"], golds)), None)


def judge(db, question: str, golds: list[str], budget: int | None = None, tokens=None) -> dict:
    anchors, edges, evidence = cmc.select_evidence(db, question)
    evidence, candidates = cmc.reader_view(question, anchors, edges, evidence, budget)  # as cmc.answer
    window = cmc.choice_window(candidates) if candidates else []
    at = gold_at(candidates, golds)
    prompt = cmc.answer_prompt(evidence, question)
    return {"in_evidence": common.answer_in(evidence.text, golds), "candidate": at is not None,
            "first": at == 0, "window": gold_at(window, golds) is not None, "window_size": len(window),
            "prompt": tokens(prompt) if tokens else len(prompt)}


def report(rows: dict[str, list[dict]]) -> None:
    print(f"{'subset':<10} {'n':>4} {'evid':>6} {'cand':>6} {'first':>6} {'window':>6} {'|win|':>5} {'prompt':>7}")
    pooled = defaultdict(list)
    for subset, judged in rows.items():
        if "_" in subset:  # FactConsolidation: sh_6k, mh_6k, ... pooled into sh, mh
            pooled[subset.split("_")[0]] += judged
    for subset, judged in [*rows.items(), *pooled.items()]:
        n = len(judged)
        pct = lambda k: 100 * sum(j[k] for j in judged) / n  # noqa: E731
        print(f"{subset:<10} {n:>4} {pct('in_evidence'):6.1f} {pct('candidate'):6.1f} {pct('first'):6.1f} "
              f"{pct('window'):6.1f} {sum(j['window_size'] for j in judged) / n:5.2f} "
              f"{sum(j['prompt'] for j in judged) / n:7.1f}")


def embedded_tokens():
    import llama_cpp
    llm = llama_cpp.Llama(model_path=cmc.embedded_model_path(), vocab_only=True, verbose=False)
    return lambda text: len(llm.tokenize(text.encode("utf-8"), add_bos=True, special=False))


def judge_all(args, budget: int | None, tokens) -> dict[str, list[dict]]:
    out, rows = Path(args.out_dir), defaultdict(list)
    if args.memstream:
        dataset = json.loads(Path(args.memstream).read_text())
        for q in dataset["questions"]:
            path = out / f"ms_{dataset['name']}_p{q['pool']}.db"
            if q["excluded"] or not path.exists():
                continue
            rows[q["subset"]].append(judge(cmc.open_db(path), q["question"], q["answers"], budget, tokens))
    else:
        subsets = args.subsets.split(",") if args.subsets else [
            s for s in factconsolidation.SUBSETS if (out / f"fc_{s.split('_')[1]}.db").exists()]
        _, items = factconsolidation.load(Path(args.data), subsets, None)
        dbs = {}
        for item in items:
            db = dbs.setdefault(item.db, cmc.open_db(out / f"fc_{item.db}.db"))
            rows[item.subset].append(judge(db, item.question, item.golds, budget, tokens))
    report(rows)
    return rows


def main(argv: list[str] | None = None) -> dict[str, list[dict]]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=str(factconsolidation.DATA))
    ap.add_argument("--out-dir", default=str(common.OUT), help="where the fc_<len>.db files are")
    ap.add_argument("--subsets", help="e.g. mh_6k,mh_32k (default: those whose database exists)")
    ap.add_argument("--memstream", help="a bench/memstream.py dataset: read its ms_<name>_p<k>.db pools instead")
    ap.add_argument("--reader-budget", default="",
                    help="comma-separated budgets in characters: judge what the reader sees (0: all)")
    ap.add_argument("--tokens", action="store_true",
                    help="report the reader prompt in the embedded model's tokens, not characters")
    args = ap.parse_args(argv)
    tokens = embedded_tokens() if args.tokens else None
    budgets = [int(b) for b in args.reader_budget.split(",")] if args.reader_budget else [None]
    every = {}
    for budget in budgets:
        if budget is not None:
            print(f"reader budget {budget or 'none'}" + (" (prompt in tokens)" if tokens else " (prompt in characters)"))
        every[budget] = judge_all(args, budget, tokens)
    return every[budgets[-1]]


if __name__ == "__main__":
    main()
