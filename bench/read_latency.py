"""Read-path latency and scale (issue 7): anchor + traverse + render, no model.

    python bench/read_latency.py                      # the 262K FactConsolidation history
    python bench/read_latency.py --records 1000000    # ... then synthetic records up to 1M
    python bench/read_latency.py --json out.json --keep-db /tmp/cmc-bench
    python bench/read_latency.py --records 1000000 --ingest-runs 3 --json bench/results/read_latency.json
    python bench/results.py     # then regenerate docs/results.md from bench/results/*.json

The 262K history (18,332 numbered facts) is stored with cmc's own functions. Its triples come
from the MQuAKE cloze templates below, not from a model: this bench measures reads, not
extraction. A line no template matches (121 office-holder lines such as "The Mayor of London
is Sadiq Khan.") is stored as `no_fact`, not `unresolved`: every unresolved record is rendered
into every answer's evidence, which would measure the unresolved set instead of the read path.

`--records N` then appends synthetic records of the same shape (many subjects, about 39% of
records overwriting a current (subject, relation), objects that are subjects of later records,
so multi-hop chains) until the history holds N records, and measures again with the 200 real
questions plus generated multi-hop questions over the synthetic graph.

Per size: every question is read once to warm up, then once timed (p50, p95, max of
cmc.recall). Ingest: 10,000 new rule-matchable records are added to a copy of the
database that holds active rules for every template, then `cmc.extract_pending(db, None)` must
extract them all without a model (reported as pending while cmc cannot); then once more as a
user would, `python cmc.py add --file` in a new process.

The templates and question shapes live here only; cmc.py knows nothing about the benchmark.
"""

import argparse
import gc
import json
import os
import random
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
import cmc  # noqa: E402

FC_FILE = "data/external/memoryagentbench-factconsolidation/Conflict_Resolution.json"
DEFAULT_DATA = next((p / FC_FILE for p in (REPO.parent / "shared", Path("/work/shared"))
                     if (p / FC_FILE).is_file()), REPO.parent / "shared" / FC_FILE)
HISTORY = "factconsolidation_mh_262k"  # mh and sh rows share this context: 200 questions

# MQuAKE cloze templates (the 30 of MQuAKE-hard's requested rewrites plus six more MQuAKE-CF
# relations that occur in the 262K history) -> the relation's Wikidata label.
TEMPLATES = {
    "{} is a citizen of": "country of citizenship",
    "{} is associated with the sport of": "sport",
    "{} is affiliated with the religion of": "religion",
    "The author of {} is": "author",
    "{} plays the position of": "position played",
    "{} was created in the country of": "country of origin",
    "{} was created by": "creator",
    "The type of music that {} plays is": "genre",
    "{} is married to": "spouse",
    "{} was developed by": "developer",
    "{} was founded by": "founded by",
    "{} was born in the city of": "place of birth",
    "The headquarters of {} is located in the city of": "headquarters location",
    "The univeristy where {} was educated is": "educated at",
    "{} died in the city of": "place of death",
    "{} was performed by": "performer",
    "The company that produced {} is": "manufacturer",
    "{} is employed by": "employer",
    "The origianl broadcaster of {} is": "original broadcaster",
    "{} works in the field of": "occupation",
    "{} is located in the continent of": "continent",
    "{} is famous for": "notable work",
    "The official language of {} is": "official language",
    "The capital of {} is": "capital",
    "The name of the current head of the {} government is": "head of government",
    "The chairperson of {} is": "chairperson",
    "The head coach of {} is": "head coach",
    "The chief executive officer of {} is": "chief executive officer",
    "{}'s child is": "child",
    "The director of {} is": "director manager",
    "{} speaks the language of": "languages spoken",
    "{} worked in the city of": "work location",
    "{} was written in the language of": "language of work",
    "The original language of {} is": "original language",
    "{} was founded in the city of": "location of formation",
    "The name of the current head of state in {} is": "head of state",
}


def _template_regex(template: str) -> re.Pattern:
    before, after = template.split("{}")
    return re.compile("^" + re.escape(before) + "(.+?)" + re.escape(after) + r" (.+)\.$")


