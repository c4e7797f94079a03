from conftest import put

import cmc


def chain(db, n, start=0):
    """E{start} -next-> E{start+1} -> ... , one record per edge."""
    for i in range(start, start + n):
        put(db, f"E{i} leads to E{i + 1}.", (f"E{i}", "next", f"E{i + 1}"))


def hops(edges):
    return [(e.subject, e.object, e.depth) for e in edges]


def test_five_hop_cap(db):
    chain(db, 8)
    edges = cmc.traverse(db, ["e0"])
    assert hops(edges) == [(f"e{i}", f"e{i + 1}", i) for i in range(5)]
    assert [e.depth for e in cmc.traverse(db, ["e0"], max_hops=2)] == [0, 1]


def test_cycle_terminates_and_each_edge_once_at_shortest_depth(db):
    put(db, "A likes B.", ("A", "likes", "B"))
    put(db, "B likes C.", ("B", "likes", "C"))
    put(db, "C likes A.", ("C", "likes", "A"))
    edges = cmc.traverse(db, ["a"])
    assert hops(edges) == [("a", "b", 0), ("b", "c", 1), ("c", "a", 2)]


def test_branching_follows_every_current_edge(db):
    put(db, "Ana works at Initech.", ("Ana", "employer", "Initech"))
    put(db, "Ana lives in Lyon.", ("Ana", "lives_in", "Lyon"))
    put(db, "Initech is based in Porto.", ("Initech", "based_in", "Porto"))
    put(db, "Lyon is in France.", ("Lyon", "country", "France"))
    got = {(e.subject, e.relation, e.object, e.depth) for e in cmc.traverse(db, ["ana"])}
    assert got == {("ana", "employer", "initech", 0), ("ana", "lives_in", "lyon", 0),
                   ("initech", "based_in", "porto", 1), ("lyon", "country", "france", 1)}


def test_overwrite_redirects_the_next_hop(db):
    put(db, "Ana works at Globex.", ("Ana", "employer", "Globex"))
    put(db, "Globex is based in Lyon.", ("Globex", "based_in", "Lyon"))
    put(db, "Initech is based in Porto.", ("Initech", "based_in", "Porto"))
    assert [e.object for e in cmc.traverse(db, ["ana"])] == ["globex", "lyon"]
    put(db, "Ana works at Initech.", ("Ana", "employer", "Initech"))
    assert [e.object for e in cmc.traverse(db, ["ana"])] == ["initech", "porto"]


def test_shortest_depth_when_two_anchors_reach_one_subject(db):
    chain(db, 3)
    edges = cmc.traverse(db, ["e0", "e2"])
    assert {(e.subject, e.depth) for e in edges} == {("e0", 0), ("e1", 1), ("e2", 0)}


def test_no_anchor_no_edges(db):
    chain(db, 2)
    assert cmc.traverse(db, []) == []


def test_a_fact_whose_value_the_question_names_is_read_backwards_then_forwards(db):
    put(db, "Brightmere employs Ivo Marsh.", ("Brightmere", "employs", "Ivo Marsh"))
    put(db, "Nora Quill is the president of Brightmere.", ("Brightmere", "president", "Nora Quill"))
    put(db, "Calloway employs Ivo Marsh.", ("Calloway", "employs", "Ivo Marsh"))
    edges = cmc.traverse(db, [], objects=["ivo marsh"])
    first = [(e.subject, e.object, e.depth, e.reverse) for e in edges if e.depth == 0]
    assert first == [("ivo marsh", "calloway", 0, True), ("ivo marsh", "brightmere", 0, True)]  # newest first
    assert ("brightmere", "president", "nora quill", 1) in [(e.subject, e.relation, e.object, e.depth) for e in edges]
    assert [e.serial for e in edges].count(1) == 1, "the fact read backwards is not read forwards again"
    read = cmc.recall(db, "Who employs Ivo Marsh?")
    assert read.anchors == ["ivo marsh"] and {1, 2, 3} <= {e["serial"] for e in read.evidence}
    read = cmc.recall(db, "Who employs Ivo Marsh?", as_of=1)
    assert [(e.subject, e.object, e.reverse) for e in read.edges] == [("ivo marsh", "brightmere", True)]


