"""The answer stage: one model call over the read's evidence, free text, 'not in memory' when the
evidence holds nothing."""
from conftest import FakeModel, meeting_history

import cmc

FLOOR_Q = "On which floor is the weekly meeting?"


def test_ask_makes_one_call_with_the_evidence_and_the_question(db):
    meeting_history(db)
    model = FakeModel([" floor 5\n"])
    result = cmc.ask(db, model, FLOOR_Q)
    assert result.answer == "floor 5" and len(model.prompts) == 1
    prompt = model.prompts[0]
    read = cmc.recall(db, FLOOR_Q)
    assert prompt.endswith(read.text + f"Question: {FLOOR_Q}\nAnswer:")
    assert "larger record number is newer" in prompt
    assert [e["serial"] for e in result.evidence] == [e["serial"] for e in read.evidence]
    assert result.anchors == ["weekly meeting"]
    assert [(e["relation"], e["object"]) for e in result.edges] == [("held_in", "room b"), ("floor", "floor 5")]


def test_an_empty_memory_is_not_in_memory_without_a_call(db):
    model = FakeModel([])
    result = cmc.ask(db, model, "What is my locker code?")
    assert result.answer == cmc.NOT_IN_MEMORY and model.prompts == [] and result.evidence == []


def test_an_empty_reply_is_not_in_memory(db):
    meeting_history(db)
    assert cmc.ask(db, FakeModel(["\n"]), "Please bring what?").answer == cmc.NOT_IN_MEMORY


def test_the_answer_is_the_first_line_without_a_full_stop():
    assert cmc.clean_answer(" Room B.\nQuestion: x") == "Room B"
    assert cmc.clean_answer("   ") == cmc.NOT_IN_MEMORY


def test_the_answer_prompt_renders_with_what_ask_passes(db):
    meeting_history(db)
    prompt = cmc.answer_prompt(cmc.recall(db, FLOOR_Q))
    assert "$" not in prompt and prompt.endswith("Answer:")
    assert cmc.NOT_IN_MEMORY in prompt  # the reader is told what to say when the records do not say


def example_answers() -> list[str]:
    """The answers of the answer prompt's worked examples."""
    template = cmc.prompt_template("answer.txt").template
    examples = template[:template.index("$evidence")]
    return [line.split(":", 1)[1].strip() for line in examples.splitlines() if line.startswith("Answer:")]


def test_the_prompts_worked_examples_answer_with_values_no_test_memory_holds(db):
    meeting_history(db)
    answers = example_answers()
    assert cmc.NOT_IN_MEMORY in answers and len(answers) >= 3
    said = set(cmc.words_of(cmc.recall(db, FLOOR_Q).text))
    for answer in answers:
        if answer != cmc.NOT_IN_MEMORY:
            assert not set(cmc.words_of(answer)) - {"the"} & said, answer


def test_an_answer_the_evidence_does_not_hold_is_not_in_memory(db):
    meeting_history(db)
    read = cmc.recall(db, "Please bring what?")  # window records only: a free answer
    assert cmc.ask(db, FakeModel([" the quarterly report"]), "Please bring what?").answer == "the quarterly report"
    assert cmc.ask(db, FakeModel([" Tarnside Boatyard"]), "Please bring what?").answer == cmc.NOT_IN_MEMORY
    assert cmc.ask(db, FakeModel([" 1000000000"]), "Please bring what?").answer == cmc.NOT_IN_MEMORY
    assert read.evidence and all(e["why"] == "window" for e in read.evidence)


def test_grounded_needs_most_of_the_answers_words_in_one_record():
    records = ["Pell moved to Fennick Lane in May 2031.", "Pell's sister Ona keeps bees in Tolley."]
    assert cmc.grounded("Fennick Lane", records) and cmc.grounded("moved to Fennick", records)
    assert cmc.grounded("7 May 2031", records)  # a day worked out from the record's own
    assert not cmc.grounded("Quillane Street", records) and not cmc.grounded("Tarnside Boatyard Quay", records)
    stitched = "Fennick Lane, Tolley bees, Quillane"  # most of its words are said, but by no one record
    assert cmc.grounded(stitched, [" ".join(records)]) and not cmc.grounded(stitched, records)


