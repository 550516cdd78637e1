"""Graded verdicts: only a definite failure rejects; an answer the evidence states but
cannot tie to the question is grounded; `verify_answer` with no options is the agent's."""

from __future__ import annotations

import pytest
from verifier_utils import Store, check, grounded, rejected, stated, supported

from graph.agent import wikipedia_environment
from graph.settings.context import Context
from graph.verifier import GROUNDING_STATED, verify_answer
from graph.verifier.answer_forms import core_answer
from graph.verifier.answer_yes_no import yes_or_no_said
from graph.verifier.evidence.stored import stored_items
from graph.verifier.kinds.answer_types import NOTHING_EXPECTED, expected_class
from graph.verifier.kinds.described import described_nouns
from graph.verifier.text.casing import recased
from graph.verifier.text.normalise import analyse
from graph.verifier.text.wordstems import misspelt
from graph.verifier.trust.denials import negated
from tools.base import Evidence
from tools.wikipedia.environment import WikipediaEnvironment

BORN = "In what year was John Smith born?"


@pytest.fixture
def store() -> Store:
    return Store()


def test_every_verdict_has_one_of_three_outcomes(store: Store) -> None:
    ids = store.add("Allister Brimble", 0)  # "born 1970 in Westminster, London"
    question = "In what year was the video game composer Allister Brimble born?"
    right, wrong = check(store, question, "1970"), check(store, question, "1971")
    supported(right, GROUNDING_STATED, ids)
    assert right["outcome"] == "verified" and right["supported"]
    rejected(wrong)
    assert not wrong["supported"]


@pytest.mark.parametrize(
    "frame",
    [
        "It is often wrongly said that John Smith was born in 1970.",
        "It is not true that John Smith was born in 1970.",
        "Early reports claimed that John Smith was born in 1970, later shown to be false.",
        "Some sources doubt that John Smith was born in 1970.",
        "That John Smith was born in 1970 is a myth.",
    ],
)
def test_an_answer_stated_only_in_a_denying_or_doubting_clause_is_rejected(
    store: Store, frame: str
) -> None:
    store.add_text("John Smith (actor)", "John Smith is an American actor.")
    store.add_text("John Smith (actor)", frame, 1)
    rejected(check(store, BORN, "1970"), "denied")


def test_a_frame_denies_only_its_own_clause() -> None:
    sentence = analyse("He was born in Paris, and it is not true that he died in Rome.")
    assert not negated(sentence, analyse("Paris"))
    assert negated(sentence, analyse("Rome"))


def test_the_same_fact_stated_plainly_elsewhere_is_not_denied(store: Store) -> None:
    store.add_text("John Smith (actor)", "It is often wrongly said that he was born in 1970.")
    store.add_text("John Smith (actor)", "John Smith (born 1970) is an American actor.", 1)
    assert check(store, BORN, "1970")["outcome"] != "rejected"


def test_a_strict_part_of_a_longer_name_is_never_verified(store: Store) -> None:
    # "Edward John "Eddie" Izzard ... is an English stand-up comedian ..."
    store.add_text("Eddie Izzard", "Eddie Izzard is an English stand-up comedian and actor.")
    question = "Which English comedian starred in the film?"
    grounded(check(store, question, "Eddie"), "part of a longer name", "'Eddie Izzard'")
    assert check(store, question, "Eddie Izzard")["outcome"] != "rejected"


def test_a_part_of_a_name_is_no_part_when_the_question_asks_for_one(store: Store) -> None:
    # Told to give the whole name, the agent would leave the right answer.
    store.add_text("Daniel Craig", "Daniel Wroughton Craig (born 1968) is an English actor.")
    for question in (
        "What is the middle name of the English actor born in 1968?",
        "Which surname did the English actor born in 1968 share with his father?",
    ):
        verdict = check(store, question, "Wroughton" if "middle" in question else "Craig")
        assert "longer name" not in verdict["reason"], question
    grounded(check(store, "Which actor was born in 1968?", "Wroughton"), "'Wroughton Craig'")


