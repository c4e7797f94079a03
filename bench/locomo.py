"""LoCoMo: does cmc's recall find the turns a long two-person conversation's questions need, and
in how much text, against plain BM25 given the same amount of text.

    python bench/locomo.py --conv conv-26 --limit-questions 20
    python bench/locomo.py --conv conv-26 --answer --predictions bench/out/locomo-conv-26.jsonl
    python bench/locomo.py --extract --answer --model qwen
    python bench/results.py     # then regenerate docs/results.md from bench/results/*.json

Data: ../shared/data/external/locomo10/locomo10-dev.json (PROVENANCE.md beside it), conversations
conv-26, conv-30, conv-41, conv-42, conv-43 (all by default; --conv picks some).

Ingest: one record per turn, in session order: "<speaker>: <text>", plus " [shares a photo:
<caption>]" when the turn shares an image; the record's time is its session's date ("1:56 pm on
8 May, 2023" -> 2023-05-08T13:56:00), passed when cmc.Memory.add / cmc.add_records take a time.
Each turn is its own record with source locomo:<conv>:<dia_id>, which maps the questions' gold
turns to serials. By default the turns are stored without extraction (cmc.add_records, status
pending): a retrieval-only run, no model. --extract adds each turn with its own cmc.Memory.add, as
an agent would (model extraction, about 2 s a turn). The database is kept at
bench/out/locomo/<conv>[-extract].db and reused while it holds the conversation's turns (an
interrupted ingest resumes); --fresh builds it again.

Per question (categories 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial):
  cmc    Memory.recall(question) (no model call): the evidence serials and len(recall.text).
  bm25   an in-memory FTS5 table of the same turn texts, queried with the question's words OR-ed
         (each quoted), default bm25 rank; turns taken in rank order while the running size
         (len(text) + 1 each) stays within cmc's len(recall.text) for that question.
  recall  every gold turn in the evidence (gold_found: the fraction of gold turns in it). Gold ids
         are read leniently ("D8:6; D9:17", "D:11:26"); an id the conversation lacks is dropped
         (listed in the predictions), and a question left with none counts for no recall.
With --answer also Memory.ask(question): token F1 against the gold answer (normalised as the
benchmark's substring match: lowercase, no punctuation or articles; F1 of the token multisets),
substring match (bench/common.score), and for category 5 the abstention rate (the answer says
"not in memory"; F1 and substring are not computed for category 5, which has no answer).

Reported per category and over categories 1-4: n, recall cmc vs bm25, mean gold_found, median
evidence characters, F1, substring, abstention; median seconds per recall and per ask.
--json defaults to bench/results/locomo-<convs or all>[-extract][-answer].json; --predictions
writes one JSON line per question. --limit-questions N keeps each conversation's first N questions.
"""

import argparse
import inspect
import json
import re
import shlex
import sqlite3
import statistics
import sys
import time
from collections import Counter, defaultdict
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402
from common import cmc  # noqa: E402

DATA = common.SHARED / "data" / "external" / "locomo10" / "locomo10-dev.json"
OUT = common.OUT / "locomo"
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
ANSWERED = (1, 2, 3, 4)  # category 5 has no answer in the conversation
ABSTAIN = "not in memory"
SESSION = re.compile(r"session_(\d+)")
DIA_ID = re.compile(r"D:?(\d+):(\d+)")
DATE_FORMAT = "%I:%M %p on %d %B, %Y"  # '1:56 pm on 8 May, 2023'
TIMES_META = "bench_locomo_times"  # whether this database's records were stored with their times


# ── data ──

def session_time(text: str) -> str:
    """A LoCoMo session date as ISO 8601: '1:56 pm on 8 May, 2023' -> '2023-05-08T13:56:00'."""
    return datetime.strptime(text.strip(), DATE_FORMAT).isoformat()


