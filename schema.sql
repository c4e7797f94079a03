-- cmc: the whole current schema. open_db() runs this file inside one transaction on a
-- new database; older files are upgraded by the step functions in cmc.py (MIGRATIONS).

-- Small key/value facts about this memory: extraction counters, the model last used.
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- Every record the user added, in order. serial is the record's position: it never changes
-- and a larger serial is newer. A record is stored before it is extracted (status 'pending'),
-- so a failed or interrupted extraction never loses it.
CREATE TABLE records (
    serial   INTEGER PRIMARY KEY,
    text     TEXT NOT NULL CHECK (length(trim(text)) > 0),
    text_key TEXT NOT NULL,                      -- normalised text: the extraction cache key
    added_at TEXT NOT NULL,
    source   TEXT NOT NULL DEFAULT '',           -- 'cli', 'stdin', 'file:PATH:LINE'
    status   TEXT NOT NULL DEFAULT 'pending'
             CHECK (status IN ('pending', 'facts', 'unresolved', 'no_fact')),
    reason   TEXT NOT NULL DEFAULT '',           -- why a record is unresolved
    extracted_by TEXT NOT NULL DEFAULT '',       -- 'model', 'rule:ID', 'cache:SERIAL', 'review'
    time     TEXT NOT NULL DEFAULT ''            -- when the record speaks of (ISO 8601): add --time,
                                                 -- a leading date in its text, else added_at
);
CREATE INDEX records_by_status ON records (status, serial);
CREATE INDEX records_by_text_key ON records (text_key, serial);
CREATE INDEX records_by_source ON records (source);

