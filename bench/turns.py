"""The first N turns of a LoCoMo conversation added one record per `add`, as an agent stores a
chat, printed as a Markdown table of each turn's status and triples (issue: conversation turns).

    python bench/turns.py --conv conv-26 --turns 50 > bench/out/turns.md
"""

import argparse
import sys
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
    args = p.parse_args(argv)
    (sample,) = locomo.load(Path(args.data), args.conv)
    turns = locomo.turns(sample["conversation"])[:args.turns]
    print("| serial | turn | status | triples |\n|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        m = cmc.Memory(Path(tmp) / "t.db", model=cmc.load_model(args.model))
        for turn in turns:
            (ex,) = m.add(turn["text"], time=turn["time"])
            trip = "; ".join(f"{t.subject} —{t.relation}→ {t.object}" for t in ex.triples)
            text = turn["text"].replace("|", "/")
            print(f"| {ex.serial} | {text} | {ex.status} | {trip.replace('|', '/')} |", flush=True)
    common.log(f"{len(turns)} turns of {args.conv}; commit {common.commit()}")


if __name__ == "__main__":
    main()