def turns(conversation: dict) -> list[dict]:
    """Every turn in session order: {"dia_id", "text" (the record), "time"}."""
    sessions = sorted((int(m[1]), key) for key in conversation if (m := SESSION.fullmatch(key)))
    out = []
    for _, key in sessions:
        when = session_time(conversation[f"{key}_date_time"])
        for turn in conversation[key]:
            text = f"{turn['speaker']}: {turn['text']}"
            if turn.get("blip_caption"):
                text += f" [shares a photo: {turn['blip_caption']}]"
            out.append({"dia_id": turn["dia_id"], "text": text, "time": when})
    return out


def gold_ids(evidence: list[str]) -> list[str]:
    """The gold turn ids of a question, read leniently ('D8:6; D9:17' is two, 'D:11:26' is D11:26)."""
    return list(dict.fromkeys(f"D{a}:{b}" for entry in evidence for a, b in DIA_ID.findall(entry)))


def gold_answer(qa: dict) -> str | None:
    return None if qa["category"] == 5 else str(qa["answer"])


def load(path: Path, convs: str | None) -> list[dict]:
    samples = json.loads(path.read_text())
    if not convs:
        return samples
    wanted = [c.strip() for c in convs.split(",") if c.strip()]
    unknown = sorted(set(wanted) - {s["sample_id"] for s in samples})
    if unknown:
        raise SystemExit(f"No conversation {', '.join(unknown)} in {path}; it has "
                         f"{', '.join(s['sample_id'] for s in samples)}.")
    return [s for s in samples if s["sample_id"] in wanted]


# ── ingest ──  one record per turn, source locomo:<conv>:<dia_id>; resumed while it is a prefix

STORED = "SELECT serial, source, text FROM records WHERE source >= :prefix AND source < :prefix || char(1114111) ORDER BY serial"


def add_takes_time() -> bool:
    return "time" in inspect.signature(cmc.Memory.add).parameters


def records_take_time() -> bool:
    """Whether cmc.add_records stores (text, source, time) triples: tried on a scratch database."""
    scratch = cmc.open_db(":memory:")
    try:
        cmc.add_records(scratch, [("A probe.", "probe", "2023-05-08T13:56:00")])
        return True
    except (TypeError, ValueError):  # it unpacks (text, source) pairs only
        return False
    finally:
        scratch.close()


def stored_serials(db, conv_id: str, turn_list: list[dict]) -> dict[str, int]:
    """dia_id -> serial of the turns stored so far; refuses a database that holds anything but
    a prefix of this conversation's turns, in order."""
    prefix = f"locomo:{conv_id}:"
    rows = db.execute(STORED, {"prefix": prefix}).fetchall()
    total = db.execute("SELECT count(*) FROM records").fetchone()[0]
    expected = [(prefix + t["dia_id"], cmc.clean_record(t["text"])) for t in turn_list[:len(rows)]]
    if total != len(rows) or [(r[1], r[2]) for r in rows] != expected:
        raise SystemExit(f"{conv_id}: the database holds other records than this conversation's turns "
                         "in order; pass --fresh to build it again.")
    return {r[1].removeprefix(prefix): r[0] for r in rows}


def ingest(memory, conv_id: str, turn_list: list[dict], extract: bool, times: bool) -> dict[str, int]:
    """Store (or with extract, add and extract) the turns not stored yet; dia_id -> serial.
    times: whether this cmc stores a record's time (a database begun otherwise is refused)."""
    db = memory.db
    serials = stored_serials(db, conv_id, turn_list)
    if serials and cmc.get_meta(db, TIMES_META) != str(int(times)):
        raise SystemExit(f"{conv_id}: the database was built {'without' if times else 'with'} record times and "
                         f"this cmc stores {'them' if times else 'none'}; pass --fresh to build it again.")
    with cmc.transaction(db):
        db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (TIMES_META, str(int(times))))
    source, missing = f"locomo:{conv_id}:", turn_list[len(serials):]
    if missing and not extract:
        rows = [(t["text"], source + t["dia_id"], t["time"]) for t in missing]
        cmc.add_records(db, rows if times else [r[:2] for r in rows])
        common.log(f"{conv_id}: stored {len(missing)} turns (pending)")
    start = time.perf_counter()
    for i, t in enumerate(missing if extract else [], 1):  # one add per turn, as an agent stores them
        memory.add(t["text"], source=source + t["dia_id"], **({"time": t["time"]} if times else {}))
        if i % 25 == 0 or i == len(missing):
            common.log(f"{conv_id}: extracted {i}/{len(missing)} turns "
                       f"({(time.perf_counter() - start) / i:.2f} s a turn)")
    if extract and db.execute("SELECT 1 FROM records WHERE status = 'pending'").fetchone():
        cmc.extract_pending(db, memory.model)  # a turn stored before an interrupted extraction
    return stored_serials(db, conv_id, turn_list)