@pytest.mark.parametrize(
    "sentence",
    [
        "Gray was jailed for the murders of Constables Ann Bell and Joan Orr in 2009.",
        "Gray was jailed for the murders of Police Constables Ann Bell and Joan Orr.",
        "Gray was jailed for the murders of Sgt. Ann Bell and Officer Joan Orr.",
    ],
)
def test_a_rank_before_names_is_no_part_of_them(store: Store, sentence: str) -> None:
    store.add_text("Tom Gray (criminal)", sentence)
    question = "The murders of which police officers led to Tom Gray being jailed?"
    verdict = check(store, question, "Ann Bell and Joan Orr")
    assert "longer name" not in verdict["reason"], verdict["reason"]
    grounded(check(store, question, "Ann"), "part of a longer name", "'Ann Bell'")


def test_a_name_without_its_numeral_is_a_part(store: Store) -> None:
    store.add_text("Korea under Japanese rule", "It ended at the conclusion of World War II.")
    store.add_text("Henry VIII", "Henry VIII was King of England from 1509 until 1547.", 1)
    question = "Korean rule by Japan ended with the conclusion of what?"
    grounded(check(store, question, "World War"), "part of a longer name", "'World War II'")
    assert check(store, question, "World War II")["outcome"] != "rejected"
    grounded(check(store, "Which king ruled England in 1520?", "Henry"), "'Henry VIII'")


def test_a_part_ending_a_sentence_or_an_initial_is_still_a_part(store: Store) -> None:
    store.add_text("Big Hero 6 (film)", "Big Hero 6 was released by Walt Disney Pictures.")
    store.add_text("David Snoke", "David Snoke wrote a paper with Michael J. Behe in 2004.", 1)
    grounded(check(store, "Which label released Big Hero 6?", "Pictures"), "'Disney Pictures'")
    grounded(check(store, "Who wrote a paper with David Snoke?", "Michael J"), "'Michael J. Behe")


def test_a_name_standing_alone_somewhere_is_no_part(store: Store) -> None:
    store.add_text("Berlin", "East Berlin was the capital of East Germany.")
    store.add_text("Berlin", "Berlin is the capital and largest city of Germany.", 1)
    assert check(store, "What is the capital of Germany?", "Berlin")["outcome"] != "rejected"


def test_punctuation_titles_possessives_and_describing_words_end_a_name(store: Store) -> None:
    store.add_text("Dessau", "Dessau, Germany is a town on the Mulde.")
    store.add_text("Neil Welch", "FBI Director Neil Welch led the inquiry.", 1)
    store.add_text("Navy", "It was built for the United Kingdom's Royal Navy.", 2)
    store.add_text("Vilnius Cathedral", "He was a priest at the Cathedral of Lithuania.", 3)
    store.add_text("Lee Zeldin", "The district is held by Republican Lee Zeldin.", 4)
    store.add_text("T. J. Lavin", "T. J. Lavin, its host, is an American BMX rider.", 5)
    for question, answer in (
        ("Which town lies on the Mulde?", "Dessau"),
        ("Who led the inquiry?", "Neil Welch"),
        ("For whose Royal Navy was it built?", "United Kingdom's"),
        ("In which country was he a priest?", "Lithuania"),
        ("Who holds the district?", "Lee Zeldin"),
        ("What sport does the host of The Challenge ride?", "BMX rider"),
    ):
        assert "longer name" not in check(store, question, answer)["reason"]


def test_a_common_noun_in_lower_case_is_no_name_standing_alone(store: Store) -> None:
    # "in 21 states" says nothing of "States"; the sentence naming it says "United States".
    store.add_text("Super Outbreak", "The outbreak struck the Southern United States in April.")
    store.add_text("Super Outbreak", "Tornadoes were confirmed in 21 states from Texas.", 1)
    question = "The outbreak struck the south of which country in April?"
    grounded(check(store, question, "States"), "part of a longer name", "'United States'")
    assert "longer name" not in check(store, question, "United States")["reason"]