# Longest template first: "The original language of {} is" before a shorter one that also fits.
_PARSERS = [(_template_regex(t), label) for t, label in sorted(TEMPLATES.items(), key=lambda x: -len(x[0]))]


def triple_of(line: str) -> tuple[str, str, str] | None:
    """(subject, relation label, object) of a FactConsolidation line, or None."""
    for regex, label in _PARSERS:
        m = regex.match(line)
        if m:
            return m.group(1), label, m.group(2)
    return None


def sentence(template: str, subject: str, obj: str) -> str:
    return template.format(subject) + " " + obj + "."


def load_history(path: Path, source: str = HISTORY) -> tuple[list[str], list[tuple[str, str]]]:
    """The history's fact lines and every (question, gold answer) asked over that context."""
    rows = json.loads(Path(path).read_text())
    context = next(r["context"] for r in rows if r["metadata"]["source"] == source)
    lines = [re.sub(r"^\d+\. ", "", l).strip() for l in context.split("\n")[1:] if l.strip()]
    questions = [(q, a[0]) for r in rows if r["context"] == context
                 for q, a in zip(r["questions"], r["answers"])]
    return lines, questions


# ── synthetic history ──  same sentence shape, invented names, the 262K history's proportions

_SYLLABLES = ("ka ve ro lu ti sma bel dor fen gar hul isk jor kel mir nav ost pra quo rel sut "
              "tam ulv vor wen xan yor zel bri cal dru eno fal gri hav ilo jun kra lom mer").split()


class Synthetic:
    """Records of the FactConsolidation shape over invented entities. Tracks the current value of
    every (subject, relation) so it can ask multi-hop questions whose answer it knows."""

    OVERWRITE = 0.39     # share of 262K records that overwrite a current (subject, relation)
    OLD_SUBJECT = 0.15   # a new (subject, relation) on an existing subject
    OBJECT_IS_SUBJECT = 0.3  # objects that are (or become) subjects: multi-hop chains

    def __init__(self, seed: int = 7):
        self.rng = random.Random(seed)
        self.names: set[str] = set()
        self.templates = list(TEMPLATES)
        self.current: dict[tuple[str, str], tuple[str, int]] = {}  # (s, template) -> (o, serial)
        self.pairs: list[tuple[str, str]] = []  # every (subject, template) written so far
        self.paired: set[tuple[str, str]] = set()
        self.relations_of: dict[str, list[str]] = {}
        self.subjects: list[str] = []
        self.objects: list[str] = []
        self.values: dict[str, list[str]] = {t: [] for t in self.templates}  # popular values
        self.unsaved: list[tuple[str, str, str]] = []

    def name(self) -> str:
        rng = self.rng
        while True:
            words = ["".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 3))).capitalize()
                     for _ in range(rng.choice((1, 2, 2, 2, 3)))]
            name = " ".join(words)
            if name not in self.names:
                self.names.add(name)
                return name

    def _object(self, template: str) -> str:
        rng, pool = self.rng, self.values[template]
        roll = rng.random()
        if roll < self.OBJECT_IS_SUBJECT and self.subjects:
            return rng.choice(self.subjects)
        if roll < 0.8 and len(pool) > 20:
            return rng.choice(pool)
        obj = self.name()
        pool.append(obj)
        self.objects.append(obj)
        return obj

    def record(self) -> tuple[str, tuple[str, str, str]]:
        """The next record: (text, (subject, relation label, object))."""
        rng = self.rng
        if self.pairs and rng.random() < self.OVERWRITE:
            subject, template = rng.choice(self.pairs)
        else:
            if self.subjects and rng.random() < self.OLD_SUBJECT:
                subject = rng.choice(self.subjects)
            elif self.objects and rng.random() < self.OBJECT_IS_SUBJECT:
                subject = rng.choice(self.objects)
            else:
                subject = self.name()
            template = rng.choice(self.templates)
            if (subject, template) not in self.paired:
                self.paired.add((subject, template))
                self.pairs.append((subject, template))
                if subject not in self.relations_of:
                    self.relations_of[subject] = []
                    self.subjects.append(subject)
                self.relations_of[subject].append(template)
        obj = self._object(template)
        while obj == subject:
            obj = self.name()
        self.unsaved.append((subject, template, obj))
        return sentence(template, subject, obj), (subject, TEMPLATES[template], obj)

    def saved(self, serials: list[int]) -> None:
        """The records made since the last call were stored under these serials."""
        for (subject, template, obj), serial in zip(self.unsaved, serials, strict=True):
            self.current[(subject, template)] = (obj, serial)
        self.unsaved = []

    def question(self) -> tuple[str, str, int] | None:
        """A 1-4 hop question over current values: (question, answer, serial of the last hop)."""
        rng = self.rng
        subject = rng.choice(self.subjects)
        node, labels, serial = subject, [], 0
        for _ in range(rng.randint(1, 4)):
            known = [t for t in self.relations_of.get(node, ()) if (node, t) in self.current]
            if not known:
                break
            template = rng.choice(known)
            labels.append(TEMPLATES[template])
            node, serial = self.current[(node, template)]
        if not labels:
            return None
        return ("What is the " + " of the ".join(reversed(labels)) + f" of {subject}?", node, serial)