def status_counts(db) -> dict:
    return {"status": {r[0]: r[1] for r in db.execute("SELECT status, count(*) FROM records GROUP BY status")}}


# ── baseline ──  FTS5 bm25 over the same turn texts, cut to cmc's evidence size

BM25_RANKED = "SELECT rowid, text FROM turns WHERE turns MATCH :query ORDER BY bm25(turns), rowid DESC"


class Bm25:
    """An in-memory FTS5 table of (serial, text) turns."""

    def __init__(self, rows: list[tuple[int, str]]):
        self.db = sqlite3.connect(":memory:")
        self.db.execute("CREATE VIRTUAL TABLE turns USING fts5(text)")
        self.db.executemany("INSERT INTO turns (rowid, text) VALUES (?, ?)", rows)

    def search(self, question: str, size: int) -> list[int]:
        """Serials in rank order while their running size (len(text) + 1 each) stays <= size."""
        words = dict.fromkeys(re.findall(r"\w+", question.lower()))
        if not words:
            return []
        query = " OR ".join(f'"{w}"' for w in words)  # \w+ holds no quote or FTS5 syntax
        picked, used = [], 0
        for serial, text in self.db.execute(BM25_RANKED, {"query": query}):
            used += len(text) + 1
            if used > size:
                break
            picked.append(serial)
        return picked


# ── score ──

def token_f1(prediction: str, gold: str) -> float:
    """LoCoMo-style F1 of the normalised token multisets."""
    pred, ref = common.normalize_answer(prediction).split(), common.normalize_answer(gold).split()
    if not pred or not ref:
        return float(pred == ref)
    same = sum((Counter(pred) & Counter(ref)).values())
    if not same:
        return 0.0
    precision, recall = same / len(pred), same / len(ref)
    return 2 * precision * recall / (precision + recall)


def found(gold: list[int], shown: list[int]) -> tuple[bool | None, float | None]:
    """(every gold turn shown, the fraction shown); None when the question has no gold turn."""
    if not gold:
        return None, None
    hit = sum(s in set(shown) for s in gold)
    return hit == len(gold), hit / len(gold)


def recall_of(memory):
    if not hasattr(memory, "recall"):
        raise SystemExit("cmc.Memory has no recall() in this checkout of cmc.py; bench/locomo.py needs it "
                         "(Memory.recall(question) -> .evidence, .text). Run it on a cmc that has it.")
    return memory.recall


def read_question(memory, bm25: Bm25, conv_id: str, qa: dict, serial_of: dict[str, int], answer: bool,
                  budget: int | None = None) -> dict:
    """One question: cmc's recall and bm25 at its size, and with answer the model's answer (the
    reader reading `budget` characters, default cmc's), scored."""
    ids = gold_ids(qa["evidence"])
    gold = [serial_of[i] for i in ids if i in serial_of]
    start = time.perf_counter()
    got = recall_of(memory)(qa["question"])
    recall_seconds = round(time.perf_counter() - start, 4)
    shown = [e["serial"] for e in got.evidence]
    size = len(got.text)
    baseline = bm25.search(qa["question"], size)
    cmc_all, cmc_frac = found(gold, shown)
    bm25_all, bm25_frac = found(gold, baseline)
    row = {"conv": conv_id, "category": qa["category"], "question": qa["question"],
           "gold": gold_answer(qa) if qa["category"] != 5 else qa.get("adversarial_answer"),
           "gold_ids": ids, "unknown_ids": [i for i in ids if i not in serial_of], "gold_serials": gold,
           "cmc_evidence": shown, "evidence_chars": size, "cmc_recall": cmc_all, "cmc_found": cmc_frac,
           "bm25_evidence": baseline, "bm25_recall": bm25_all, "bm25_found": bm25_frac,
           "recall_seconds": recall_seconds}
    if answer:
        start = time.perf_counter()
        got_answer = memory.ask(qa["question"], **({"budget": budget} if budget else {}))
        said = got_answer.answer
        row.update({"answer": said, "raw_answer": got_answer.raw, "ask_seconds": round(time.perf_counter() - start, 3),
                    "abstained": ABSTAIN in said.lower()})
        if qa["category"] != 5:
            row.update({"f1": round(token_f1(said, gold_answer(qa)), 4),
                        "substring": common.score(said, [gold_answer(qa)])})
    return row