def test_a_particle_joins_two_capitalised_words_only(store: Store) -> None:
    store.add_text("Richard Kuklinski", "He worked for the DeCavalcante crime family of Newark.")
    store.add_text("Richard Kuklinski", "Before that he worked for the Bank of America.", 1)
    question = "Which crime family did the contract killer Richard Kuklinski work for?"
    verdict = check(store, question, "DeCavalcante crime family")
    assert "longer name" not in verdict["reason"], verdict["reason"]
    bank = "Which bank did Richard Kuklinski work for?"
    grounded(check(store, bank, "Bank"), "part of a longer name", "'Bank of America'")


def test_a_nationality_asked_describes_the_names_after_it(store: Store) -> None:
    store.add_text("Angelica Kauffman", "Angelica Kauffman was a Swiss Neoclassical painter.")
    question = "What is the nationality of the painter Angelica Kauffman?"
    assert check(store, question, "Swiss")["outcome"] == "verified"
    store.add_text("Korean Air", "Korean Air is the largest airline of South Korea.", 1)
    airline = "Which airline is the largest airline of South Korea?"
    grounded(check(store, airline, "Korean"), "part of a longer name", "'Korean Air'")


def test_a_name_inside_a_stored_title_is_a_part(store: Store) -> None:
    store.add_text("Gatwick Airport", "It is the second-busiest airport in the country.")
    store.add_text("Gatwick Airport", "Gatwick lies south of the city.", 1)
    grounded(check(store, "Which airport is the second-busiest?", "Gatwick"), "Gatwick Airport")


def test_an_answer_the_question_names_is_grounded(store: Store) -> None:
    store.add_text("Lin Fa Temple", "Lin Fa Temple is a place of worship in Tai Hang, Hong Kong.")
    store.add_text("Lin Fa Temple", "It is dedicated to Guanyin.", 1)
    question = "Lin Fa Temple was used as a worship place for what bodhisattva?"
    grounded(check(store, question, "Lin Fa Temple"), "the question itself names it")


def test_an_answer_the_question_names_in_the_plural_is_grounded(store: Store) -> None:
    store.add_text(
        "Prandtl number",
        "The Prandtl number is a dimensionless number, named after the physicist Ludwig Prandtl.",
    )
    store.add_text("Ludwig Prandtl", "He was a pioneer in the applied science of aeronautics.", 1)
    question = "Prandtl numbers are named after a pioneer in what applied science?"
    grounded(check(store, question, "Prandtl number"), "the question itself names it")


def test_an_answer_the_question_names_misspelt_is_grounded(store: Store) -> None:
    store.add_text("Michael Spilotro", "Michael Spilotro was the brother of Tony Spilotro.")
    store.add_text("Tony Spilotro", "Tony Spilotro was an American mobster in Las Vegas.", 1)
    question = "MIchael Silotro was the brother of which American mobster?"
    grounded(check(store, question, "Michael Spilotro"), "the question itself names it")
    assert check(store, question, "Tony Spilotro")["outcome"] == "verified"