# ── building a database with cmc's own functions ──

CHUNK = 5_000


def store(db: sqlite3.Connection, items: list[tuple[str, tuple[str, str, str] | None]], source: str) -> list[int]:
    """Store records and their (template-derived) triples; returns the serials."""
    serials = []
    for start in range(0, len(items), CHUNK):
        chunk = items[start:start + CHUNK]
        new = cmc.add_records(db, [(text, source) for text, _ in chunk])
        with cmc.transaction(db):
            for serial, (_, triple) in zip(new, chunk):
                ex = (cmc.Extraction(serial, "facts", [cmc.Triple(*triple)]) if triple
                      else cmc.Extraction(serial, "no_fact"))
                cmc.write_extraction(db, ex)
        cmc.compact_anchor_index(db)  # as extract_pending does at the end of every add
        serials += new
    return serials


def add_synthetic(db: sqlite3.Connection, synth: Synthetic, count: int) -> None:
    for start in range(0, count, CHUNK):
        batch = [synth.record() for _ in range(min(CHUNK, count - start))]
        synth.saved(store(db, batch, "bench:synthetic"))


def add_rules(db: sqlite3.Connection) -> None:
    """An active induced rule for every template (what issue 3's induction would hold)."""
    with cmc.transaction(db):
        for template, label in TEMPLATES.items():
            db.execute("INSERT OR IGNORE INTO rules (pattern, relation, status, created_at) "
                       "VALUES (?, ?, 'active', 0)",
                       (sentence(template, "<S>", "<O>"), cmc.relation_key(label)))


# ── measuring ──

def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def quiet_heap() -> None:
    """Freeze what this process already holds (at 1M records, the synthetic generator's million
    subjects) so that Python's full garbage collections inside a timing walk cmc's objects, not
    the bench's: a `cmc.py ask` process holds no such heap. Without it the 1M reads had a
    680-750 ms max in two runs; with it, 3.7-5.5 ms in three."""
    gc.collect()
    gc.freeze()


def read_latency(db: sqlite3.Connection, questions: list[str]) -> tuple[list[float], list[float], list]:
    """Warm up once over every question, then time anchor + traverse + render for each: wall
    milliseconds, and this thread's CPU milliseconds (what other processes on the cores cannot
    inflate)."""
    for q in questions:
        cmc.recall(db, q)
    quiet_heap()
    times, cpu, results = [], [], []
    for q in questions:
        c0, t0 = time.thread_time(), time.perf_counter()
        result = cmc.recall(db, q)
        times.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.thread_time() - c0) * 1000)
        results.append(result)
    return times, cpu, results


