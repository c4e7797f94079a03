"""Everyday memory: short hand-written histories where the user changed their mind, read end to end.

    python bench/everyday.py --json bench/results/everyday.json --doc docs/results.md
    python bench/everyday.py --model qwen --json bench/results/everyday_qwen.json --doc docs/results.md
    python bench/everyday.py --one-by-one --json bench/results/everyday_one_by_one.json --doc docs/results.md

Each scenario below is a few records a person might tell an agent, some of them updates worded
the way people word them ("moved to", "is now", "changed to", or the same sentence again), then
questions whose right answer depends on resolving those updates. Every scenario gets a fresh
database; cmc stores, extracts (`cmc.extract_pending`, the model given) and answers (`cmc.ask`)
exactly as `cmc.py add` / `cmc.py ask` do: all of a scenario's records in one add (one model
batch, as `add --file`), or with --one-by-one each record in its own add, as an agent that calls
`cmc.py add` once per thing the user says. An answer is right when a gold string is in it after
the benchmark's normalisation (bench/common.py: lowercase, no punctuation or articles).

The scenarios were written for this bench: none comes from FactConsolidation or MQuAKE, and cmc
has no rule or prompt example taken from them. Kinds: `same` (the update repeats the sentence
with a new value), `reworded` (the update says it in other words), `chain` (the question needs a
hop through the updated fact), `keep` (another fact of the same subject must survive the
update), `reverse` (the question names the value), `value` (dates, times, numbers).
"""
import argparse
import json
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402
import results  # noqa: E402
from common import cmc  # noqa: E402

OUT = common.RESULTS / "everyday.json"