@pytest.mark.parametrize(
    ("word", "other", "misspelt_or_not"),
    [
        ("silotro", "spilotro", True),  # a letter dropped
        ("ramola", "romola", True),  # one changed
        ("repulic", "republic", True),
        ("joke", "joker", False),  # an ending added: another word
        ("russia", "russian", False),
        ("band", "bend", False),  # too short to tell
        ("paris", "xaris", False),  # the first letter differs
        ("romola", "romola", False),
    ],
)
def test_a_misspelling_is_one_letter_inside_a_longer_word(
    word: str, other: str, misspelt_or_not: bool
) -> None:
    assert misspelt(word, other) is misspelt_or_not
    assert misspelt(other, word) is misspelt_or_not


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        (
            "My Lover is a South Korean series starring Yoon Se-ah, an actress of which"
            " nationality?",
            "South Korean",
        ),
        (
            "The royal commission, one of many held in Australia, was held in which country?",
            "Australia",
        ),
    ],
)
def test_a_shared_attribute_the_question_names_is_still_weighed(
    store: Store, question: str, answer: str
) -> None:
    # A series and its star share a nationality: naming one is no start from the other.
    store.add_text("Yoon Se-ah", "Yoon Se-ah is a South Korean actress.")
    store.add_text("Woodward Royal Commission", "It was a royal commission of Australia.", 1)
    assert "names it" not in check(store, question, answer)["reason"]
    lin_fa = "Lin Fa Temple was used as a worship place in which country?"
    store.add_text("Lin Fa Temple", "Lin Fa Temple is a place of worship in Hong Kong.", 2)
    grounded(check(store, lin_fa, "Lin Fa Temple"), "the question itself names it")


def test_the_asked_noun_in_an_answer_is_not_the_question_naming_it(store: Store) -> None:
    store.add_text("Battle of Imphal", "The Battle of Imphal took place around Imphal in 1944.")
    question = "What battle where Japanese armies attacked Imphal ended in 1944?"
    assert "names it" not in check(store, question, "Battle of Imphal")["reason"]


@pytest.mark.parametrize(
    ("given", "core"),
    [
        ("in 1954", "1954"),
        ("In March 1954", "March 1954"),
        ("Taylor Swift.", "Taylor Swift"),
        ("about 80,000", "80,000"),
        ("approximately 1,200", "1,200"),
        ("The answer is Taylor Swift.", "Taylor Swift"),
        ("Final answer: 1954", "1954"),
    ],
)
def test_words_that_only_introduce_an_answer_are_dropped(given: str, core: str) -> None:
    assert core_answer(given) == core


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ("Yes, both are American.", "Yes"),
        ("no - they were born in different countries", "no"),
        ("No. They are not.", "No"),
        ("yes they are", "yes"),
        ("No Doubt", "No Doubt"),
        ("No. 5", "No. 5"),
    ],
)
def test_a_yes_or_no_is_read_without_its_reason_when_the_question_asks_one(
    given: str, said: str
) -> None:
    assert yes_or_no_said("Are they both American?", given) == said
    assert yes_or_no_said("Veronica and Pellaea, both are flowering plants?", given) == said
    assert yes_or_no_said("If you flew north would you be in Ohio?", given) == said
    assert yes_or_no_said("Which sitcom starred him?", given) == given
    assert yes_or_no_said("Name the sitcom that starred him.", given) == given


BOTH_AMERICAN = "Are Ann Lee and Bo Rand both American?"


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ("Both are American.", "yes"),
        ("They are both American", "yes"),
        ("They both are American.", "yes"),
        ("Both of them were American.", "yes"),
        ("True", "yes"),
        ("Correct, both are American.", "yes"),
        ("Neither is American.", "no"),
        ("Only Ann Lee is American.", "no"),
        ("False.", "no"),
        ("Both are British.", "Both are British."),  # another attribute: no yes
        ("Both were American singers", "Both were American singers"),  # more than asked
        ("Only Cy Ross is American.", "Only Cy Ross is American."),  # a name not asked
        ("Both Sides Now", "Both Sides Now"),  # titles, no statements
        ("Only Fools and Horses", "Only Fools and Horses"),
        ("True Lies", "True Lies"),
    ],
)
def test_a_statement_is_read_as_the_yes_or_no_it_says(given: str, said: str) -> None:
    assert yes_or_no_said(BOTH_AMERICAN, given) == said
    assert yes_or_no_said("Which of them is American?", given) == given  # no yes/no asked


