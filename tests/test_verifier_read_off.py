"""A right answer read off what the evidence states, not written in it, is never rejected
as absent: a decade or century of a stated year, an age from a range of years, a
country for its people's adjective, a year range's shortened end, an age with its unit,
an amount with its scale abbreviated, an ordinal in figures. A value nothing stated
gives is still rejected."""

from __future__ import annotations

import pytest
from verifier_utils import Store, check, grounded, rejected

from graph.verifier.answer_asked import without_age_unit
from graph.verifier.text.normalise import analyse

BORN = "In which decade was Ann Lee born?"
BUILT = "In which century was Holm Church built?"
DIED = "How old was Ann Lee when she died?"
AGED = "How old was Bo Rand when he died?"
REIGN = "How many years did King Olaf reign?"
NATIONALITY = "What nationality is Ann Lee?"
SEASON = "During which television season did Night Shift air?"
BUDGET = "What was the budget of Night Shift?"
RANK = "What rank did Night Shift reach?"
RUNTIME = "How long is the film Night Shift?"
AREA = "What is the area of Holm Parish?"
FOUNDED = "When was Holm Church founded?"
VIEWERS = "How many people watched the pilot of Night Shift?"
EMMYS = "How many times did Night Shift win an Emmy?"
PLACE = "In what position did Ann Lee finish in the 1999 race?"


@pytest.fixture
def store() -> Store:
    store = Store()
    store.add_text("Ann Lee", "Ann Lee (4 May 1962 – 6 June 2010) was an American painter.")
    store.add_text("Ann Lee", "She died at the age of 48 in Austin, Texas.", 1)
    store.add_text("Ann Lee", "Ann Lee finished 2nd in the 1999 race.", 2)
    store.add_text("Bo Rand", "Bo Rand (1940–1990) was a painter.")
    store.add_text("Holm Church", "Holm Church is a church in Kent, built in 1482.")
    store.add_text("King Olaf", "King Olaf reigned from 1016 to 1028.")
    store.add_text("Holm Parish", "Holm Parish has an area of 1,234 km2.")
    store.add_text("Holm Church", "Its first church was founded in 500 BC.", 1)
    store.add_text("Night Shift", "Night Shift is a sitcom that aired in the 1999–00 season.")
    store.add_text("Night Shift", "It was made on a budget of $5 million.", 1)
    store.add_text("Night Shift", "Its theme reached number one on the Billboard chart.", 2)
    store.add_text("Night Shift", "The pilot film has a running time of 142 minutes.", 3)
    store.add_text("Night Shift", "The pilot was watched by 1,500,000 people.", 4)
    store.add_text("Night Shift", "Night Shift won an Emmy twice.", 5)
    return store