-- Full-text index over record text: the original-window read (BM25: FTS5's bm25(), k1 = 1.2,
-- b = 0.75, the paper's values; Porter stemming lets "moved" meet "move"), forget --match. External
-- content: the rows live in records. add_records indexes each record it inserts with its own
-- statement, not with an AFTER INSERT trigger: a write to FTS5 from a trigger opens a savepoint,
-- and FTS5 flushes its pending terms at every savepoint, so each record cost a new segment and
-- its merging (0.45 of the 2.4 s of 10,000 rule-handled adds at 1M records; docs/results.md).
CREATE VIRTUAL TABLE records_fts USING fts5 (
    text, content = 'records', content_rowid = 'serial', tokenize = 'porter unicode61'
);
CREATE TRIGGER records_ad AFTER DELETE ON records BEGIN
    INSERT INTO records_fts (records_fts, rowid, text) VALUES ('delete', old.serial, old.text);
END;
CREATE TRIGGER records_au AFTER UPDATE OF text ON records BEGIN
    INSERT INTO records_fts (records_fts, rowid, text) VALUES ('delete', old.serial, old.text);
    INSERT INTO records_fts (rowid, text) VALUES (new.serial, new.text);
END;

-- Which earlier record a record replaces, as the model judged when the newer record was added
-- (judge_replacement). Stored with the newer record and never changed: forgetting either
-- record drops the link, so the older one is read again.
CREATE TABLE replaced (
    serial          INTEGER NOT NULL REFERENCES records (serial) ON DELETE CASCADE,  -- the newer
    replaced_serial INTEGER NOT NULL REFERENCES records (serial) ON DELETE CASCADE,
    PRIMARY KEY (replaced_serial, serial)
) WITHOUT ROWID;
CREATE INDEX replaced_by_serial ON replaced (serial);

-- The relation catalogue: one row per relation key that edges use.
CREATE TABLE relations (
    key        TEXT PRIMARY KEY,                 -- snake_case, e.g. 'citizen_of'
    first_seen INTEGER NOT NULL                  -- serial of the record that introduced it
);

-- Alignment: every relation name the extractor produced, mapped onto a catalogue key.
CREATE TABLE relation_aliases (
    alias    TEXT PRIMARY KEY,                   -- normalised name as extracted
    relation TEXT NOT NULL REFERENCES relations (key),
    how      TEXT NOT NULL DEFAULT 'normalised'  -- 'normalised' | 'model' | 'user'
);

-- One row per extracted triple. History: nothing here is overwritten by a newer value.
CREATE TABLE assertions (
    id          INTEGER PRIMARY KEY,
    serial      INTEGER NOT NULL REFERENCES records (serial) ON DELETE CASCADE,
    subject     TEXT NOT NULL,                   -- literal span of the record
    subject_key TEXT NOT NULL,
    relation    TEXT NOT NULL REFERENCES relations (key),
    relation_text TEXT NOT NULL,                 -- the name the extractor gave
    object      TEXT NOT NULL,                   -- literal span of the record
    object_key  TEXT NOT NULL
);
CREATE INDEX assertions_by_key ON assertions (subject_key, relation, serial);
CREATE INDEX assertions_by_serial ON assertions (serial);

-- The current graph: for each (subject, relation) the assertion with the largest serial.
-- Maintained incrementally on add; rebuild() replays assertions to recompute it.
CREATE TABLE current_edges (
    subject_key  TEXT NOT NULL,
    relation     TEXT NOT NULL,
    object_key   TEXT NOT NULL,
    serial       INTEGER NOT NULL,
    assertion_id INTEGER NOT NULL,
    PRIMARY KEY (subject_key, relation)
) WITHOUT ROWID;
-- What points at a name: a question may name the value of a fact ("Who employs Dave?"), and
-- a walk reads a value's newest fact per relation backwards ("Narendra Modi directs the BBC").
CREATE INDEX current_edges_by_value ON current_edges (object_key, serial);

-- Facts kept the other way round, derived from assertions (rebuild recomputes them). A fact
-- said by the one verb between two proper names ("Mira Holt performed Blue Hour.") or a
-- person's role said with a copula ("Ann is the parent of Bo.") is also kept keyed on its other
-- name: Blue Hour performed_by Mira Holt; Ann parent_of Bo. English does not say which of the
-- two names has one value at a time (a song has one performer, a person supports one team), so
-- each reading keeps its own versions: per (subject_key, relation) the newest is current.
-- `cmc facts` and `cmc history` list them, and a walk reads such a fact backwards though its
-- record names the value first (BACKWARDS_HOP); no catalogue relation is made for them.
CREATE TABLE other_way (
    assertion_id INTEGER PRIMARY KEY REFERENCES assertions (id) ON DELETE CASCADE,
    serial       INTEGER NOT NULL,
    subject      TEXT NOT NULL,                  -- the assertion's object, a literal span
    subject_key  TEXT NOT NULL,
    relation     TEXT NOT NULL,                  -- after the record's verb or role: 'performed_by'
    object       TEXT NOT NULL,
    object_key   TEXT NOT NULL
);
CREATE INDEX other_way_by_key ON other_way (subject_key, relation, serial);

-- Subjects the question may name. span is the key with '_' for spaces, so each subject is one
-- FTS5 token and an anchor lookup is an exact whole-span match. add_entity indexes the span
-- itself (no insert trigger, as for records_fts).
CREATE TABLE entities (
    id   INTEGER PRIMARY KEY,
    key  TEXT NOT NULL UNIQUE,
    span TEXT NOT NULL,
    name TEXT NOT NULL,                          -- the first surface form seen
    words INTEGER NOT NULL
);
CREATE INDEX entities_by_words ON entities (words);  -- max(words) bounds the question's spans
CREATE VIRTUAL TABLE entities_fts USING fts5 (
    span, content = 'entities', content_rowid = 'id',
    tokenize = "unicode61 remove_diacritics 0 tokenchars '_'"
);
-- Each write leaves FTS5 a new segment, and an anchor lookup probes every segment: merge two
-- segments of a level as soon as there are two (compact_anchor_index asks for it after each add).
INSERT INTO entities_fts (entities_fts, rank) VALUES ('usermerge', 2);
CREATE TRIGGER entities_ad AFTER DELETE ON entities BEGIN
    INSERT INTO entities_fts (entities_fts, rowid, span) VALUES ('delete', old.id, old.span);
END;

-- Induced rules (the paper's hybrid frontend): a literal sentence form around the subject and
-- object spans of validated model extractions, e.g. '<S> is a citizen of <O>.' -> citizen_of.
-- A rule is 'active' (applied before the model is called) once >= 2 records with different
-- subjects agree on it and none disagrees; a disagreement makes it 'conflict' for good.
CREATE TABLE rules (
    id       INTEGER PRIMARY KEY,
    pattern  TEXT NOT NULL UNIQUE,
    relation TEXT NOT NULL,
    status   TEXT NOT NULL DEFAULT 'candidate' CHECK (status IN ('candidate', 'active', 'conflict')),
    created_at INTEGER NOT NULL                  -- serial of the first supporting record
);
-- Provenance: which records induced (agree = 1) or contradicted (agree = 0) each rule.
CREATE TABLE rule_evidence (
    rule_id INTEGER NOT NULL REFERENCES rules (id) ON DELETE CASCADE,
    serial  INTEGER NOT NULL REFERENCES records (serial) ON DELETE CASCADE,
    agree   INTEGER NOT NULL,
    subject_key TEXT NOT NULL,
    PRIMARY KEY (rule_id, serial)
) WITHOUT ROWID;
CREATE INDEX rule_evidence_by_serial ON rule_evidence (serial);

-- Tombstones of forgotten records (cmc forget). The record row, its assertions, its rule
-- evidence and its words in records_fts are deleted; only the serial and the time remain, so
-- the serial is never handed out again (add_records numbers past the largest of both tables).
CREATE TABLE forgotten (
    serial       INTEGER PRIMARY KEY,
    forgotten_at TEXT NOT NULL
);

PRAGMA user_version = 10;