def test_a_statement_for_a_yes_or_no_is_checked_as_that_yes_or_no() -> None:
    store = Store()
    store.add_text("Ann Lee", "Ann Lee (born 1962) is an American painter.")
    store.add_text("Bo Rand", "Bo Rand (born 1940) is an American sculptor.")
    assert check(store, BOTH_AMERICAN, "Both are American.")["outcome"] == "verified"
    rejected(check(store, BOTH_AMERICAN, "Neither is American."), "contradicts")


@pytest.mark.parametrize(
    "question",
    [
        "Which British sitcom did Paul Eddington star in?",
        "Name the British sitcom Paul Eddington starred in.",
        "The British sitcom that Paul Eddington starred in?",
    ],
)
def test_a_title_that_opens_with_yes_answers_a_question_that_asks_no_yes_or_no(
    store: Store, question: str
) -> None:
    store.add_text("Yes, Minister", "Yes, Minister is a British political satire sitcom.")
    store.add_text("Paul Eddington", "Paul Eddington starred in the sitcom Yes, Minister.")
    verdict = check(store, question, "Yes, Minister")
    assert verdict["outcome"] == "verified", verdict["reason"]


@pytest.mark.parametrize(
    "kept",
    [
        "Sammy Davis Jr.",
        "No. 5",
        "No Doubt",
        "Yesterday",
        "about Schmidt",
        "The Answer",
        "The Answer Is Love",
    ],
)
def test_an_answer_that_only_looks_introduced_is_kept(kept: str) -> None:
    assert core_answer(kept) == kept


@pytest.mark.parametrize("explained", ["Yes, both are.", "yes they are", "Yes both were"])
def test_an_explained_yes_is_checked_as_yes(store: Store, explained: str) -> None:
    store.add_text("Gene Kelly", "Gene Kelly was an American dancer and actor.")
    store.add_text("Stephen King", "Stephen King is an American author.")
    question = "Gene Kelly and Stephen King, are they both American?"
    plain = check(store, question, "yes")
    assert check(store, question, explained)["outcome"] == plain["outcome"] != "rejected"


def test_a_name_opening_with_no_is_no_answer_no() -> None:
    store = Store()
    store.add_text("No Doubt", "No Doubt is an American rock band formed in 1986.")
    question = "Which American rock band was formed in 1986?"
    assert check(store, question, "No Doubt")["outcome"] != "rejected"


def test_a_name_given_in_lower_case_is_read_as_the_evidence_writes_it(store: Store) -> None:
    store.add_text(
        "Kim Huybrechts",
        "Kim Huybrechts reached the quarter-finals of the 2014 Grand Slam of Darts.",
    )
    question = "What event did Kim Huybrechts reach the quarter-finals of?"
    written, lowered = (
        check(store, question, a) for a in ("2014 Grand Slam of Darts", "2014 grand slam of darts")
    )
    assert lowered["outcome"] == written["outcome"] != "rejected"


def test_a_reworded_year_is_verified_as_the_year(store: Store) -> None:
    ids = store.add("Allister Brimble", 0)
    question = "In what year was the video game composer Allister Brimble born?"
    supported(check(store, question, "in 1970"), GROUNDING_STATED, ids)


def test_a_comparison_the_evidence_cannot_compute_is_grounded(store: Store) -> None:
    store.add_text("Velvetpark", "Velvetpark is a lesbian and queer arts and culture magazine.")
    store.add_text("Shape (magazine)", "Shape is an American fitness magazine.", 1)
    question = "Is Velvetpark or Shape written more for a lesbian readership?"
    verdict = check(store, question, "Velvetpark")
    assert verdict["outcome"] == "grounded", verdict["reason"]


def test_without_options_it_is_the_agents_verifier(store: Store) -> None:
    store.search("Allister Brimble")
    environment = wikipedia_environment(Context())
    assert isinstance(environment, WikipediaEnvironment)
    for question, answer in (
        ("In what year was the video game composer Allister Brimble born?", "1970"),
        ("Where was the video game composer Allister Brimble born?", "Westminster"),
        ("Who is Allister Brimble?", "Brimble"),
    ):
        plain = verify_answer(question, answer, store.evidence)
        assert plain == environment.checker(question, answer, store.evidence)