@pytest.mark.parametrize(
    ("question", "answer", "how"),
    [
        (BORN, "the 1960s", "the decade of 1962"),
        (BORN, "early 1960s", "early part of the decade of 1962"),
        (BUILT, "the 15th century", "the century of 1482"),
        (BUILT, "fifteenth century", "the century of 1482"),
        (BUILT, "late 15th century", "late part of the century of 1482"),
        (AGED, "50", "the years from 1940 to 1990"),
        (AGED, "49 years old", "the years from 1940 to 1990"),  # a birthday not yet reached
        (REIGN, "12 years", "the years from 1016 to 1028"),
        (REIGN, "11", "the years from 1016 to 1028"),
        (NATIONALITY, "United States", "the country of the American"),
        (NATIONALITY, "USA", "the country of the American"),
    ],
)
def test_a_value_read_off_a_stated_one_is_grounded(
    store: Store, question: str, answer: str, how: str
) -> None:
    verdict = check(store, question, answer)
    grounded(verdict, "is read off stored", how)
    assert verdict["evidence_ids"]


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        (BORN, "the 1970s"),
        (BORN, "late 1960s"),  # 1962 is early in the decade
        (BUILT, "the 14th century"),
        (AGED, "47"),
        (REIGN, "20 years"),
        (NATIONALITY, "France"),
        ("What genre is Holm Church?", "the 15th century"),  # no time asked
        ("How tall is King Olaf?", "12"),  # no age or span of years asked
    ],
)
def test_a_value_nothing_stated_gives_is_still_rejected(
    store: Store, question: str, answer: str
) -> None:
    rejected(check(store, question, answer))


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        (DIED, "48 years old"),
        (DIED, "aged 48"),
        (DIED, "48-year-old"),
        (SEASON, "1999–2000"),
        (SEASON, "1999-00"),
        (BUDGET, "$5M"),
        (BUDGET, "US$5 million"),
        (BUDGET, "$5,000,000"),
        (PLACE, "second"),
        (RANK, "No. 1"),
        (RANK, "no.1"),
        (RUNTIME, "142 min"),
        (RUNTIME, "142 mins"),
        (VIEWERS, "one and a half million"),
        (VIEWERS, "1.5 million people"),
        (VIEWERS, "1 500 000"),  # SI style: thousands set apart by spaces
        ("When was Ann Lee born?", "Friday, May 4, 1962"),  # its weekday
        (REIGN, "about twelve years"),
        (VIEWERS, "about 1\u202f500\u202f000 people"),
        (RUNTIME, "2 hours 22 minutes"),
        (EMMYS, "two times"),
        (EMMYS, "Two times"),
        (AREA, "1,234 square kilometres"),
        (AREA, "1234 sq km"),
        (FOUNDED, "500 BCE"),
    ],
)
def test_a_value_written_otherwise_is_read_as_stated(
    store: Store, question: str, answer: str
) -> None:
    verdict = check(store, question, answer)
    assert verdict["outcome"] != "rejected", verdict["reason"]
    assert verdict["evidence_ids"]


def test_a_nationality_of_a_state_a_sentence_names_is_grounded() -> None:
    store = Store()
    store.add_text("Bo Dale", "Bo Dale was born in Austin, Texas, and became a painter.")
    grounded(check(store, "What nationality is Bo Dale?", "American"), "a place it names")
    grounded(check(store, "What country is Bo Dale from?", "United States"), "a place it names")
    rejected(check(store, "What nationality is Bo Dale?", "Canadian"))


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("1998–99", ("1998", "1999")),
        ("1999-00 season", ("1999", "2000", "season")),
        ("1914/18", ("1914", "1918")),
        ("1954-05", ("1954", "5")),  # no range: the end is before the start
        ("1998–99.5", ("1998", "99.5")),
        ("$2.5bn", ("2500000000",)),
        ("£40k", ("40000",)),
        ("300m", ("300", "m")),  # a length: no currency sign
        ("No. 10", ("number", "10")),
        ("No 10", ("no", "10")),  # a reply, then a number
        ("2 hrs", ("2", "hours")),
        ("the Min River", ("min", "river")),  # a name: no number before it
        ("one and a half million", ("1500000",)),
        ("twenty-five thousand", ("25000",)),
        ("five million pounds", ("5000000", "pounds")),
        ("a dozen", ("12",)),
        ("Thousand Oaks", ("thousand", "oaks")),  # no number before the scale
        ("1,234 km2 (476 sq mi)", ("1234", "sqkm", "476", "sqmi")),
        ("1,234 km²", ("1234", "sqkm")),
        ("1,234 square kilometres", ("1234", "sqkm")),
        ("12 sq. ft", ("12", "sqft")),
        ("the M2 motorway 5", ("m", "2", "motorway", "5")),  # no number before "m2"
        ("Times Square 5", ("times", "square", "5")),
        ("500 BCE", ("500", "bc")),
    ],
)
def test_short_year_ranges_and_abbreviated_amounts_fold_whole(
    text: str, tokens: tuple[str, ...]
) -> None:
    assert analyse(text).tokens == tokens