# ── report ──

def mean(values) -> float | None:
    values = [float(v) for v in values if v is not None]
    return round(sum(values) / len(values), 4) if values else None


def median(values) -> float | None:
    values = [v for v in values if v is not None]
    return round(statistics.median(values), 4) if values else None


def summarise(rows: list[dict]) -> list[dict]:
    """One row per category, then categories 1-4 pooled ('1-4')."""
    groups = defaultdict(list)
    for r in sorted(rows, key=lambda r: r["category"]):
        groups[str(r["category"])].append(r)
    groups["1-4"] = [r for r in rows if r["category"] in ANSWERED]
    return [{"category": key, "name": "answerable" if key == "1-4" else CATEGORIES[int(key)],
             "n": len(rs), "with_gold": sum(r["cmc_recall"] is not None for r in rs),
             "cmc_recall": mean(r["cmc_recall"] for r in rs), "bm25_recall": mean(r["bm25_recall"] for r in rs),
             "cmc_found": mean(r["cmc_found"] for r in rs), "bm25_found": mean(r["bm25_found"] for r in rs),
             "median_evidence_chars": median([r["evidence_chars"] for r in rs]),
             "f1": mean(r.get("f1") for r in rs), "substring": mean(r.get("substring") for r in rs),
             "abstention": mean(r.get("abstained") for r in rs)}
            for key, rs in groups.items() if rs]


def print_table(doc: dict) -> None:
    def pct(v):
        return f"{100 * v:6.1f}%" if v is not None else "      -"
    print(f"{'category':16} {'n':>4} {'cmc rec':>7} {'bm25 rec':>8} {'chars':>7} {'F1':>7} {'substr':>7} {'abstain':>7}")
    for r in doc["results"]:
        print(f"{r['category'] + ' ' + r['name']:16} {r['n']:>4} {pct(r['cmc_recall'])} {pct(r['bm25_recall']):>8} "
              f"{r['median_evidence_chars'] or 0:>7.0f} {pct(r['f1'])} {pct(r['substring'])} {pct(r['abstention'])}")
    s = doc["seconds"]
    print(f"seconds: recall median {s['recall_median']}, ask median {s['ask_median']}; "
          f"model {doc['model']}; commit {doc['commit']}")


def default_json(args, samples: list[dict], everything: bool) -> Path:
    convs = "all" if everything else "_".join(s["sample_id"] for s in samples)
    return common.RESULTS / f"locomo-{convs}{'-extract' if args.extract else ''}{'-answer' if args.answer else ''}.json"