def test_a_grounded_answer_cites_what_states_it(store: Store) -> None:
    ids = store.add("Allister Brimble", 0)
    verdict = check(store, "Which composer did the game use?", "Allister Brimble")
    stated(verdict, ids)


def test_a_particle_joins_a_longer_name(store: Store) -> None:
    store.add_text("Eyes of Laura Mars", "Eyes of Laura Mars is a 1978 American thriller film.")
    question = "What 1978 thriller is the model best known for?"
    grounded(check(store, question, "Eyes"), "'Eyes of Laura")


def test_a_non_alternative_is_grounded_only_when_the_pair_may_be_misread(store: Store) -> None:
    store.add_text(
        "Super Junior", "Super Junior, also known as SJ or SuJu, is a South Korean band."
    )
    question = "What nationality is the band known as SJ or SuJu?"
    assert check(store, question, "South Korean")["outcome"] != "rejected"


def test_the_entity_a_question_describes_is_not_what_it_asks(store: Store) -> None:
    store.search("Brian Bosworth")  # "... nicknamed "The Boz," is a former ... football player"
    question = 'What is the nickname of the football player that co-starred in the film "Phase IV"?'
    grounded(check(store, question, "Brian Bosworth"), "the player the question describes")
    assert described_nouns(question.casefold(), "nickname") == {"player"}
    asked = "Who was the English actress who played the mother?"
    assert described_nouns(asked.casefold(), "") == frozenset()
    gang = "what city was the gang that was based in the port named after?"
    assert described_nouns(gang, "city") == {"gang"}, "a verb is no described noun"


def test_a_described_bridge_of_the_wrong_class_is_rejected_not_grounded(store: Store) -> None:
    store.search("Molly Shannon")  # "... is an American comic actress who was a cast member ..."
    question = "What show was the actress who starred in What Goes Up a cast member in 1995?"
    rejected(check(store, question, "Molly Shannon"), "asks for a show", "is a person")
    assert check(store, question, "Saturday Night Live")["outcome"] == "verified"


def test_an_entity_described_as_best_known_for_something_is_the_bridge(store: Store) -> None:
    store.search("Life in Mono (album)")  # "... third studio album by English pop singer ..."
    store.search("Emma Bunton")  # "... is an English singer ..." "best known as a member of"
    question = (
        "Life in Mono is the third studio album by an English singer best known as a member"
        " of what girl group?"
    )
    grounded(check(store, question, "Emma Bunton"), "the singer the question describes")
    assert check(store, question, "the Spice Girls")["outcome"] == "verified"
    assert described_nouns(question.casefold(), "group") == {"singer"}, "not 'best'"
    widely = "what did the actor widely known for x win?"
    assert described_nouns(widely, "") == {"actor"}


@pytest.mark.parametrize(
    "question",
    [
        "On what date did the founder of Halvorsen Records die?",
        "What date was the label founded that the Norwegian singer recorded for?",
        "Halvorsen Records was founded by a singer who died when?",
        "What is the date of death of the founder of Halvorsen Records?",
    ],
)
def test_a_name_given_where_a_date_is_asked_is_grounded(store: Store, question: str) -> None:
    store.add_text("Halvorsen Records", "Halvorsen Records was founded by Arne Dahl in 1931.")
    store.add_text("Arne Dahl", "Arne Dahl was a Norwegian singer who died on 3 May 1990.", 1)
    grounded(check(store, question, "Arne Dahl"), "asks when, and it gives no date")
    assert check(store, question, "3 May 1990")["outcome"] != "rejected"
    assert "gives no date" not in check(store, question, "May 1990")["reason"]