@pytest.mark.parametrize(
    ("question", "answer", "said"),
    [
        (DIED, "48 years of age", "48"),
        (DIED, "a 48-year-old", "48"),
        ("At what age did she die?", "48 yrs", "48"),
        ("How long did she live in Austin?", "48 years", "48 years"),  # no age asked
        (DIED, "Forty years old", "Forty"),
        (DIED, "many years old", "many years old"),  # no number
    ],
)
def test_an_age_loses_its_unit_only_when_an_age_is_asked(
    question: str, answer: str, said: str
) -> None:
    assert without_age_unit(question, answer) == said


def test_a_name_without_its_middle_names_is_grounded() -> None:
    store = Store()
    store.add_text("Tony Spilotro", 'His brother was Michael Peter "Micky" Spilotro.')
    question = "Who was Tony Spilotro's brother?"
    grounded(check(store, question, "Michael Spilotro"), "without its middle names")
    grounded(check(store, "Who was Tony's brother?", "Michael Spilotro"), "Micky")
    rejected(check(store, question, "Michael Smith"))
    rejected(check(store, question, "Micky Smith"))


def test_an_area_in_another_unit_is_grounded_as_converted() -> None:
    store = Store()
    store.add_text("Holm Parish", "Holm Parish has an area of 1,234 km2.")
    grounded(check(store, AREA, "476 square miles"), "a measure in another unit", "1234 sqkm")
    rejected(check(store, AREA, "476 acres"))
    rejected(check(store, AREA, "600 square miles"))


def test_an_age_from_a_life_span_with_places_between_its_years_is_grounded() -> None:
    store = Store()
    store.add_text(
        "Friedrich Vogt",
        "Friedrich Vogt (11 March 1851 in Greifswald – 28 October 1923 in Marburg) was a"
        " German philologist.",
    )
    question = "How old was Friedrich Vogt when he died?"
    grounded(check(store, question, "72"), "the years from 1851 to 1923")
    grounded(check(store, question, "71 years old"), "the years from 1851 to 1923")
    rejected(check(store, question, "80"))


def test_a_nationality_given_for_a_country_is_grounded_never_a_wrong_class(store: Store) -> None:
    verdict = check(store, "Which country is Ann Lee from?", "American")
    grounded(verdict, "a nationality where the question asks for a country")
    assert verdict["evidence_ids"] == ["e1"]
    rejected(check(store, "Which country is Ann Lee from?", "Italian"))  # stated nowhere
    rejected(check(store, "In which city did Ann Lee die?", "American"))  # a city asked


@pytest.mark.parametrize(
    "answer",
    [
        "5 million dollars",
        "5 million US dollars",
        "USD 5 million",
        "five million dollars",
        "$5 mil",
    ],
)
def test_an_amount_with_its_currency_in_words_is_the_stated_amount(
    store: Store, answer: str
) -> None:
    verdict = check(store, BUDGET, answer)
    assert verdict["reason"].startswith(f"{answer!r} is stated in stored sentence"), verdict


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("A Fistful of Dollars", ("fistful", "of", "dollars")),  # no amount: a name
        ("the US dollar", ("us", "dollar")),
        ("5,500,000 dollars", ("5500000",)),
        ("EUR 5", ("5",)),
    ],
)
def test_currency_words_are_dropped_after_an_amount_only(
    text: str, tokens: tuple[str, ...]
) -> None:
    assert analyse(text).tokens == tokens


@pytest.mark.parametrize("answer", ["12.5 m", "12½ metres", "12,5 m", "about 12½ m"])
def test_a_fraction_or_a_decimal_comma_is_the_stated_decimal(answer: str) -> None:
    store = Store()
    store.add_text("Holm Tower", "Holm Tower is 12.5 metres tall.")
    verdict = check(store, "How tall is Holm Tower?", answer)
    assert "is stated in stored sentence e1" in verdict["reason"], verdict["reason"]


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("Good Friday 1962", ("good", "friday", "1962")),  # a weekday before a year: a name
        ("Friday Night Lights", ("friday", "night", "lights")),
        ("on Sunday, 12 March", ("on", "march", "12")),
        ("½ mile", ("0.5", "mi")),
    ],
)
def test_a_weekday_is_dropped_before_a_date_only(text: str, tokens: tuple[str, ...]) -> None:
    assert analyse(text).tokens == tokens