# (records in the order told, [(kind, question, gold strings)])
SCENARIOS = [
    (["Mara lives in Leeds.", "Mara lives in York."],
     [("same", "Where does Mara live?", ["York"])]),
    (["The book club meets on Tuesday.", "The book club now meets on Thursday."],
     [("value", "When does the book club meet?", ["Thursday"])]),
    (["The team standup is in Room 4.", "Room 4 is on the second floor.", "Room 9 is on the sixth floor.",
      "The team standup moved to Room 9."],
     [("chain", "Which floor is the team standup on?", ["sixth"]),
      ("reworded", "Where is the team standup?", ["Room 9"])]),
    (["Priya works at Northwind.", "Northwind is based in Oslo.", "Priya now works at Contoso.",
      "Contoso is based in Dublin."],
     [("chain", "Where is Priya's employer based?", ["Dublin"]),
      ("same", "Where does Priya work?", ["Contoso"])]),
    (["Tom lives in Bristol.", "Tom works at Acme.", "Tom moved to Cardiff."],
     [("keep", "Where does Tom work?", ["Acme"]),
      ("reworded", "Where does Tom live?", ["Cardiff"])]),
    (["My dentist is Dr. Alvarez.", "My dentist is now Dr. Chen."],
     [("same", "Who is my dentist?", ["Chen"])]),
    (["The wifi password is bluefish42.", "The wifi password was changed to redkite77."],
     [("value", "What is the wifi password?", ["redkite77"])]),
    (["Jonas's favourite food is ramen.", "Jonas's favourite drink is lemonade.",
      "Jonas's favourite food is now pho."],
     [("keep", "What is Jonas's favourite drink?", ["lemonade"]),
      ("same", "What is Jonas's favourite food?", ["pho"])]),
    (["The project deadline is March 3.", "The project deadline was pushed to March 17."],
     [("value", "When is the project deadline?", ["March 17"])]),
    (["Lena manages the Berlin office.", "The Berlin office is on Torstrasse.",
      "Omar manages the Munich office.", "Lena now manages the Munich office."],
     [("reverse", "Who manages the Munich office?", ["Lena"]),
      ("same", "Which office does Lena manage?", ["Munich"])]),
    (["Kofi drives a Toyota.", "Kofi sold the Toyota and now drives a Volvo."],
     [("reworded", "What car does Kofi drive?", ["Volvo"])]),
    (["The quarterly review is at 10 am.", "The quarterly review is in the Oak room.",
      "The quarterly review was moved to 2 pm."],
     [("value", "What time is the quarterly review?", ["2 pm"]),
      ("keep", "Where is the quarterly review?", ["Oak"])]),
    (["Sofia's manager is Raj.", "Raj works in Lisbon.", "Sofia's manager is now Mei.", "Mei works in Madrid."],
     [("chain", "Where does Sofia's manager work?", ["Madrid"]),
      ("same", "Who is Sofia's manager?", ["Mei"])]),
    (["Our landlord is Mr. Patel.", "Mr. Patel's phone number is 555-0142.", "Our landlord is now Ms. Osei.",
      "Ms. Osei's phone number is 555-0199."],
     [("chain", "What is our landlord's phone number?", ["555 0199", "5550199"])]),
    (["Grandma's birthday party is at the lake house.", "The lake house is in Tahoe.",
      "Grandma's birthday party will be at the city flat instead.", "The city flat is in Sacramento."],
     [("chain", "In which town is Grandma's birthday party?", ["Sacramento"])]),
    (["Ines studies biology.", "Ines switched to studying chemistry."],
     [("reworded", "What does Ines study?", ["chemistry"])]),
    (["The spare key is under the mat.", "The spare key is now in the mailbox."],
     [("same", "Where is the spare key?", ["mailbox"])]),
    (["Felix plays the cello.", "Felix lives in Ghent.", "Felix now plays the violin."],
     [("same", "Which instrument does Felix play?", ["violin"]),
      ("keep", "Where does Felix live?", ["Ghent"])]),
    (["The Hendersons' dog is called Biscuit.", "The Hendersons adopted a new dog called Pepper."],
     [("reworded", "What is the Hendersons' dog called?", ["Pepper"])]),
    (["Aiko is married to Ren.", "Ren works as a pilot."],
     [("chain", "What is the job of Aiko's spouse?", ["pilot"]),
      ("reverse", "Who is Ren married to?", ["Aiko"])]),
    (["The school play is on Friday.", "The school play is in the main hall.",
      "The school play got moved to Saturday."],
     [("value", "When is the school play?", ["Saturday"]),
      ("keep", "Where is the school play?", ["main hall"])]),
    (["Dev's gym is FitZone.", "FitZone is on King Street.", "Dev's gym is now IronWorks.",
      "IronWorks is on Queen Street."],
     [("chain", "Which street is Dev's gym on?", ["Queen Street"])]),
    # six more, written on 2026-12-03 after the opening-verb and fronted-preposition changes
    # (28 -> 30 of the 32 questions above), and not tuned on
    (["Omar studies at Leeds University.", "Omar transferred to York University."],
     [("reworded", "Where does Omar study?", ["York University"])]),
    (["The team lunch is at Luigi's.", "Luigi's is on Elm Street.", "The team lunch moved to Sakura.",
      "Sakura is on Pine Street."],
     [("chain", "On which street is the team lunch?", ["Pine Street"])]),
    (["The plumber is coming on Thursday.", "The plumber is now coming on Friday."],
     [("value", "When is the plumber coming?", ["Friday"])]),
    (["Sam supports Arsenal.", "Sam lives in Leeds.", "Sam now supports Chelsea."],
     [("same", "Which team does Sam support?", ["Chelsea"]),
      ("keep", "Where does Sam live?", ["Leeds"])]),
    (["Nadia's doctor is Dr. Kim.", "Dr. Kim works at Riverside Clinic.", "Nadia's doctor is now Dr. Lopez.",
      "Dr. Lopez works at Hilltop Clinic."],
     [("chain", "Where does Nadia's doctor work?", ["Hilltop Clinic"]),
      ("same", "Who is Nadia's doctor?", ["Lopez"])]),
    (["Maya's bike is red.", "Maya painted her bike blue."],
     [("reworded", "What colour is Maya's bike?", ["blue"])]),
    # eighteen more (22 questions), written on 2026-12-03 evening as a held-out check: on commit
    # 854b284 cmc answered 19 of them. The one change made after reading them (a6842d1, "The
    # flight to Rome" is one thing) took that to 20; the kids' swimming lessons (a shorter name
    # for the same thing) and the conference whose "location changed to" Turin are still missed
    (["Hannah's car is a blue Honda.", "Hannah bought a Subaru last week and sold the Honda."],
     [("reworded", "What car does Hannah have?", ["Subaru"])]),
    (["The board meeting is scheduled for Monday at 9.", "The board meeting has been rescheduled to Wednesday at 11."],
     [("value", "When is the board meeting?", ["Wednesday"])]),
    (["My sister Clara lives in Porto.", "Clara relocated to Valencia in June."],
     [("reworded", "Where does Clara live?", ["Valencia"])]),
    (["Ben's favourite band is Radiohead.", "These days Ben's favourite band is Blur."],
     [("same", "What is Ben's favourite band?", ["Blur"])]),
    (["The office printer is on the third floor.", "The office printer was moved to the basement."],
     [("value", "Where is the office printer?", ["basement"])]),
    (["Yuki teaches at Maple High School.", "Maple High School is in Denver.", "Yuki now teaches at Oakridge Academy.",
      "Oakridge Academy is in Boulder."],
     [("chain", "In which city is the school where Yuki teaches?", ["Boulder"]),
      ("same", "Where does Yuki teach?", ["Oakridge Academy"])]),
    (["Our accountant is Mrs. Novak.", "Mrs. Novak's office is on Baker Street.", "We switched our accountant to Mr. Reyes.",
      "Mr. Reyes's office is on Market Street."],
     [("chain", "On which street is our accountant's office?", ["Market Street"])]),
    (["Leo's cat is named Miso.", "Leo's dog is named Rex.", "Leo renamed his cat Tofu."],
     [("keep", "What is Leo's dog named?", ["Rex"]), ("reworded", "What is Leo's cat named?", ["Tofu"])]),
    (["The garage code is 4471.", "The garage code is now 9032."],
     [("value", "What is the garage code?", ["9032"])]),
    (["Amara coaches the under-12 team.", "The under-12 team trains at Riverside Park.",
      "Amara now coaches the under-14 team.", "The under-14 team trains at Hill Field."],
     [("chain", "Where does the team Amara coaches train?", ["Hill Field"])]),
    (["Pablo is allergic to peanuts.", "Pablo lives in Seville."],
     [("same", "What is Pablo allergic to?", ["peanuts"]), ("keep", "Where does Pablo live?", ["Seville"])]),
    (["The flight to Rome departs at 7:40.", "The flight to Rome now departs at 9:15."],
     [("value", "When does the flight to Rome depart?", ["9:15", "915"])]),
    (["Greta's mentor is Professor Lind.", "Professor Lind works at Uppsala University."],
     [("chain", "Where does Greta's mentor work?", ["Uppsala"]), ("reverse", "Who is Professor Lind the mentor of?", ["Greta"])]),
    (["The kids' swimming lessons are on Wednesday.", "Swimming lessons were moved to Sunday."],
     [("reworded", "When are the kids' swimming lessons?", ["Sunday"])]),
    (["Ravi banks with Northbank.", "Ravi moved his account to Eastline Bank."],
     [("reworded", "Which bank does Ravi use?", ["Eastline"])]),
    (["The conference is in Lyon.", "Lyon is in France.", "The conference location changed to Turin.", "Turin is in Italy."],
     [("chain", "In which country is the conference?", ["Italy"])]),
    (["Zoe's phone number is 020 7946 0018.", "Zoe got a new phone number: 020 7946 0321."],
     [("value", "What is Zoe's phone number?", ["0321"])]),
    (["Marco is the captain of the rowing club.", "Elena replaced Marco as captain of the rowing club."],
     [("reverse", "Who is the captain of the rowing club?", ["Elena"])]),
    # written on 2026-12-03 after the walk began to read facts worded value first backwards on
    # the way (commit 3fcb021): not held out for that change, a measure of it
    (["Our logo was designed by Mira Holt.", "Lumen Labs employs Mira Holt."],
     [("chain", "Which company employs the designer of our logo?", ["Lumen Labs"])]),
    (["Our album came out on Skyline Records.", "Dana Reyes runs Skyline Records.", "Omar Haddad now runs Skyline Records."],
     [("chain", "Who runs the label our album came out on?", ["Omar"])]),
    # written on 2026-12-04 with the rule that a change restates its subject's fact of the same
    # kind (a record that says "moved", read alone): a measure of it and of what it must not
    # touch (a birthplace, a place of study, a workplace), not held out for it
    (["Ines was born in Madrid.", "Ines lives in Berlin.", "Ines moved to Vienna."],
     [("keep", "Where was Ines born?", ["Madrid"]), ("reworded", "Where does Ines live?", ["Vienna"])]),
    (["Lena works at the city library.", "Lena lives in Glasgow.", "Lena relocated to Edinburgh last spring."],
     [("keep", "Where does Lena work?", ["library"]), ("reworded", "Where does Lena live?", ["Edinburgh"])]),
    (["Raj studied in Mumbai.", "Raj lives in Pune.", "Raj moved to Chennai."],
     [("keep", "Where did Raj study?", ["Mumbai"]), ("reworded", "Which city does Raj live in?", ["Chennai"])]),
    (["The team offsite is in Denver.", "Denver is in Colorado.", "The team offsite was moved to Boston.",
      "Boston is in Massachusetts."],
     [("chain", "In which state is the team offsite?", ["Massachusetts"])]),
    (["Our dentist is Dr. Patel.", "We changed our dentist to Dr. Moreau."],
     [("reworded", "Who is our dentist?", ["Moreau"])]),
    (["Eva's office is in Room 12.", "Eva moved to Room 30."],
     [("reworded", "Where is Eva's office?", ["30"])]),
    (["Nils lives in Bergen.", "Nils visited Stavanger.", "Nils moved to Oslo."],
     [("reworded", "Where does Nils live?", ["Oslo"]), ("keep", "Which city did Nils visit?", ["Stavanger"])]),
    (["Priya's gym is FitHub on King Street.", "Priya switched gyms to CoreLab."],
     [("reworded", "Which gym does Priya go to?", ["CoreLab"])]),
    # twelve more (14 questions), written on 2026-12-04 at 05:45 UTC as a held-out check of the
    # code of cc39768 (see docs/results.md for what they scored before any change after it)
    (["Felix works at Brightline.", "Brightline is based in Zurich.", "Felix joined Nordhaus in March.",
      "Nordhaus is based in Geneva."],
     [("chain", "In which city is the company Felix works for based?", ["Geneva"])]),
    (["Our wifi password is bluefox22.", "The wifi password is now greenowl57."],
     [("value", "What is the wifi password?", ["greenowl57"])]),
    (["Mei lives in Toronto.", "Mei's brother Ken lives in Vancouver.", "Mei moved to Montreal."],
     [("reworded", "Where does Mei live?", ["Montreal"]), ("keep", "Where does Ken live?", ["Vancouver"])]),
    (["The quarterly review is on March 3.", "The quarterly review was pushed to March 10."],
     [("value", "When is the quarterly review?", ["March 10"])]),
    (["Dev's manager is Sara Lind.", "Sara Lind reports to Omar Quist.", "Dev's manager is now Paul Weir.",
      "Paul Weir reports to Ada Brooks."],
     [("chain", "Who does Dev's manager report to?", ["Ada Brooks"])]),
    (["Lucia drives a Fiat.", "Lucia sold her Fiat and now drives a Kia."],
     [("reworded", "What does Lucia drive?", ["Kia"])]),
    (["The book club reads Dune this month.", "The book club switched to Emma."],
     [("reworded", "Which book is the book club reading?", ["Emma"])]),
    (["Hugo's favourite restaurant is Bistro Nord.", "Bistro Nord is on Elm Street."],
     [("chain", "On which street is Hugo's favourite restaurant?", ["Elm Street"]),
      ("reverse", "Whose favourite restaurant is Bistro Nord?", ["Hugo"])]),
    (["Anna studied at Leiden University.", "Anna teaches at Utrecht University.", "Anna now teaches at Delft University."],
     [("keep", "Where did Anna study?", ["Leiden"]), ("same", "Where does Anna teach?", ["Delft"])]),
    (["The team lunch is at Noodle Bar.", "Noodle Bar is in the east wing.", "The team lunch moved to Green Cafe.",
      "Green Cafe is in the west wing."],
     [("chain", "In which wing is the team lunch?", ["west"])]),
    (["Iris plays the cello.", "Iris plays in the city orchestra.", "Iris switched from the cello to the viola."],
     [("reworded", "Which instrument does Iris play?", ["viola"])]),
    (["Tomas is the treasurer of the chess club.", "Wen took over as treasurer of the chess club."],
     [("reverse", "Who is the treasurer of the chess club?", ["Wen"])]),
    # ten more (13 questions), written on 2026-12-04 at 06:10 UTC as a held-out check of the code
    # of 2aa4c58, after the changes the twelve above led to (docs/results.md)
    (["Sofia's yoga class is on Monday evenings.", "Sofia's yoga class moved to Thursday evenings."],
     [("value", "When is Sofia's yoga class?", ["Thursday"])]),
    (["Ahmed lives in Cairo.", "Ahmed works at Nile Bank.", "Ahmed relocated to Dubai for a new job at Gulf Trust."],
     [("reworded", "Where does Ahmed live?", ["Dubai"]), ("reworded", "Where does Ahmed work?", ["Gulf Trust"])]),
    (["The project lead is Karen.", "Karen handed the project lead role to Victor."],
     [("reverse", "Who is the project lead?", ["Victor"])]),
    (["Our cat Luna eats Whiskas.", "Luna now eats Purina."],
     [("same", "What does Luna eat?", ["Purina"])]),
    (["Theo's school is Pinewood Primary.", "Pinewood Primary is in Kent.", "Theo changed schools to Riverside Academy.",
      "Riverside Academy is in Surrey."],
     [("chain", "In which county is Theo's school?", ["Surrey"])]),
    (["Grace was born in Dublin.", "Grace lives in Cork.", "Grace moved to Galway last year."],
     [("keep", "Where was Grace born?", ["Dublin"]), ("reworded", "Where does Grace live now?", ["Galway"])]),
    (["The Monday meeting is in Room 3.", "The Monday meeting moved to Room 7."],
     [("reworded", "Which room is the Monday meeting in?", ["7"])]),
    (["Oliver's phone is an iPhone.", "Oliver replaced his iPhone with a Pixel."],
     [("reworded", "What phone does Oliver have?", ["Pixel"])]),
    (["Nina is learning Spanish.", "Nina lives in Madrid."],
     [("keep", "Which language is Nina learning?", ["Spanish"]), ("keep", "Where does Nina live?", ["Madrid"])]),
    (["The neighbourhood watch is led by Mr. Briggs.", "Mrs. Osei now leads the neighbourhood watch."],
     [("reverse", "Who leads the neighbourhood watch?", ["Osei"])]),
    # ten more (11 questions), written on 2026-12-04 at 14:40 UTC as a held-out check of the rules
    # for a change that names the value it replaces, a number read without its digits, and places
    # WordNet does not know (docs/results.md), before the three changes they led to
    (["Priya's laptop is a ThinkPad.", "Priya swapped her ThinkPad for a MacBook."],
     [("reworded", "What laptop does Priya have?", ["MacBook"])]),
    (["The team captain is Jonas.", "Lea took over from Jonas as team captain."],
     [("reverse", "Who is the team captain?", ["Lea"])]),
    (["Sam's gym code is 4471.", "Sam's gym code changed to 9052."],
     [("value", "What is Sam's gym code?", ["9052"])]),
    (["Omar lives in Tromsø.", "Omar moved to Bergen last spring."],
     [("reworded", "Where does Omar live?", ["Bergen"])]),
    (["Lina works at Vexa.", "Lina started a new job at Corvin."],
     [("reworded", "Where does Lina work?", ["Corvin"])]),
    (["Kenji's dentist is Dr. Ito.", "Kenji replaced Dr. Ito with Dr. Mori as his dentist."],
     [("reworded", "Who is Kenji's dentist?", ["Mori"])]),
    (["The book club meets at Clara's house.", "The book club now meets at the library instead of Clara's house."],
     [("reworded", "Where does the book club meet?", ["library"])]),
    (["Ivan's flight number is LH 402.", "Ivan rebooked: his flight number is now LH 1180."],
     [("value", "What is Ivan's flight number?", ["1180"])]),
    (["Dev lives in Nashik.", "Dev works at Tarlo.", "Dev relocated to Indore."],
     [("reworded", "Where does Dev live?", ["Indore"]), ("keep", "Where does Dev work?", ["Tarlo"])]),
    (["Maya's car is a Fiat.", "Maya sold her Fiat and bought a Kia."],
     [("reworded", "What car does Maya have?", ["Kia"])]),
    # ten more (12 questions), written on 2026-12-04 at 15:00 UTC as a held-out check of a3ed5cf
    # and not tuned on (docs/results.md)
    (["Bea's gym is FitZone.", "Bea cancelled FitZone and signed up at Pulse Gym."],
     [("reworded", "Which gym does Bea go to?", ["Pulse"])]),
    (["The quiz night is on Tuesday.", "The quiz night was pushed back to Thursday."],
     [("value", "When is the quiz night?", ["Thursday"])]),
    (["Hugo's manager is Irene.", "Irene left, and Hugo now reports to Pavel."],
     [("reworded", "Who is Hugo's manager?", ["Pavel"])]),
    (["Lia's wifi password is sunflower22.", "Lia changed the wifi password to bluebird7."],
     [("value", "What is Lia's wifi password?", ["bluebird7"])]),
    (["Sven lives in Malmö.", "Sven works at Ericsson.", "Sven has since moved to Uppsala."],
     [("reworded", "Where does Sven live?", ["Uppsala"]), ("keep", "Where does Sven work?", ["Ericsson"])]),
    (["Our landlord is Mr. Dale.", "The flat was sold, so our landlord is now Ms. Reyes."],
     [("same", "Who is our landlord?", ["Reyes"])]),
    (["Tariq drives a Golf.", "Tariq traded in his Golf for a Tesla."],
     [("reworded", "What does Tariq drive?", ["Tesla"])]),
    (["The school play is in the main hall.", "The school play will now be in the gym."],
     [("same", "Where is the school play?", ["gym"])]),
    (["Eva's doctor is Dr. Lam.", "Eva switched doctors; she now sees Dr. Novak."],
     [("reworded", "Who is Eva's doctor?", ["Novak"])]),
    (["Kofi supports Arsenal.", "Kofi lives in Accra.", "Kofi now supports Chelsea."],
     [("same", "Which team does Kofi support?", ["Chelsea"]), ("keep", "Where does Kofi live?", ["Accra"])]),
    # thirteen more (15 questions), written on 2026-12-04 at 16:38 UTC as a held-out check of
    # a265553 and not tuned on (docs/results.md)
    (["Nadia's sister is Leila.", "Leila lives in Porto.", "Leila moved to Lisbon in March."],
     [("chain", "Where does Nadia's sister live?", ["Lisbon"])]),
    (["The project deadline is May 3.", "The project deadline got extended to May 17."],
     [("value", "When is the project deadline?", ["May 17"])]),
    (["Marco's favourite band is Muse.", "These days Marco's favourite band is Arctic Monkeys."],
     [("same", "What is Marco's favourite band?", ["Arctic Monkeys"])]),
    (["The office printer is on floor 2.", "Floor 2 is being renovated, so the office printer is now on floor 5."],
     [("value", "Which floor is the office printer on?", ["5"])]),
    (["Ines studies at Uppsala University.", "Ines transferred to Lund University."],
     [("reworded", "Where does Ines study?", ["Lund"])]),
    (["The Friday meeting is in Room 12.", "Room 12 is in Building A.", "The Friday meeting was moved to Room 3.",
      "Room 3 is in Building C."],
     [("chain", "Which building is the Friday meeting in?", ["Building C"])]),
    (["Yusuf's phone number is 555-0142.", "Yusuf got a new number: 555-0199."],
     [("value", "What is Yusuf's phone number?", ["555-0199", "5550199"])]),
    (["Greta coaches the under-12 team.", "Greta handed the under-12 team over to Paul."],
     [("reverse", "Who coaches the under-12 team?", ["Paul"])]),
    (["Leo is allergic to peanuts.", "Leo lives in Galway.", "Leo moved to Cork."],
     [("keep", "What is Leo allergic to?", ["peanuts"]), ("reworded", "Where does Leo live?", ["Cork"])]),
    (["Hana's bank is Monzo.", "Hana closed her Monzo account and opened one at Starling."],
     [("reworded", "Which bank does Hana use?", ["Starling"])]),
    (["The running club starts at 7am.", "From next week the running club starts at 6:30am."],
     [("value", "When does the running club start?", ["6:30", "630"])]),
    (["Dario's boss is Mrs. Kim.", "Mrs. Kim works in Seoul.", "Dario's boss is now Mr. Lund.", "Mr. Lund works in Oslo."],
     [("chain", "Where does Dario's boss work?", ["Oslo"])]),
    (["Ana's yoga class is on Monday.", "Ana's yoga class is at the community centre.",
      "Ana's yoga class moved to Wednesday."],
     [("keep", "Where is Ana's yoga class?", ["community centre"]), ("value", "When is Ana's yoga class?", ["Wednesday"])]),
    # twelve more (13 questions), written on 2026-12-04 at 17:40 UTC as a held-out check of
    # 6e9e5d0 (docs/results.md)
    (["Rosa's gym is Iron Temple.", "Rosa gave up Iron Temple and now trains at Core Club."],
     [("reworded", "Which gym does Rosa train at?", ["Core Club"])]),
    (["The quarterly review is on October 3.", "The quarterly review has been postponed to October 10."],
     [("value", "When is the quarterly review?", ["October 10"])]),
    (["Imran's car is a Prius.", "The Prius was stolen, so Imran now drives a Corolla."],
     [("reworded", "What car does Imran drive?", ["Corolla"])]),
    (["Mila teaches at Oakfield School.", "Oakfield School is in Derby.", "Mila took a post at Elm Academy.",
      "Elm Academy is in Leicester."],
     [("chain", "In which city does Mila teach?", ["Leicester"])]),
    (["The shop opens at 9am.", "The shop now opens at 8am."],
     [("value", "When does the shop open?", ["8am", "8 am"])]),
    (["Pedro is the club treasurer.", "Pedro stepped down and Lucia became club treasurer."],
     [("reverse", "Who is the club treasurer?", ["Lucia"])]),
    (["Ken's email is ken@oldmail.com.", "Ken's new email address is ken@newmail.org."],
     [("value", "What is Ken's email?", ["newmail"])]),
    (["Sara lives in Lyon.", "Sara speaks French.", "Sara moved to Turin."],
     [("keep", "What language does Sara speak?", ["French"]), ("reworded", "Where does Sara live?", ["Turin"])]),
    (["The band's drummer is Olly.", "Olly left the band; the new drummer is Jas."],
     [("same", "Who is the band's drummer?", ["Jas"])]),
    (["Nora's favourite café is Bean Scene.", "Nora prefers Daily Grind these days."],
     [("reworded", "What is Nora's favourite café?", ["Daily Grind"])]),
    (["Tim's flat is on Baker Street.", "Tim moved out of Baker Street and into a flat on Mill Lane."],
     [("reworded", "Which street is Tim's flat on?", ["Mill Lane"])]),
    (["The wifi router is in the hallway.", "We moved the wifi router to the study."],
     [("reworded", "Where is the wifi router?", ["study"])]),
    # fifteen more (17 questions), written on 2026-12-04 at 18:30 UTC as a held-out check of
    # 1209c80 (docs/results.md)
    (["Liam's manager is Joan.", "Joan is based in Paris.", "Liam now reports to Victor.", "Victor is based in Madrid."],
     [("chain", "Where is Liam's manager based?", ["Madrid"])]),
    (["The dog walker comes on Mondays.", "The dog walker comes on Fridays now."],
     [("value", "When does the dog walker come?", ["Friday"])]),
    (["Aiko's phone is an iPhone 12.", "Aiko upgraded to an iPhone 15."],
     [("reworded", "What phone does Aiko have?", ["iPhone 15"])]),
    (["Our landlord is Mr. Barros.", "The building was sold; our landlord is now Ms. Petrov."],
     [("same", "Who is our landlord?", ["Petrov"])]),
    (["Chen plays the violin.", "Chen lives in Toronto.", "Chen relocated to Vancouver."],
     [("keep", "What instrument does Chen play?", ["violin"]), ("reworded", "Where does Chen live?", ["Vancouver"])]),
    (["The family reunion is in Denver.", "The family reunion will be held in Austin instead."],
     [("reworded", "Where is the family reunion?", ["Austin"])]),
    (["Olivia's piano teacher is Mr. Ortiz.", "Mr. Ortiz retired, and Olivia's new piano teacher is Ms. Reyes."],
     [("same", "Who is Olivia's piano teacher?", ["Reyes"])]),
    (["Bram runs the bakery on Elm Street.", "Bram sold the bakery to Ilse."],
     [("reverse", "Who runs the bakery on Elm Street?", ["Ilse"])]),
    (["The rent is 950 euros a month.", "The rent went up to 1,020 euros a month."],
     [("value", "How much is the rent?", ["1020"])]),
    (["Zara's daughter goes to Hillside Primary.", "Hillside Primary is on Oak Road.",
      "Zara's daughter changed schools to Riverside Primary.", "Riverside Primary is on Mill Road."],
     [("chain", "Which road is Zara's daughter's school on?", ["Mill Road"])]),
    (["Felix's birthday is June 4.", "Felix's favourite colour is green.", "Felix's favourite colour is blue now."],
     [("keep", "When is Felix's birthday?", ["June 4"]), ("same", "What is Felix's favourite colour?", ["blue"])]),
    (["The team lunch is at Luigi's.", "The team lunch is at Sakura."],
     [("same", "Where is the team lunch?", ["Sakura"])]),
    (["The train to work leaves at 7:45.", "The train to work now leaves at 7:20."],
     [("value", "When does the train to work leave?", ["7:20", "720"])]),
    (["Omar uses Gmail.", "Omar switched from Gmail to Proton Mail."],
     [("reworded", "Which email service does Omar use?", ["Proton"])]),
    (["Kate's best friend is Rosa.", "Rosa works as a nurse.", "Kate's best friend is now Mia.", "Mia works as a pilot."],
     [("chain", "What does Kate's best friend do for a living?", ["pilot"])]),
    # fourteen more (16 questions), written on 2026-12-04 at 18:57 UTC as a held-out check of
    # 3bff620 (docs/results.md)
    (["Noah's swim lessons are on Saturday mornings.", "Noah's swim lessons were switched to Sunday mornings."],
     [("value", "When are Noah's swim lessons?", ["Sunday"])]),
    (["Our internet provider is Virgin Media.", "We switched our internet provider to BT."],
     [("reworded", "Who is our internet provider?", ["BT"])]),
    (["Elena works at Siemens.", "Siemens is headquartered in Munich.", "Elena joined Philips last month.",
      "Philips is headquartered in Amsterdam."],
     [("chain", "In which city is Elena's employer headquartered?", ["Amsterdam"])]),
    (["The spare key is under the doormat.", "I moved the spare key to the flowerpot."],
     [("reworded", "Where is the spare key?", ["flowerpot"])]),
    (["Raj's daughter plays the flute.", "Raj's daughter lives in Leeds.",
      "Raj's daughter gave up the flute and took up the drums."],
     [("keep", "Where does Raj's daughter live?", ["Leeds"]),
      ("reworded", "What instrument does Raj's daughter play?", ["drums"])]),
    (["The gym membership costs 35 pounds a month.", "The gym membership now costs 42 pounds a month."],
     [("value", "How much does the gym membership cost?", ["42"])]),
    (["Hugo's accountant is Ms. Park.", "Ms. Park's office is in Camden.", "Hugo hired a new accountant, Mr. Diaz.",
      "Mr. Diaz's office is in Islington."],
     [("chain", "Where is the office of Hugo's accountant?", ["Islington"])]),
    (["Lina's flight lands at 6pm.", "Lina's flight is delayed and now lands at 9pm."],
     [("value", "When does Lina's flight land?", ["9pm", "9 pm"])]),
    (["The choir rehearses at St. Mark's Church.", "The choir rehearses at the town hall now."],
     [("same", "Where does the choir rehearse?", ["town hall"])]),
    (["Ben's partner is Chloe.", "Ben and Chloe split up; Ben's partner is now Ava."],
     [("same", "Who is Ben's partner?", ["Ava"])]),
    (["Fatima speaks Arabic.", "Fatima works as a translator.", "Fatima now works as a teacher."],
     [("keep", "What language does Fatima speak?", ["Arabic"]), ("same", "What is Fatima's job?", ["teacher"])]),
    (["Max's cat eats Whiskas.", "Max changed his cat's food to Purina."],
     [("reworded", "What does Max's cat eat?", ["Purina"])]),
    (["The company CEO is Laura Bent.", "Laura Bent stepped down as CEO and was replaced by Omar Said."],
     [("reverse", "Who is the company CEO?", ["Omar Said"])]),
    (["Jin lives on Pine Street.", "Pine Street is in the north district.", "Jin moved to Cedar Road.",
      "Cedar Road is in the south district."],
     [("chain", "Which district does Jin live in?", ["south"])]),
    # fourteen more (16 questions), written on 2026-12-04 at 19:26 UTC as a held-out check of
    # e1d7807 (docs/results.md)
    (["Dr. Hahn is my GP.", "My GP is now Dr. Weiss."],
     [("same", "Who is my GP?", ["Weiss"])]),
    (["Anya's car is on level 2 of the car park.", "Anya moved her car to level 4."],
     [("reworded", "Which level is Anya's car on?", ["level 4"])]),
    (["The pharmacy closes at 6pm.", "The pharmacy now closes at 8pm."],
     [("value", "When does the pharmacy close?", ["8pm", "8 pm"])]),
    (["Otto's barber is Luca.", "Luca works at Fade Lab.", "Otto's barber is now Remy.", "Remy works at Sharp Cuts."],
     [("chain", "Where does Otto's barber work?", ["Sharp Cuts"])]),
    (["Priya lives in Pune.", "Priya doesn't live in Pune anymore; she lives in Goa."],
     [("reworded", "Where does Priya live?", ["Goa"])]),
    (["Karl's favourite film is Heat.", "Karl's favourite book is Dune.", "Karl's favourite film is now Alien."],
     [("keep", "What is Karl's favourite book?", ["Dune"]), ("same", "What is Karl's favourite film?", ["Alien"])]),
    (["The soccer practice is at Lincoln Park.", "Soccer practice was moved to Riverside Field."],
     [("reworded", "Where is soccer practice?", ["Riverside Field"])]),
    (["Mei's tutor is Mr. Okafor.", "Mr. Okafor teaches chemistry.", "Mei's tutor is now Ms. Lind.",
      "Ms. Lind teaches physics."],
     [("chain", "What subject does Mei's tutor teach?", ["physics"])]),
    (["Our pediatrician is Dr. Ruiz.", "Dr. Ruiz was replaced by Dr. Moss as our pediatrician."],
     [("reworded", "Who is our pediatrician?", ["Moss"])]),
    (["The Wi-Fi network is called HomeNet.", "The Wi-Fi network was renamed to CasaNet."],
     [("value", "What is the Wi-Fi network called?", ["CasaNet"])]),
    (["Yara drives a Honda Civic.", "Yara lives in Bergen.", "Yara sold her Honda Civic and bought a Volvo XC40."],
     [("reworded", "What car does Yara drive?", ["Volvo"]), ("keep", "Where does Yara live?", ["Bergen"])]),
    (["The garden club meets at the library.", "The library is on Queen Street.",
      "The garden club now meets at the community hall.", "The community hall is on King Street."],
     [("chain", "Which street does the garden club meet on?", ["King Street"])]),
    (["Tomas's mentor is Erik.", "Erik retired, so Tomas's mentor is now Sofia."],
     [("same", "Who is Tomas's mentor?", ["Sofia"])]),
    (["The monthly budget for groceries is 400 dollars.", "We cut the grocery budget to 350 dollars."],
     [("value", "What is the grocery budget?", ["350"])]),
    # fourteen more (15 questions), written on 2026-12-04 at 19:45 UTC as a held-out check of
    # e808540 (docs/results.md)
    (["Grace's dentist appointment is on the 12th.", "Grace's dentist appointment was pushed back to the 19th."],
     [("value", "When is Grace's dentist appointment?", ["19th"])]),
    (["The team uses Slack for chat.", "The team moved from Slack to Teams for chat."],
     [("reworded", "What does the team use for chat?", ["Teams"])]),
    (["Viktor's landlord is Mrs. Cole.", "Mrs. Cole lives in Brighton.", "Viktor moved flats; his landlord is now Mr. Grant.",
      "Mr. Grant lives in Hove."],
     [("chain", "Where does Viktor's landlord live?", ["Hove"])]),
    (["Lucy is allergic to cats.", "Lucy's favourite sport is tennis.", "Lucy's favourite sport is now padel."],
     [("keep", "What is Lucy allergic to?", ["cats"]), ("same", "What is Lucy's favourite sport?", ["padel"])]),
    (["The printer password is 4471.", "IT reset the printer password to 9902."],
     [("value", "What is the printer password?", ["9902"])]),
    (["Hamid commutes by bus.", "Hamid bought a bike and now commutes by bike."],
     [("same", "How does Hamid commute?", ["bike"])]),
    (["Ola's son attends Brookside Nursery.", "Ola's son started at Maple Primary in September."],
     [("reworded", "Which school does Ola's son attend?", ["Maple Primary"])]),
    (["The neighbourhood watch meeting is at 7pm.", "The neighbourhood watch meeting was brought forward to 6pm."],
     [("value", "When is the neighbourhood watch meeting?", ["6pm", "6 pm"])]),
    (["Carmen's coach is Diego.", "Diego coaches at Real Club.", "Carmen now trains with a new coach, Pablo.",
      "Pablo coaches at Club Norte."],
     [("chain", "At which club does Carmen's coach work?", ["Club Norte"])]),
    (["Sven's email provider is Yahoo.", "Sven moved his email to Fastmail."],
     [("reworded", "Who is Sven's email provider?", ["Fastmail"])]),
    (["The office Christmas party is at The Crown.", "The Crown is on Baker Street.",
      "The office Christmas party is now at The Anchor.", "The Anchor is on Dock Road."],
     [("chain", "Which street is the office Christmas party on?", ["Dock Road"])]),
    (["Amara's manager is Helen.", "Helen left the company and Amara's manager is now Tobi."],
     [("same", "Who is Amara's manager?", ["Tobi"])]),
    (["Our recycling is collected on Tuesdays.", "Recycling collection has changed to Thursdays."],
     [("reworded", "When is our recycling collected?", ["Thursday"])]),
    (["Jonah plays bass in The Owls.", "Jonah quit The Owls and joined The Finches."],
     [("reworded", "Which band does Jonah play in?", ["Finches"])]),
    # ten more (11 questions), written on 2026-12-04 at 20:15 UTC as a held-out check of
    # e16025e (docs/results.md)
    (["Our dog's vet is Dr. Fox.", "We switched vets; our dog's vet is now Dr. Lane."],
     [("same", "Who is our dog's vet?", ["Lane"])]),
    (["Ivan's gym class is on Mondays.", "Ivan's gym class moved to Tuesdays."],
     [("value", "When is Ivan's gym class?", ["Tuesday"])]),
    (["Lea lives in Nantes.", "Lea plays the cello.", "Lea relocated to Lille."],
     [("keep", "What does Lea play?", ["cello"]), ("reworded", "Where does Lea live?", ["Lille"])]),
    (["The car insurance is with Aviva.", "We moved the car insurance to Admiral."],
     [("reworded", "Who is the car insurance with?", ["Admiral"])]),
    (["Noor's best friend is Sara.", "Sara lives in Dubai.", "Noor's best friend is now Hind.", "Hind lives in Doha."],
     [("chain", "Where does Noor's best friend live?", ["Doha"])]),
    (["The parking permit costs 60 pounds.", "The parking permit went up to 75 pounds."],
     [("value", "How much does the parking permit cost?", ["75"])]),
    (["Kai works as a chef.", "Kai retrained and now works as a nurse."],
     [("same", "What does Kai work as?", ["nurse"])]),
    (["The board meeting is in Conference Room 1.", "The board meeting has been moved to Conference Room 3."],
     [("reworded", "Where is the board meeting?", ["Conference Room 3"])]),
    (["Zoe's phone number is 07700 900123.", "Zoe changed her number to 07700 900456."],
     [("value", "What is Zoe's phone number?", ["900456"])]),
    (["The kids' piano lessons are with Mrs. Berg.", "The kids' piano lessons are now with Mr. Holm."],
     [("same", "Who are the kids' piano lessons with?", ["Holm"])]),
    # ten more (12 questions), written on 2026-12-04 at 20:30 UTC as a held-out check of
    # 57452bc (docs/results.md)
    (["My brother's name is Tomas.", "Tomas lives in Riga.", "Tomas moved to Tallinn."],
     [("chain", "Where does my brother live?", ["Tallinn"])]),
    (["The book club is reading Middlemarch.", "The book club finished Middlemarch and is now reading Beloved."],
     [("reworded", "What is the book club reading?", ["Beloved"])]),
    (["Iris's yoga teacher is Maya.", "Iris's yoga teacher is now Devi."],
     [("same", "Who is Iris's yoga teacher?", ["Devi"])]),
    (["The school bus comes at 7:40.", "The school bus now comes at 7:25."],
     [("value", "When does the school bus come?", ["7:25", "725"])]),
    (["Paulo supports Benfica.", "Paulo lives in Lisbon.", "Paulo switched allegiance to Porto."],
     [("keep", "Where does Paulo live?", ["Lisbon"]), ("reworded", "Which team does Paulo support?", ["Porto"])]),
    (["Our electricity supplier is EDF.", "We changed electricity supplier to Octopus."],
     [("reworded", "Who is our electricity supplier?", ["Octopus"])]),
    (["Hye-jin's office is on the 3rd floor.", "Hye-jin's office moved to the 7th floor."],
     [("reworded", "Which floor is Hye-jin's office on?", ["7th"])]),
    (["The spare tyre is in the boot.", "I put the spare tyre in the garage."],
     [("reworded", "Where is the spare tyre?", ["garage"])]),
    (["Dmitri's favourite band is Radiohead.", "Radiohead is from Oxford.", "Dmitri's favourite band is now Blur.",
      "Blur is from London."],
     [("chain", "Where is Dmitri's favourite band from?", ["London"])]),
    (["The quiz night is on Wednesday at The Fox.", "The quiz night moved to Thursday."],
     [("keep", "Where is the quiz night?", ["The Fox", "Fox"]), ("value", "When is the quiz night?", ["Thursday"])]),
    # fourteen more (16 questions), written on 2026-12-04 at 21:12 UTC as a held-out check of
    # abb2076 (docs/results.md)
    (["Rosa's hairdresser is Lina.", "Lina works at Salon Bleu.", "Rosa switched hairdressers to Marco.",
      "Marco works at Studio Nine."],
     [("chain", "Where does Rosa's hairdresser work?", ["Studio Nine"])]),
    (["The wifi network is called HomeNet.", "I renamed the wifi network to CastleNet."],
     [("value", "What is the wifi network called?", ["CastleNet"])]),
    (["Felix drives a Golf.", "Felix lives in Bath.", "Felix sold his Golf and bought a Tesla."],
     [("keep", "Where does Felix live?", ["Bath"]), ("reworded", "What car does Felix drive?", ["Tesla"])]),
    (["Anya's allergy medicine is Cetirizine.", "Anya's doctor switched her allergy medicine to Loratadine."],
     [("same", "What is Anya's allergy medicine?", ["Loratadine"])]),
    (["The family reunion is on July 5.", "The family reunion was moved to July 12."],
     [("value", "When is the family reunion?", ["July 12"])]),
    (["Omar's running club meets at Victoria Park.", "Omar's running club now meets at Hyde Park."],
     [("reworded", "Where does Omar's running club meet?", ["Hyde Park"])]),
    (["Beth's boss is Karen.", "Karen is based in Leeds.", "Beth got a new boss, Raj.", "Raj is based in York."],
     [("chain", "Where is Beth's boss based?", ["York"])]),
    (["Nils speaks Swedish.", "Nils's favourite dish is lasagne.", "Nils's favourite dish is now risotto."],
     [("keep", "Which language does Nils speak?", ["Swedish"]), ("same", "What is Nils's favourite dish?", ["risotto"])]),
    (["The garage code is 1357.", "The garage code was changed to 2468."],
     [("value", "What is the garage code?", ["2468"])]),
    (["Chen's pharmacy is Boots on High Street.", "Chen now uses the Lloyds pharmacy instead."],
     [("reworded", "Which pharmacy does Chen use?", ["Lloyds"])]),
    (["Greta teaches at Hill School.", "Greta took a job at Park Academy."],
     [("reworded", "Where does Greta work?", ["Park Academy"])]),
    (["The kids' swimming lessons are on Saturday mornings.", "The kids' swimming lessons switched to Sunday mornings."],
     [("value", "When are the kids' swimming lessons?", ["Sunday"])]),
    (["Pia's partner is Jonas.", "Jonas is a pilot.", "Pia and Jonas broke up; Pia's partner is now Emil.",
      "Emil is a firefighter."],
     [("chain", "What does Pia's partner do?", ["firefighter"])]),
    (["Hector keeps his passport in the desk drawer.", "Hector moved his passport to the safe."],
     [("reworded", "Where does Hector keep his passport?", ["safe"])]),
    # fourteen more (16 questions), written on 2026-12-04 at 21:22 UTC as a held-out check of
    # c76b2e2 (docs/results.md)
    (["Yusuf's favourite café is Bean There.", "Bean There is on Mill Lane.", "Yusuf's favourite café is now Grind House.",
      "Grind House is on Station Road."],
     [("chain", "Where is Yusuf's favourite café?", ["Station Road"])]),
    (["Elena's flight to Rome leaves at 9:15.", "Elena's flight to Rome was rescheduled to 11:40."],
     [("value", "When does Elena's flight to Rome leave?", ["11:40", "1140"])]),
    (["Mark's physiotherapist is Jana.", "Mark now sees a different physiotherapist, Oskar."],
     [("same", "Who is Mark's physiotherapist?", ["Oskar"])]),
    (["The Wi-Fi router is in the hallway.", "We moved the router to the living room."],
     [("reworded", "Where is the router?", ["living room"])]),
    (["Sana's husband is Tariq.", "Tariq works at Rolls-Royce.", "Tariq left Rolls-Royce for Airbus."],
     [("chain", "Where does Sana's husband work?", ["Airbus"])]),
    (["Our plumber is Dave Hill.", "Dave Hill retired, so we now call Sam Reed for plumbing."],
     [("reworded", "Who is our plumber?", ["Sam Reed"])]),
    (["The spare key is with Mrs. Patel next door.", "The spare key is now with Uncle Ray."],
     [("reworded", "Who has the spare key?", ["Uncle Ray", "Ray"])]),
    (["Lily studies law at Durham.", "Lily switched her degree to history."],
     [("keep", "Where does Lily study?", ["Durham"]), ("value", "What does Lily study?", ["history"])]),
    (["The office closes at 6pm.", "From next week the office closes at 5pm."],
     [("value", "When does the office close?", ["5pm", "5 pm"])]),
    (["Arjun's bank is Barclays.", "Arjun moved his account to Monzo."],
     [("reworded", "Which bank is Arjun with?", ["Monzo"])]),
    (["Clara's cat is called Miso.", "Clara's dog is called Biscuit.", "Clara renamed her cat Tofu."],
     [("keep", "What is Clara's dog called?", ["Biscuit"]), ("value", "What is Clara's cat called?", ["Tofu"])]),
    (["Hugo's son goes to Oakfield School.", "Oakfield School is in Didsbury.", "Hugo's son moved to Riverside School.",
      "Riverside School is in Chorlton."],
     [("chain", "Where is Hugo's son's school?", ["Chorlton"])]),
    (["The team standup is at 9:30.", "The team standup is now at 10:00."],
     [("value", "What time is the team standup?", ["10:00", "1000"])]),
    (["Freya is learning Spanish.", "Freya gave up Spanish and started learning Japanese."],
     [("reworded", "Which language is Freya learning?", ["Japanese"])]),
]