def test_an_answer_the_question_names_beside_a_misread_pair_is_not_rejected(
    store: Store,
) -> None:
    store.add_text("Calvin Harris", "Calvin Harris is a Scottish DJ and record producer.")
    store.add_text("John Newman", "John Newman is an English singer and songwriter.")
    store.add_text("I'm Not Alone", '"I\'m Not Alone" is a song by Calvin Harris, from 2009.')
    store.add_text("Blame", '"Blame" is a song by Calvin Harris featuring John Newman, from 2014.')
    question = (
        'Which single came first, "I\'m Not Alone" by Calvin Harris or John Newman\'s "Blame"'
        " featuring Calvin Harris?"
    )
    assert check(store, question, "I'm Not Alone")["outcome"] != "rejected"
    rejected(check(store, question, "Richard"))


def test_a_rival_stated_only_in_a_denying_clause_does_not_compete(store: Store) -> None:
    store.add_text("John Smith (actor)", "John Smith is an American actor.")
    store.add_text("John Smith (actor)", "John Smith was born in 1970 in Leeds.", 1)
    alone = check(store, BORN, "1970")
    store.add_text("John Smith (actor)", "It is not true that John Smith was born in 1971.", 2)
    assert check(store, BORN, "1970")["outcome"] == alone["outcome"] == "verified"


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("In what year was the video game composer Allister Brimble born?", "1970"),
        ("Who was born first, Allister Brimble or John Smith?", "Allister Brimble"),
    ],
)
def test_a_question_typed_in_lower_case_gets_the_same_verdict(
    store: Store, question: str, answer: str
) -> None:
    store.add("Allister Brimble", 0)
    store.add_text("John Smith (actor)", "John Smith (born 1985) is an American actor.")
    cased, lowered = check(store, question, answer), check(store, question.lower(), answer)
    assert lowered["outcome"] == cased["outcome"] == "verified"


def test_recasing_takes_the_evidence_capitals_of_names_only() -> None:
    texts = [("The 1982 FIFA World Cup was held in Spain. West Germany played Austria.", "Spain")]
    assert recased("which world cup was held where west germany played austria?", texts) == (
        "Which World Cup was held where West Germany played Austria?"
    )
    assert recased("Which world cup?", texts) == "Which world cup?"  # capitals given: kept
    assert recased("the answer", [("The answer is here.", "Here")]) == "The answer"


def test_a_sentence_stored_twice_counts_once(store: Store) -> None:
    store.add("Allister Brimble", 0, 1)
    again: Evidence = {**store.evidence[0], "id": "e9"}
    assert stored_items([*store.evidence, again]) == stored_items(store.evidence)
    question = "In what year was the video game composer Allister Brimble born?"
    assert verify_answer(question, "1970", [*store.evidence, again]) == verify_answer(
        question, "1970", store.evidence
    )


def _ranked_mountains(store: Store) -> None:
    store.add_text("Saltoro Kangri", "Saltoro Kangri is a peak in the Karakoram.")
    store.add_text("Saltoro Kangri", "It is the 31st highest mountain in the world.", 1)
    store.add_text("Langtang Ri", "Langtang Ri is a mountain in Nepal.")
    store.add_text(
        "Langtang Ri", "At an elevation of 7205 m it is the 106th highest mountain in the world.", 1
    )


def test_a_rank_is_no_height_and_ranks_by_another_superlative_decide_nothing(
    store: Store,
) -> None:
    _ranked_mountains(store)
    question = "Which is the lower mountain, Saltoro Kangri or Langtang Ri?"
    for answer in ("Saltoro Kangri", "Langtang Ri"):
        assert check(store, question, answer)["outcome"] == "grounded", answer