def test_an_answer_that_says_the_question_back_is_not_grounded():
    records = ["Orla: I traded my old bike to Teodor in June.", "Teodor: I take almond milk, never oat."]
    asked = "What did Orla trade to Teodor in June?"
    assert not cmc.grounded("Orla traded to Teodor in June", records, asked)  # nothing added
    assert cmc.grounded("Orla traded to Teodor in June", records)  # the words alone are said
    assert cmc.grounded("her old bike", records, asked)
    assert cmc.grounded("Orla traded her old bike", records, asked)
    assert not cmc.grounded("Orla traded her red kayak", records, asked)  # what it adds is said nowhere
    assert cmc.grounded("almond milk", records, "Does Teodor take oat or almond milk?")  # a pick
    assert cmc.grounded("2 bikes", ["Orla: I own two bikes."], "How many bikes does Orla own?")


def test_the_reader_gets_the_date_a_relative_time_means(db):
    cmc.add_records(db, [("Went to the pottery fair yesterday with Ines.", "chat", "2031-03-09T10:00:00Z")])
    model = FakeModel([" 8 March 2031\n"])
    result = cmc.ask(db, model, "When did I go to the pottery fair?")
    assert "yesterday (8 March 2031) with Ines." in model.prompts[0]
    assert result.answer == "8 March 2031", "a date the evidence gives the reader is grounded in it"
    assert "(8 March 2031)" not in cmc.recall(db, "When did I go to the pottery fair?").text  # recall: as stored


def test_a_time_is_dated_at_its_own_precision_and_only_when_it_says_something():
    told = "2031-03-09T10:00:00Z"
    assert cmc.dated("Orla started at the bakery two weeks ago.", told) == \
        "Orla started at the bakery two weeks ago (the week of 23 February 2031)."
    assert cmc.dated("We plan to visit Tarn next month.", told) == "We plan to visit Tarn next month (April 2031)."
    assert cmc.dated("Paulo sold the boat last year.", told) == "Paulo sold the boat last year (2030)."
    assert cmc.dated("The quiz moved to Friday.", told) == "The quiz moved to Friday."  # past or coming Friday?
    assert cmc.dated("The quiz is today.", told) == "The quiz is today."  # the record's own day
    assert cmc.dated("The quiz is on 4 April 2031.", told) == "The quiz is on 4 April 2031."  # already said
    assert cmc.dated("Went yesterday.", "not a time") == "Went yesterday."
    # a number that reads as a year means the same whenever it was told: no time relative to it
    assert cmc.dated("Pell's number is 0471 228 905, or 0161 555 0198 at work.", told) == \
        "Pell's number is 0471 228 905, or 0161 555 0198 at work."


def test_an_answer_about_a_speaker_comes_from_what_they_said(db):
    """Asked what one speaker did, the other speaker's words do not answer, even when they name
    them; a record no one said in the conversation does when it names them."""
    cmc.add_records(db, [("Ysolde: I baked a plum tart for the fete.", "chat", "2031-03-09T10:00:00Z"),
                         ("Oriel: I went sailing on the estuary.", "chat", "2031-03-09T10:01:00Z"),
                         ("Ysolde: Lovely! I hope the wind was kind.", "chat", "2031-03-09T10:02:00Z"),
                         ("Oriel: It was. Ysolde, save me a slice!", "chat", "2031-03-09T10:03:00Z")])
    assert cmc.ask(db, FakeModel([" a plum tart"]), "What did Ysolde bake for the fete?").answer == "a plum tart"
    assert cmc.ask(db, FakeModel([" a plum tart"]), "What did Oriel bake for the fete?").answer == cmc.NOT_IN_MEMORY
    assert cmc.ask(db, FakeModel([" sailing"]), "What did Oriel do on the estuary?").answer == "sailing"
    assert cmc.ask(db, FakeModel([" a slice"]), "What did Oriel ask Ysolde to save?").answer == "a slice"
    # the day of a speaker's record is theirs too
    assert cmc.ask(db, FakeModel([" 9 March 2031"]), "When did Oriel go sailing?").answer == "9 March 2031"
    cmc.add_records(db, [("Ysolde: Oriel, your jam won first prize at the fete!", "chat", "2031-03-09T10:04:00Z"),
                         ("Oriel's stall at the fete raised forty pounds.", "note", "2031-03-09T11:00:00Z")])
    assert cmc.ask(db, FakeModel([" first prize"]), "What did Oriel's jam win at the fete?").answer == cmc.NOT_IN_MEMORY
    assert cmc.ask(db, FakeModel([" forty pounds"]), "How much did Oriel's stall raise?").answer == "forty pounds"