def ingest_rate(db_path: Path, count: int, seed: int = 1007, cli: bool = False) -> tuple[float | None, str]:
    """Records per second for add + rule-only extraction of `count` new records, on a copy: in
    this process (cmc.add_records, then cmc.extract_pending(db, None)), or with cli=True as a
    user runs it, `python cmc.py add --file F` in a new process (start-up, imports and the
    embedded model's handle included; its weights load only if a record needs the model)."""
    synth = Synthetic(seed)
    copy = db_path.with_name(db_path.stem + "-ingest.db")
    src = sqlite3.connect(db_path)
    src.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    src.close()
    shutil.copyfile(db_path, copy)
    lines = copy.with_suffix(".txt")
    try:
        db = cmc.open_db(copy)
        add_rules(db)
        texts: dict[str, str] = {}  # new text only: a repeated text is a cache hit, not a rule's
        while len(texts) < count:
            text = synth.record()[0]
            key = cmc.text_key(text)
            if key not in texts and not db.execute("SELECT 1 FROM records WHERE text_key = ?", (key,)).fetchone():
                texts[key] = text
        if cli:
            db.close()
            lines.write_text("".join(t + "\n" for t in texts.values()), encoding="utf-8")
        if hasattr(os, "sync"):  # the copy's dirty pages must not be written back inside the timing
            os.sync()
        quiet_heap()
        t0 = time.perf_counter()
        if cli:
            done = subprocess.run([sys.executable, str(REPO / "cmc.py"), "add", "--file", str(lines),
                                   "--db", str(copy)], capture_output=True, text=True)
            elapsed = time.perf_counter() - t0
            if done.returncode:
                return None, f"cmc.py add failed: {done.stderr.strip()[-200:]}"
            db = cmc.open_db(copy)
        else:
            try:
                cmc.add_records(db, [(t, "bench:ingest") for t in texts.values()])
                cmc.extract_pending(db, None)
            except cmc.CmcError as e:
                return None, f"pending: extract_pending(db, None) needed a model ({e})"
            elapsed = time.perf_counter() - t0
        by_rule = db.execute("SELECT count(*) FROM records WHERE serial > (SELECT max(serial) FROM records) - ? "
                             "AND status = 'facts' AND extracted_by LIKE 'rule:%'", (count,)).fetchone()[0]
        db.close()
        if by_rule != count:
            return None, f"only {by_rule} of {count} records were extracted by rules"
        return count / elapsed, "ok"
    finally:
        for suffix in ("", "-wal", "-shm"):
            Path(str(copy) + suffix).unlink(missing_ok=True)
        lines.unlink(missing_ok=True)


def startup_ms(db_path: Path, runs: int) -> float:
    """Median wall time of `python cmc.py info --db X` (one process per run)."""
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, str(REPO / "cmc.py"), "info", "--db", str(db_path)],
                       check=True, stdout=subprocess.DEVNULL)
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def ask_cold(db_path: Path, questions: list[str]) -> list[float]:
    """Seconds for `python cmc.py ask Q --db X --json` with the embedded model, one process each."""
    times = []
    for q in questions:
        t0 = time.perf_counter()
        subprocess.run([sys.executable, str(REPO / "cmc.py"), "ask", q, "--db", str(db_path), "--json"],
                       check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - t0)
    return times


# The queries a read (and an add) runs: each must reach its rows through an index.
HOT_QUERIES = ("MAX_ANCHOR_WORDS", "ANCHOR_CANDIDATES", "OBJECT_ANCHORS", "TRAVERSE", "INCOMING",
               "RECORD_SEARCH", "RECORDS_IN", "NEWEST_SERIAL", "NEWEST_RECORDS",
               "REPLACE_SEARCH", "UPSERT_EDGE", "CACHED", "PENDING")
_PLAN_PARAMS = {"anchors": '["x"]', "spans": '["x"]', "serials": "[1]", "max_hops": cmc.MAX_HOPS,
                "upto": 2 ** 63 - 1, "text_key": "x", "serial": 1, "query": '"x"', "cap": 8,
                "limit": 64, "first": 1, "last": 9}


def query_plans(db: sqlite3.Connection) -> dict[str, list[str]]:
    """EXPLAIN QUERY PLAN detail lines of each hot query that cmc defines."""
    plans = {}
    for name in HOT_QUERIES:
        if hasattr(cmc, name):
            sql = getattr(cmc, name).replace("{edges}", "current_edges")  # RECORDS_IN reads now
            params = {p: _PLAN_PARAMS.get(p, "x") for p in re.findall(r"(?<!:):(\w+)", sql)}
            plans[name] = [r[3] for r in db.execute("EXPLAIN QUERY PLAN " + sql, params)]
    return plans


