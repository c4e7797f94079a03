from conftest import meeting_history, put

import cmc


def test_supporting_and_unresolved_records_in_source_order_deduped(db):
    meeting_history(db)
    put(db, "He said it moved again.", status="unresolved")
    edges = cmc.traverse(db, ["weekly meeting"])
    ev = cmc.render(db, edges)
    assert [s for s, _ in ev.records] == [3, 5, 6]
    # the reader sees them numbered 1..n in source order (a larger number is still newer)
    assert ev.text == ("Memory records (a larger number is newer):\n[1] Room B is on floor 5.\n"
                       "[2] The weekly meeting is in Room B.\n[3] He said it moved again.\n")
    assert not ev.fallback and not ev.truncated


def test_overflow_keeps_the_newest_contiguous_whole_records(db):
    for i in range(1, 11):
        put(db, f"Item{i} weighs {'x' * 50} kilo.", (f"Item{i}", "weighs", "kilo"))
    edges = [cmc.Edge(f"item{i}", "weighs", "kilo", i, 0) for i in range(1, 11)]
    line = len(cmc._line(1, "Item1 weighs " + "x" * 50 + " kilo."))
    budget = len(cmc.EVIDENCE_PREFIX) + 3 * line + 5
    ev = cmc.render(db, edges, budget=budget)
    assert [s for s, _ in ev.records] == [8, 9, 10]
    assert ev.truncated and len(ev.text) <= budget


def test_budget_includes_the_prefix(db):
    put(db, "Ana lives in Lyon.", ("Ana", "lives_in", "Lyon"))
    edges = cmc.traverse(db, ["ana"])
    exact = len(cmc.EVIDENCE_PREFIX) + len(cmc._line(1, "Ana lives in Lyon."))
    assert [s for s, _ in cmc.render(db, edges, budget=exact).records] == [1]
    assert cmc.render(db, edges, budget=exact - 1).records == []


def test_empty_selection_falls_back_to_history_under_the_same_budget(db):
    meeting_history(db)
    ev = cmc.render(db, [])
    assert ev.fallback and [s for s, _ in ev.records] == [1, 2, 3, 4, 5]
    line5 = len(cmc._line(5, "The weekly meeting is in Room B."))
    small = cmc.render(db, [], budget=len(cmc.EVIDENCE_PREFIX) + line5)
    assert [s for s, _ in small.records] == [5] and small.truncated