def run(model, answer_model, one_by_one: bool = False) -> dict:
    rows = []
    with tempfile.TemporaryDirectory(prefix="cmc-everyday-") as tmp:
        for i, (records, questions) in enumerate(SCENARIOS):
            db = cmc.open_db(Path(tmp) / f"s{i}.db")
            for told in ([[t] for t in records] if one_by_one else [records]):
                cmc.add_records(db, [(t, "everyday") for t in told])
                cmc.extract_pending(db, model)
            for kind, question, golds in questions:
                t0 = time.perf_counter()
                got = cmc.ask(db, answer_model, question)
                rows.append({"scenario": i, "kind": kind, "question": question, "gold": golds,
                             "answer": got.answer, "correct": common.score(got.answer, golds),
                             "seconds": round(time.perf_counter() - t0, 2)})
                common.log(f"{'ok ' if rows[-1]['correct'] else 'NO '} {question} -> {got.answer!r} (gold {golds[0]})")
            db.close()
    by_kind = defaultdict(list)
    for r in rows:
        by_kind[r["kind"]].append(r["correct"])
    summary = {k: {"n": len(v), "right": sum(v)} for k, v in sorted(by_kind.items())}
    summary["all"] = {"n": len(rows), "right": sum(r["correct"] for r in rows)}
    return {"summary": summary, "questions": rows}