def full_scans(plans: dict[str, list[str]], tables=("current_edges", "assertions", "entities")) -> list[str]:
    """'QUERY: plan line' for every plan step that reads a graph table without an index: a SCAN,
    or a bare SEARCH (what SQLite prints for max() over a column no index holds)."""
    aliases = {"e": "current_edges", "a": "assertions"}  # as the queries name them
    bad = []
    for name, lines in plans.items():
        for line in lines:
            m = re.match(r"(SCAN|SEARCH) (\w+)(.*)", line)
            if (m and (m.group(2) in tables or aliases.get(m.group(2)) in tables)
                    and (m.group(1) == "SCAN" or " USING " not in m.group(3) + " ")):
                bad.append(f"{name}: {line}")
    return bad


def measure(db_path: Path, db: sqlite3.Connection, questions: list[tuple[str, str]],
            synth: Synthetic | None, generated: int, ingest: int, build_s: float,
            ingest_runs: int = 1) -> dict:
    records = db.execute("SELECT count(*) FROM records").fetchone()[0]
    asked = list(questions)
    if synth and synth.subjects:
        while len(asked) < len(questions) + generated:
            q = synth.question()
            if q:
                asked.append((q[0], q[1]))
    times, cpu, results = read_latency(db, [q for q, _ in asked])
    found = sum(gold.casefold() in read.text.casefold() for (_, gold), read in zip(asked, results))
    sizes = [len(read.text) for read in results]
    db.close()
    rates, note = [], "skipped"
    for _ in range(ingest_runs if ingest else 0):  # each run on a fresh copy: disk time varies run to run
        rate, note = ingest_rate(db_path, ingest)
        if rate is None:
            rates = []
            break
        rates.append(rate)
    rate = statistics.median(rates) if rates else None
    cli_rate, cli_note = ingest_rate(db_path, ingest, cli=True) if ingest and rates else (None, "skipped")
    db_bytes = sum(Path(str(db_path) + s).stat().st_size for s in ("", "-wal") if Path(str(db_path) + s).exists())
    return {"records": records, "p50_ms": round(statistics.median(times), 3),
            "p95_ms": round(percentile(times, 0.95), 3), "max_ms": round(max(times), 3),
            "ingest_records_per_s": round(rate, 1) if rate else None, "ingest_note": note,
            "ingest_runs": [round(r, 1) for r in rates],
            "cli_ingest_records_per_s": round(cli_rate, 1) if cli_rate else None, "cli_ingest_note": cli_note,
            "cpu_p50_ms": round(statistics.median(cpu), 3), "cpu_p95_ms": round(percentile(cpu, 0.95), 3),
            "questions": len(asked), "gold_in_evidence": found,
            "evidence_chars_p50": int(statistics.median(sizes)), "db_bytes": db_bytes,
            "build_s": round(build_s, 1)}


def run(data: Path | None, target: int, db_dir: Path, generated: int = 1000, ingest: int = 10_000,
        seed: int = 7, ddl: str = "", log=print, ingest_runs: int = 1) -> list[dict]:
    """Build the history (and grow it to `target` records), measuring at each size. `ddl` is run
    on the new database first (e.g. an index proposed for schema.sql)."""
    db_path = db_dir / "bench.db"
    for suffix in ("", "-wal", "-shm"):
        Path(str(db_path) + suffix).unlink(missing_ok=True)
    db = cmc.open_db(db_path)
    if ddl:
        db.executescript(ddl)
    synth = Synthetic(seed)
    results, questions, t0 = [], [], time.perf_counter()
    if data:
        lines, questions = load_history(data)
        store(db, [(l, triple_of(l)) for l in lines], "bench:fc262k")
        results.append(measure(db_path, db, questions, None, 0, ingest, time.perf_counter() - t0, ingest_runs))
        log(_row(results[-1]))
        db = cmc.open_db(db_path)
    have = db.execute("SELECT count(*) FROM records").fetchone()[0]
    if target > have:
        t1 = time.perf_counter()
        add_synthetic(db, synth, target - have)
        build = time.perf_counter() - t1 + (results[-1]["build_s"] if results else 0)
        results.append(measure(db_path, db, questions, synth, generated, ingest, build, ingest_runs))
        log(_row(results[-1]))
    else:
        db.close()
    return results