def test_ranks_by_the_questions_own_superlative_decide_it(store: Store) -> None:
    _ranked_mountains(store)
    question = "Which is the higher mountain, Saltoro Kangri or Langtang Ri?"
    verdict = check(store, question, "Saltoro Kangri")
    assert verdict["outcome"] == "verified", verdict["reason"]
    assert "#31 highest mountain in the world (e2)" in verdict["reason"]
    assert "#106 highest mountain in the world (e4)" in verdict["reason"]
    assert check(store, question, "Langtang Ri")["outcome"] == "rejected"


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("the 3rd largest city in France", "the 5th largest city in Germany"),  # two scopes
        ("the 3rd largest city in France", "the 5th largest port in France"),  # two nouns
        ("the 3rd largest city in France", "the 3rd largest city in France"),  # one rank
        ("the 3rd largest city, and the 9th largest city", "the 5th largest city"),
        ("the twenty-first largest city in France", "the 5th largest city in France"),
    ],
)
def test_ranks_of_different_things_or_one_rank_decide_nothing(first: str, second: str) -> None:
    store = Store()
    store.add_text("Lyon", f"Lyon is {first}.")
    store.add_text("Nantes", f"Nantes is {second}.")
    question = "Which city is larger, Lyon or Nantes?"
    for answer in ("Lyon", "Nantes"):
        assert check(store, question, answer)["outcome"] == "grounded", answer


def test_an_undecided_both_question_names_the_words_it_looked_for_in_order(
    store: Store,
) -> None:
    store.add_text("Manhattan West", "Manhattan West is a development of office buildings.")
    store.add_text("Singer Building", "The Singer Building was an office building.")
    question = "Are Manhattan West and Singer Building both projects in New York?"
    verdict = check(store, question, "yes")
    assert verdict["outcome"] == "grounded"
    assert "does not state 'projects in new york' of both" in verdict["reason"]


def test_recasing_a_hostile_run_of_capitals_takes_its_parts_only() -> None:
    run = " ".join(["Alpha"] * 5000)  # every part of it once made the work grow as its square
    assert recased("what is alpha alpha?", [(run, "Beta")]) == "What is Alpha Alpha?"


def test_an_answer_of_thousands_of_parts_is_looked_for_whole(store: Store) -> None:
    store.add_text("Ann Lee", "Ann Lee is a painter. " * 2000)  # each part once scanned it all
    answer = "Friday, " * 5000 + "May 4, 1962"
    verdict = check(store, "When was Ann Lee born?", answer)
    rejected(verdict)
    assert verdict["missing"] == [answer.strip()]
    few = check(store, "When was Ann Lee born?", "Friday, Friday, Monday")
    assert few["missing"] == ["Friday", "Monday"]  # a part given twice is looked for once


def test_a_name_given_as_its_stored_page_titles_it_is_checked_as_the_name(store: Store) -> None:
    store.add_text("Lolita (1962 film)", "Lolita is a 1962 film directed by Stanley Kubrick.")
    store.add_text("Ray Stark", "Ray Stark produced Lolita, written by Vladimir Nabokov.")
    question = "Which film was written by Vladimir Nabokov and produced by Ray Stark?"
    titled = check(store, question, "Lolita (1962 film)")
    assert titled["outcome"] == check(store, question, "Lolita")["outcome"] != "rejected"
    rejected(check(store, question, "Lolita (1997 film)"))


def test_the_middle_name_of_someone_asks_for_no_person() -> None:
    question = "What is the middle name of the English actor who starred in Layer Cake?"
    assert expected_class(question) == NOTHING_EXPECTED
    assert (
        expected_class("What is the name of the English actor who starred in it?").noun == "actor"
    )


def test_a_described_bridge_is_named_with_its_article(store: Store) -> None:
    store.add_text("Daniel Craig", "Daniel Craig is an English actor.")
    store.add_text("Layer Cake (film)", "Layer Cake is a 2004 film starring Daniel Craig.")
    question = "What is the middle name of the English actor who starred in Layer Cake?"
    verdict = check(store, question, "Daniel Craig")
    assert verdict["outcome"] == "grounded"
    assert "its article calls it an actor: the actor the question describes" in verdict["reason"]