def section(doc: dict, source: Path) -> str:
    """The results-page section of one run: right answers by kind, then every wrong one."""
    s = doc["summary"]
    rows = [[k, str(v["n"]), f"{v['right']} ({v['right'] / v['n']:.0%})"] for k, v in s.items()]
    wrong = [f"- {q['question']} → {q['answer']!r} (gold {q['gold'][0]!r})" for q in doc["questions"] if not q["correct"]]
    return "\n".join([
        f"### Everyday memory, extraction `{doc['model']}`, reader `{doc['answer_model']}`"
        + (", one record per add" if doc.get("one_by_one") else ""), "",
        f"Generated by `bench/everyday.py` from `{common.shown(source)}`; do not edit by hand. "
        f"cmc commit `{doc['commit'][:12]}`.", "",
        results.table(["kind", "questions", "right"], rows), "", "Wrong answers:", "", *wrong, "",
        "```sh", doc["command"], "```"])


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--model", default=None, help="GGUF path or 'gemma' / 'qwen' (default: embedded gemma)")
    p.add_argument("--answer-model", default=None, help="reader, if not --model")
    p.add_argument("--json", type=Path, default=None, help=f"write the results (e.g. {common.shown(OUT)})")
    p.add_argument("--one-by-one", action="store_true",
                   help="add each record on its own (one extraction per record), not a scenario at once")
    p.add_argument("--doc", type=Path, default=None,
                   help="replace this page's everyday section for the reader run (needs --json)")
    args = p.parse_args(argv)
    models = common.Models(args.model, args.answer_model)
    doc = run(models.extractor(), models.reader(), args.one_by_one)
    doc.update({"model": args.model or "gemma", "answer_model": args.answer_model or args.model or "gemma",
                "one_by_one": args.one_by_one,
                "commit": common.commit(), "command": " ".join(["python bench/everyday.py", *(argv or sys.argv[1:])])})
    for kind, s in doc["summary"].items():
        print(f"{kind:>9}  {s['right']:3d} / {s['n']:3d}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(doc, indent=1) + "\n")
        if args.doc:
            name = f"everyday-{doc['model']}-{doc['answer_model']}" + ("-one-by-one" if args.one_by_one else "")
            args.doc.write_text(results.replace_section(args.doc.read_text(), name, section(doc, args.json)))
    return doc


if __name__ == "__main__":
    main()