def _row(r: dict) -> str:
    ingest = f"{r['ingest_records_per_s']:.0f}/s" if r["ingest_records_per_s"] else r["ingest_note"]
    if len(r["ingest_runs"]) > 1:
        ingest += " (median of " + ", ".join(f"{x:.0f}" for x in r["ingest_runs"]) + ")"
    if r.get("cli_ingest_records_per_s"):
        ingest += f"; `cmc.py add --file` {r['cli_ingest_records_per_s']:.0f}/s"
    return (f"{r['records']:>9,} records  read p50 {r['p50_ms']:.2f} ms  p95 {r['p95_ms']:.2f} ms  "
            f"max {r['max_ms']:.2f} ms  (CPU p50 {r['cpu_p50_ms']:.2f} ms  p95 {r['cpu_p95_ms']:.2f} ms; "
            f"{r['questions']} questions, gold in evidence "
            f"{r['gold_in_evidence']}/{r['questions']})  db {r['db_bytes'] / 1e6:.0f} MB  "
            f"build {r['build_s']:.0f} s  ingest {ingest}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=str(DEFAULT_DATA),
                    help="Conflict_Resolution.json of MemoryAgentBench ('none': synthetic only)")
    ap.add_argument("--records", type=int, default=0, help="grow the history to N records with synthetic ones")
    ap.add_argument("--json", help="write one {records, p50_ms, p95_ms, max_ms, ingest_records_per_s} per size")
    ap.add_argument("--keep-db", help="build the databases in this folder and keep them")
    ap.add_argument("--generated", type=int, default=1000, help="generated questions at synthetic sizes")
    ap.add_argument("--ingest", type=int, default=10_000, help="records per ingest measurement (0: skip)")
    ap.add_argument("--ingest-runs", type=int, default=1,
                    help="repeat the ingest measurement on fresh copies; the median is reported, every run listed")
    ap.add_argument("--startup-runs", type=int, default=0, help="also time `cmc.py info` this many times")
    ap.add_argument("--ddl", default="", help="SQL run on each new bench database first (e.g. a proposed index)")
    ap.add_argument("--ask", type=int, default=0,
                    help="also time this many cold `cmc.py ask` runs (embedded model) on the history")
    args = ap.parse_args()
    data = None if args.data == "none" else Path(args.data)
    if data and not data.is_file():
        sys.exit(f"No FactConsolidation file at {data}. Pass --data PATH, or --data none.")
    if not data and (not args.records or args.ask or args.startup_runs):
        sys.exit("With --data none, give --records N (--ask and --startup-runs need the history).")
    print(f"cmc read bench: {os.cpu_count()} cores, SQLite {sqlite3.sqlite_version}, "
          f"{time.strftime('%Y-%m-%d')}", flush=True)
    with tempfile.TemporaryDirectory(prefix="cmc-bench-") as tmp:
        db_dir = Path(args.keep_db or tmp)
        db_dir.mkdir(parents=True, exist_ok=True)
        if args.ask or args.startup_runs:  # on the 262K history, before it grows
            history = run(data, 0, db_dir, ingest=0, ddl=args.ddl, log=lambda s: None)
            if args.startup_runs:
                print(f"cmc.py info startup: median {startup_ms(db_dir / 'bench.db', args.startup_runs):.0f} ms"
                      f" over {args.startup_runs} runs ({history[-1]['records']:,} records)", flush=True)
            if args.ask:
                _, questions = load_history(data) if data else ([], [])
                asks = ask_cold(db_dir / "bench.db", [q for q, _ in questions[:args.ask]])
                print(f"cmc.py ask, cold, embedded model: median {statistics.median(asks):.2f} s, "
                      f"max {max(asks):.2f} s over {len(asks)} questions", flush=True)
        results = run(data, args.records, db_dir, args.generated, args.ingest, ddl=args.ddl,
                      ingest_runs=args.ingest_runs)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