def test_a_speakers_question_and_an_answer_about_the_other_speaker_do_not_answer(db):
    """Asked about one speaker, what they only asked the other does not answer, nor does an
    answer that says the other speaker did it; a question asked of both speakers still does."""
    cmc.add_records(db, [("[9 March 2031] Ysolde: I made damson jam with the fruit from my tree.", "chat", "2031-03-09T10:00:00Z"),
                         ("[9 March 2031] Oriel: Lovely! Did you pick the damsons yourself?", "chat", "2031-03-09T10:01:00Z"),
                         ("[9 March 2031] Oriel: Ysolde, your jam is the best at the fete.", "chat", "2031-03-09T10:02:00Z"),
                         ("[9 March 2031] Oriel: I brought oat biscuits to the fete.", "chat", "2031-03-09T10:03:00Z")])
    assert cmc.ask(db, FakeModel([" damsons"]), "What did Oriel pick?").answer == cmc.NOT_IN_MEMORY
    assert cmc.ask(db, FakeModel([" Ysolde's damson jam"]), "What did Oriel make for the fete?").answer == \
        cmc.NOT_IN_MEMORY
    assert cmc.ask(db, FakeModel([" oat biscuits"]), "What did Oriel bring to the fete?").answer == "oat biscuits"
    assert cmc.ask(db, FakeModel([" damson jam"]), "What did Ysolde make?").answer == "damson jam"
    assert cmc.ask(db, FakeModel([" Ysolde"]), "Whose jam did Oriel praise, Ysolde's or her own?").answer == "Ysolde"


def test_the_reader_reads_the_ask_budget_by_default_and_a_budget_given_wins(db):
    for n in range(40):
        cmc.add_records(db, [(f"Locker {n} at the Fennick Lane pool holds a towel and goggles.", "test")])
    reader = FakeModel(default=lambda p: "not in memory")
    question = "What is in the lockers at the Fennick Lane pool?"
    answered = cmc.ask(db, reader, question)
    assert len(cmc.recall(db, question, budget=cmc.ASK_BUDGET).evidence) == len(answered.evidence)
    assert len(cmc.ask(db, reader, question, budget=cmc.ASK_BUDGET // 2).evidence) < len(answered.evidence)


def test_the_reader_is_the_one_named_else_the_one_model_else_the_default(monkeypatch):
    monkeypatch.setattr(cmc, "load_model", lambda name: f"loaded {name}")
    given = FakeModel()
    assert cmc.load_reader("gemma", "x.gguf") == "loaded gemma"
    assert cmc.load_reader(None, "x.gguf") == "loaded x.gguf" and cmc.load_reader(None, given) is given
    assert cmc.load_reader(None, None) == f"loaded {cmc.DEFAULT_READER}"

    def not_installed(name):
        if name == cmc.DEFAULT_READER:
            raise cmc.CmcError("not installed")
        return f"loaded {name}"
    monkeypatch.setattr(cmc, "load_model", not_installed)
    assert cmc.load_reader(None, None) == "loaded None"  # the embedded gemma