def test_a_named_subjects_newest_facts_as_value_are_read_backwards_one_hop(db):
    put(db, "The chairperson of Harbour Club is Ana.", ("Harbour Club", "chairperson", "Ana"))
    put(db, "Ben chairs Harbour Club.", ("Ben", "chairs", "Harbour Club"))
    put(db, "Ben lives in Porto.", ("Ben", "lives_in", "Porto"))
    for i in range(4):
        put(db, f"Member{i} joined Harbour Club.", (f"Member{i}", "joined", "Harbour Club"))
    edges = cmc.traverse(db, ["harbour club"])
    backwards = [(e.subject, e.object, e.depth) for e in edges if e.reverse]
    # the newest NAMED_INCOMING_CAP (3) facts naming the club as their value, one hop each
    assert backwards == [("harbour club", "member3", 0), ("harbour club", "member2", 0),
                         ("harbour club", "member1", 0)]
    assert ("harbour club", "ana", 0) in hops(edges)
    assert not any(e.subject == "ben" for e in edges), "the walk does not go on from their subjects"
    put(db, "Cleo chairs Harbour Club.", ("Cleo", "chairs", "Harbour Club"))
    assert ("harbour club", "cleo", 0) in [(e.subject, e.object, e.depth) for e in cmc.traverse(db, ["harbour club"])]


def test_a_value_the_walk_reaches_reads_its_newest_fact_per_relation_backwards(db):
    put(db, "The Lantern Years first aired on KBN.", ("The Lantern Years", "aired_on", "KBN"))
    put(db, "Rita Vance directs KBN.", ("Rita Vance", "directs", "KBN"))
    put(db, "Oskar Veldt directs KBN.", ("Oskar Veldt", "directs", "KBN"))
    put(db, "Oskar Veldt holds citizenship of Ossary Empire.", ("Oskar Veldt", "citizen_of", "Ossary Empire"))
    got = [(e.subject, e.relation, e.object, e.depth, e.reverse) for e in cmc.traverse(db, ["lantern years"])]
    # worded value first, KBN's director is a fact about KBN: its newest one only, and the walk
    # goes on from its subject
    assert got == [("lantern years", "aired_on", "kbn", 0, False), ("kbn", "directs", "oskar veldt", 1, True),
                   ("oskar veldt", "citizen_of", "ossary empire", 2, False)]
    # the question's own names read their facts-as-value once (NAMED_INCOMING_CAP), not as a walk
    assert not any(e.object == "ossary empire" for e in cmc.traverse(db, ["kbn"]))
    assert [(e.subject, e.object, e.depth) for e in cmc.traverse(db, ["lantern years"], as_of=2)][1] == \
        ("kbn", "rita vance", 1)


def test_a_fact_written_value_first_is_not_read_backwards_again(db):
    put(db, "Ana lives in Rome.", ("Ana", "lives_in", "Rome"))
    # the extractor turned this round: it already reads the way its meaning goes
    put(db, "Rome is the capital of Italy.", ("Italy", "capital", "Rome"))
    put(db, "Bo works in Rome.", ("Bo", "works_in", "Rome"))
    assert [(e.subject, e.object, e.reverse) for e in cmc.traverse(db, ["ana"])] == [
        ("ana", "rome", False), ("rome", "bo", True)]


def test_a_fact_kept_the_other_way_round_is_read_backwards_though_written_value_first(db):
    put(db, "Acme was founded by Ann Kay.", ("Acme", "founder", "Ann Kay"))
    # Bo's parent, as written; and Ann's parent_of (other_way), so a walk that reaches Ann reaches Bo
    put(db, "Ann Kay is the parent of Bo Kay.", ("Bo Kay", "parent", "Ann Kay"))
    put(db, "Bo Kay lives in Lyon.", ("Bo Kay", "lives_in", "Lyon"))
    assert [(e.subject, e.object, e.depth, e.reverse) for e in cmc.traverse(db, ["acme"])] == [
        ("acme", "ann kay", 0, False), ("ann kay", "bo kay", 1, True), ("bo kay", "lyon", 2, False)]


def test_only_a_values_newest_facts_are_read_backwards(db):
    put(db, "Tony directs Acme.", ("Tony", "directs", "Acme"))
    for i in range(cmc.INCOMING_CAP):
        put(db, f"Worker{i} works at Acme.", (f"Worker{i}", "works_at", "Acme"))
    put(db, "Zed owns Acme.", ("Zed", "owns", "Acme"))
    backwards = [e.object for e in cmc.traverse(db, ["zed"]) if e.reverse]
    # a value like a company or a country is the value of thousands: its director is too old
    assert backwards == [f"worker{cmc.INCOMING_CAP - 1}"]


def test_two_facts_of_one_record_with_the_same_value_are_both_read_backwards(db):
    put(db, "Zed owns Acme.", ("Zed", "owns", "Acme"))
    put(db, "Ana and Bo direct Acme.", ("Ana", "directs", "Acme"), ("Bo", "directs", "Acme"))
    assert sorted(e.object for e in cmc.traverse(db, ["zed"]) if e.reverse) == ["ana", "bo"]
