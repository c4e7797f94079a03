"""The first N turns of a LoCoMo conversation added one record per `add`, as an agent stores a
chat, printed as a Markdown table of each turn's status and triples (issue: conversation turns).

    python bench/turns.py --conv conv-26 --turns 50 --json bench/results/turns-conv-26.json > bench/out/turns.md
    python bench/results.py
"""

import argparse
import shlex
import sys
import time
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402
import locomo  # noqa: E402
from common import cmc  # noqa: E402


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--data", default=str(locomo.DATA))
    p.add_argument("--conv", default="conv-26")
    p.add_argument("--turns", type=int, default=50)
    p.add_argument("--model", help="GGUF path or 'gemma' / 'qwen' (default: the embedded gemma)")
    p.add_argument("--json", help="also write the turns, statuses and triples here")
    argv = sys.argv[1:] if argv is None else argv
    args = p.parse_args(argv)
    (sample,) = locomo.load(Path(args.data), args.conv)
    turns = locomo.turns(sample["conversation"])[:args.turns]
    print("| serial | turn | status | triples |\n|---|---|---|---|")
    rows = []
    model = cmc.load_model(args.model)
    with tempfile.TemporaryDirectory() as tmp:
        m = cmc.Memory(Path(tmp) / "t.db", model=model)
        for turn in turns:
            (ex,) = m.add(turn["text"], time=turn["time"])
            rows.append({"serial": ex.serial, "text": turn["text"], "status": ex.status, "reason": ex.reason,
                         "triples": [[t.subject, t.relation, t.object] for t in ex.triples]})
            trip = "; ".join(f"{t.subject} —{t.relation}→ {t.object}" for t in ex.triples)
            text = turn["text"].replace("|", "/")
            print(f"| {ex.serial} | {text} | {ex.status} | {trip.replace('|', '/')} |", flush=True)
    common.log(f"{len(turns)} turns of {args.conv}; commit {common.commit()}")
    if args.json:
        common.write_outputs(Path(args.json), None, {
            "benchmark": "turns", "conv": args.conv, "turns": rows, "model": model.name, "commit": common.commit(),
            "command": shlex.join(["python", "bench/turns.py", *argv]), "date": time.strftime("%Y-%m-%d")}, [])


if __name__ == "__main__":
    main()
