"""Build lexicon/wordnet.tsv, the thesaurus cmc's answer ranking reads, from WordNet 3.0.

    apt-get install wordnet-base      # Debian's copy of the WordNet 3.0 database
    python lexicon/build.py [/usr/share/wordnet]

One line per WordNet lemma (lowercase, words joined by "_"), sorted by byte value so cmc can
look a word up by binary search without loading the file:

    lemma <TAB> synonyms <TAB> derived words <TAB> base forms <TAB> definitions <TAB> noun kinds

The synonyms of a lemma are the words of the lemmas of its first SENSES senses in each part of
speech ("spouse": partner, married, person, mate, ...); its derived words those of the lemmas
those senses are derivationally related to ("manager" for "manage", "founder" for "found"). Base forms are given for an inflected form WordNet lists as
an exception ("went": go). The definitions are those senses' glosses without their examples,
lowercase, without articles, separated by " | " ("capital": "... | seat of government | ...").
The noun kinds are the lexicographer files of its first SENSES noun senses ("birthplace":
location location; "director": person person person).
"""
import re
import sys
from pathlib import Path

SENSES = 3
PARTS = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
ARTICLES = {"a", "an", "the"}
# WordNet's lexicographer files of nouns (lexnames(5)), by number
NOUN_FILES = {3: "Tops", 4: "act", 5: "animal", 6: "artifact", 7: "attribute", 8: "body", 9: "cognition",
              10: "communication", 11: "event", 12: "feeling", 13: "food", 14: "group", 15: "location",
              16: "motive", 17: "object", 18: "person", 19: "phenomenon", 20: "plant", 21: "possession",
              22: "process", 23: "quantity", 24: "relation", 25: "shape", 26: "state", 27: "substance",
              28: "time"}
STOP = set("""a an the of in on at to for from by with and or as is are be being been was were that which
who whom whose this these those it its one ones""".split())
LEMMA = re.compile(r"^[a-z][a-z0-9_'.-]*$")


def words(lemma: str) -> list[str]:
    return [w for w in re.findall(r"[a-z]+", lemma.lower()) if len(w) >= 3 and w not in STOP]


def read_synsets(root: Path) -> dict:
    synsets = {}
    for pos, name in PARTS.items():
        for line in open(root / f"data.{name}", encoding="latin-1"):
            if line.startswith("  "):  # the license header
                continue
            fields = line.partition(" | ")[0].split()
            n = int(fields[3], 16)
            lemmas = [re.sub(r"\(.*\)$", "", fields[4 + 2 * i].lower()) for i in range(n)]
            k = 4 + 2 * n
            pointers = []
            for _ in range(int(fields[k])):
                symbol, offset, tpos, source_target = fields[k + 1:k + 5]
                k += 4
                if symbol == "+":  # derivationally related form, word to word
                    pointers.append(("a" if tpos == "s" else tpos, offset, int(source_target[2:], 16)))
            gloss = re.split(r';\s*"|^"', line.partition(" | ")[2].strip())[0].split(";")[0]
            definition = " ".join(w for w in re.findall(r"[a-z0-9]+(?:['-][a-z0-9]+)*", gloss.lower()) if w not in ARTICLES)
            synsets[pos, fields[0]] = (lemmas, pointers, definition, NOUN_FILES.get(int(fields[1])) if pos == "n" else None)
    return synsets


def read_index(root: Path) -> dict:
    senses = {}
    for pos, name in PARTS.items():
        for line in open(root / f"index.{name}", encoding="latin-1"):
            if line.startswith("  "):
                continue
            fields = line.split()
            count = int(fields[2])
            senses.setdefault(fields[0], []).extend((pos, o) for o in fields[-count:][:SENSES])
    return senses


def read_exceptions(root: Path) -> dict:
    bases = {}
    for name in PARTS.values():
        for line in open(root / f"{name}.exc", encoding="latin-1"):
            form, *rest = line.split()
            bases.setdefault(form, [])
            bases[form] += [b for b in rest if b not in bases[form]]
    return bases


def main() -> None:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else "/usr/share/wordnet")
    synsets, senses, bases = read_synsets(root), read_index(root), read_exceptions(root)
    lines = {}
    for lemma, found in senses.items():
        synonyms, derived, definitions, kinds = set(), set(), [], []
        for key in found:
            lemmas, pointers, definition, kind = synsets[key]
            if kind:
                kinds.append(kind)
            if definition and definition not in definitions:
                definitions.append(definition)
            for other in lemmas:
                synonyms.update(words(other))
            for tpos, offset, word in pointers:
                target = synsets.get((tpos, offset))
                if target and 0 < word <= len(target[0]):
                    derived.update(words(target[0][word - 1]))
        lines[lemma] = [" ".join(sorted(synonyms)), " ".join(sorted(derived - synonyms)), "", " | ".join(definitions),
                        " ".join(kinds)]
    for form, base in bases.items():
        base = [b for b in base if b in senses and b != form]
        if base:
            lines.setdefault(form, ["", "", "", "", ""])[2] = " ".join(base)
    out = Path(__file__).resolve().parent / "wordnet.tsv"
    kept = [(k, v) for k, v in lines.items() if LEMMA.match(k) and any(v)]
    with open(out, "w", encoding="ascii", errors="ignore", newline="\n") as f:
        for key, fields in sorted(kept, key=lambda kv: kv[0].encode()):
            f.write("\t".join([key, *fields]) + "\n")
    print(f"{len(kept)} lemmas -> {out}")


if __name__ == "__main__":
    main()