def parser() -> argparse.ArgumentParser:
    p = common.parser(__doc__)
    p.add_argument("--data", default=str(DATA), help="locomo10-dev.json (default: the shared copy)")
    p.add_argument("--conv", help="comma-separated sample ids, e.g. conv-26 (default: every conversation)")
    p.add_argument("--extract", action="store_true", help="add each turn through Memory.add (model extraction)")
    p.add_argument("--answer", action="store_true", help="also Memory.ask every question and score the answer")
    p.add_argument("--model", help="GGUF path or 'gemma' / 'qwen', given to cmc.Memory (default: embedded gemma)")
    p.add_argument("--limit-questions", type=int, help="only each conversation's first N questions")
    p.add_argument("--every", type=int, default=1, help="only every N-th question (a sample across categories)")
    p.add_argument("--offset", type=int, default=0,
                   help="with --every N, start at this question (0 to N-1): another sample of the same size")
    p.add_argument("--budget", type=int, help="characters the reader reads (default: cmc's ask budget)")
    p.add_argument("--json", help="results JSON (default: bench/results/locomo-<convs>.json)")
    p.add_argument("--predictions", help="one JSON line per question")
    p.add_argument("--fresh", action="store_true", help="build the cached databases again")
    p.add_argument("--category", help="comma-separated categories to ask (default: all five)")
    p.add_argument("--no-dates", action="store_true",
                   help="ablation: the evidence without the dates of relative times (reader and speaker check)")
    p.add_argument("--out-dir", default=str(OUT), help="where the per-conversation databases live")
    return p


def main(argv: list[str] | None = None, model=None) -> dict:
    """Run the harness; a test passes its own fake as model."""
    args = common.arguments(parser(), argv)
    samples = load(Path(args.data), args.conv)
    categories = {int(c) for c in args.category.split(",")} if args.category else {1, 2, 3, 4, 5}
    if args.no_dates:  # every record as stored, for the reader and for the speaker check alike
        cmc.told_texts = lambda read: {e["serial"]: e["text"] for e in read.evidence}
    everything = not args.conv
    given = model is not None or args.model  # one model for both; else gemma extracts and the default reader answers
    model = model if model is not None else (cmc.load_model(args.model) if args.extract or args.answer else None)
    reader = cmc.load_reader(None, model if given else None) if args.answer else None
    rows, ingested = [], {}
    times = add_takes_time() if args.extract else records_take_time()
    try:
        for sample in samples:
            conv_id, turn_list = sample["sample_id"], turns(sample["conversation"])
            path = Path(args.out_dir) / f"{conv_id}{'-extract' if args.extract else ''}.db"
            if args.fresh:
                for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
                    leftover.unlink(missing_ok=True)
            path.parent.mkdir(parents=True, exist_ok=True)
            with cmc.Memory(path, model=model, answer_model=reader) as memory:
                recall_of(memory)  # fail before a long extraction, not after it
                serial_of = ingest(memory, conv_id, turn_list, args.extract, times)
                ingested[conv_id] = {"db": common.shown(path), "turns": len(turn_list), **status_counts(memory.db)}
                bm25 = Bm25([(s, t) for s, t in memory.db.execute("SELECT serial, text FROM records")])
                for qa in sample["qa"][:args.limit_questions][args.offset::args.every]:
                    if qa.get("category") in categories:
                        rows.append(read_question(memory, bm25, conv_id, qa, serial_of, args.answer, args.budget))
            common.log(f"{conv_id}: {sum(r['conv'] == conv_id for r in rows)} questions read")
    except cmc.CmcError as e:
        raise SystemExit(f"error: {e}")
    document = {"benchmark": "locomo", "data": common.shown(args.data), "conversations": list(ingested),
                "extract": args.extract, "answer": args.answer, "limit_questions": args.limit_questions,
                "every": args.every, "offset": args.offset, "ask_budget": args.budget or cmc.ASK_BUDGET,
                "categories": sorted(categories), "reader_dates": not args.no_dates,
                "results": summarise(rows),
                "seconds": {"recall_median": median([r["recall_seconds"] for r in rows]),
                            "ask_median": median([r.get("ask_seconds") for r in rows])},
                "ingest": ingested, "record_times": times,
                "model": model.name if model is not None else None, "commit": common.commit(),
                "answer_model": reader.name if reader is not None else None,
                "command": shlex.join(["python", "bench/locomo.py", *args.argv]), "date": time.strftime("%Y-%m-%d")}
    common.write_results(args, document, rows, json_default=default_json(args, samples, everything))
    print_table(document)
    return document


if __name__ == "__main__":
    main()
