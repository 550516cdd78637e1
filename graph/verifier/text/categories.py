"""Category nouns and the coarse class each names, with demonyms.

General English vocabulary, not drawn from any question set: a question's
"which label" or an article's "is an American actor" names a category, and the
class of that category (a person, a place, an organisation, a creative work,
an event, a living thing, a product) is what the verifier compares.
"""

from __future__ import annotations

from graph.verifier.text.normalise import split_words

PERSON = "person"
PLACE = "place"
ORGANISATION = "organisation"
WORK = "work"
EVENT = "event"
LIVING = "living thing"
PRODUCT = "product"
NATIONALITY = "nationality"
DATE = "date"
MODIFIER = "modifier"  # a word that describes rather than names ("California-based")

_CLASS_WORDS = {
    PERSON: """
        person people man woman men women boy girl child son daughter father mother brother
        sister wife husband king queen prince princess emperor empress lord lady duke earl baron
        count pope bishop saint priest monk nun
        actor actress star singer songwriter musician artist painter sculptor photographer
        author writer poet novelist playwright dramatist screenwriter lyricist essayist
        journalist columnist editor publisher critic broadcaster presenter host anchor
        director filmmaker producer composer conductor rapper vocalist guitarist bassist
        drummer pianist keyboardist violinist cellist saxophonist trumpeter dj comedian
        comedienne entertainer dancer choreographer model designer architect engineer
        scientist physicist chemist biologist mathematician astronomer economist philosopher
        historian scholar professor teacher researcher inventor explorer astronaut cosmonaut
        politician statesman president chancellor minister senator governor mayor congressman
        congresswoman diplomat ambassador judge lawyer attorney officer general admiral
        commander colonel captain lieutenant soldier sergeant marshal spy agent
        player footballer cricketer athlete boxer wrestler swimmer runner cyclist golfer
        skater skier jockey driver racer coach manager quarterback pitcher goalkeeper
        goaltender defender midfielder striker forward batsman bowler fielder catcher
        businessman businesswoman entrepreneur executive founder investor banker magnate
        philanthropist activist leader chief member vocalist frontman frontwoman personality
        character protagonist antagonist villain hero heroine figure mobster gangster criminal
        murderer killer detective physician doctor surgeon nurse psychologist psychiatrist
        chef cook socialite heir heiress monarch ruler regent sultan shah tsar czar pharaoh
        nobleman noblewoman knight warrior sportsperson sportsman sportswoman graduate dictator
        despot tyrant
        friend colleague partner rival successor predecessor owner creator narrator reverend
        champion winner nominee recipient candidate laureate alumnus alumni student pupil
        disciple mentor protege cofounder ceo chairman chairwoman spokesman grandmaster
        youtuber blogger""",
    PLACE: """
        place city town village hamlet suburb borough neighbourhood neighborhood district
        county country state province region territory nation kingdom republic empire island
        archipelago peninsula continent mountain peak hill volcano range valley river lake sea
        ocean bay gulf strait canal creek stream waterfall glacier desert forest park reserve
        capital municipality commune parish prefecture oblast canton department community
        settlement locality area location site street road avenue highway square
        metropolis conurbation coast beach cape headland building tower skyscraper stadium
        arena venue bridge airport station hotel casino resort theatre theater mall castle
        palace fort fortress lighthouse dam mine prison campus estate plantation""",
    ORGANISATION: """
        company corporation firm business label studio studios network channel broadcaster
        publisher manufacturer brand airline carrier bank retailer chain franchise conglomerate
        subsidiary enterprise startup agency organisation organization institution institute
        foundation charity society association union federation league confederation
        council committee party government ministry department army navy regiment
        division unit university college school academy seminary conservatory hospital
        museum library church cathedral monastery abbey temple mosque club team squad
        band group duo trio quartet quintet orchestra ensemble choir troupe outfit
        supergroup collective dynasty tribe""",
    WORK: """
        film movie picture documentary feature short cartoon animation series serial sitcom
        show programme program miniseries telenovela episode season album single song track
        record ep mixtape soundtrack compilation anthology book novel novella memoir
        autobiography biography story poem play musical opera operetta ballet symphony
        concerto sonata oratorio screenplay script comic manga anime magazine newspaper
        journal periodical tabloid zine game videogame painting sculpture artwork franchise
        trilogy sequel prequel remake adaptation work composition hymn anthem ballad
        broadcast podcast webcomic essay treatise thriller comedy horror western musical
        documentary sitcom telefilm""",
    EVENT: """
        event war battle siege campaign operation invasion revolution rebellion uprising
        revolt massacre election referendum tournament championship championships cup
        competition contest race games olympics festival ceremony award awards prize
        conference summit treaty expedition mission voyage disaster earthquake hurricane
        storm attack bombing crisis scandal trial season holiday celebration""",
    LIVING: """
        plant species genus family tree shrub herb flower grass fern moss fungus mushroom
        animal mammal bird fish reptile amphibian insect spider beetle butterfly moth snake
        lizard frog dog cat horse breed cattle orchid cactus vine palm succulent bacterium
        virus organism""",
    PRODUCT: """
        car automobile vehicle truck aircraft airplane plane helicopter ship boat vessel
        submarine locomotive train rocket missile spacecraft satellite weapon rifle gun pistol
        revolver tank computer microcomputer machine device console phone smartphone software
        drink beverage beer wine whisky food dish cheese drug medicine instrument engine
        processor camera""",
}

_SINGLE_CLASS: dict[str, str] = {
    word: kind for kind, words in _CLASS_WORDS.items() for word in split_words(words)
}
# Plural forms the crude singular fold misses.
_SINGLE_CLASS |= {
    "people": PERSON,
    "men": PERSON,
    "women": PERSON,
    "children": PERSON,
    "games": EVENT,
    "species": LIVING,
    "series": WORK,
}
# Words that name things of two classes (a game is played or published; a school
# is a body and a place).
_TWO_CLASSES = {
    **dict.fromkeys(split_words("game games"), (WORK, EVENT)),
    **dict.fromkeys(
        split_words(
            "hotel station club church museum library school university college hospital academy"
            " theatre theater seminary conservatory cathedral monastery abbey temple mosque"
        ),
        (ORGANISATION, PLACE),
    ),
    **dict.fromkeys(split_words("brand franchise"), (ORGANISATION, WORK)),
    "character": (PERSON, WORK),
    **dict.fromkeys(split_words("nationality citizenship ethnicity"), (NATIONALITY,)),
}
CLASS_OF: dict[str, frozenset[str]] = {
    **{word: frozenset({kind}) for word, kind in _SINGLE_CLASS.items()},
    **{word: frozenset(kinds) for word, kinds in _TWO_CLASSES.items()},
}

# Nouns that ask for a kind of thing rather than a named one: a sport, a language, a
# genre, a field or a position is answered by a common noun or a title ("BMX", "Latin",
# "Metalcore", "physics"), never by a person, a place, a body or a work.
KIND_NOUNS = frozenset(
    split_words(
        "sport language genre style field science discipline subject profession occupation"
        " position medal religion faith ideology philosophy technique quality activity"
    )
)
# The classes of a named thing that no `KIND_NOUNS` question asks for.
NAMED_CLASSES = frozenset({PERSON, PLACE, ORGANISATION, WORK})

# Classes that may stand for one another in an answer ("Where did she study?" ->
# a university; "Who produced it?" -> a studio).
WHERE_CLASSES = frozenset({PLACE, ORGANISATION, EVENT})
WHO_CLASSES = frozenset({PERSON, ORGANISATION})
# The kinds that often act for a kind asked: a body does what a person does (a band is
# the artist who recorded a song, a team the winner, a company the owner), and a country
# stands for its team, side or government ("Which team won the 2018 World Cup?" ->
# France). A person is no label, team or company, and a body is not where a thing is
# sited: those stay wrong kinds.
ACTS_FOR = {PERSON: frozenset({ORGANISATION}), ORGANISATION: frozenset({PLACE})}

DEMONYMS = frozenset(
    split_words(
        """
        afghan albanian algerian american andorran angolan argentine argentinian armenian
        australian austrian azerbaijani bahamian bahraini bangladeshi barbadian belarusian
        belgian belizean beninese bhutanese bolivian bosnian brazilian british bruneian
        bulgarian burmese burundian cambodian cameroonian canadian chadian chilean chinese
        colombian congolese croatian cuban cypriot czech danish dominican dutch ecuadorian
        egyptian emirati english eritrean estonian ethiopian fijian filipino finnish french
        gabonese gambian georgian german ghanaian greek grenadian guatemalan guinean guyanese
        haitian honduran hungarian icelandic indian indonesian iranian iraqi irish israeli
        italian ivorian jamaican japanese jordanian kazakh kenyan korean kosovar kuwaiti
        kyrgyz lao latvian lebanese liberian libyan lithuanian luxembourgish macedonian
        malagasy malawian malaysian maldivian malian maltese mauritanian mauritian mexican
        moldovan monegasque mongolian montenegrin moroccan mozambican namibian nepalese
        nepali nigerian nigerien norwegian omani pakistani palestinian panamanian paraguayan
        persian peruvian polish portuguese puerto qatari romanian russian rwandan salvadoran
        samoan saudi scottish senegalese serbian singaporean slovak slovakian slovenian somali
        african spanish sudanese surinamese swazi swedish swiss syrian taiwanese tajik
        tanzanian thai togolese tongan trinidadian tunisian turkish turkmen ugandan ukrainian
        uruguayan uzbek venezuelan vietnamese welsh yemeni zambian zimbabwean soviet
        yugoslav prussian bavarian flemish catalan basque galician corsican sicilian
        neapolitan venetian tibetan kurdish hawaiian texan californian
        """
    )
)

# More specific categories a question's broader word covers ("writer" covers a
# "novelist"); used to read a page's description for a "both ... writers?" question.
HYPERNYMS: dict[str, frozenset[str]] = {
    word: frozenset(split_words(narrower))
    for word, narrower in {
        "writer": "author novelist poet playwright dramatist screenwriter essayist journalist"
        " lyricist columnist biographer",
        "author": "writer novelist poet playwright dramatist screenwriter essayist",
        "musician": "singer songwriter rapper vocalist guitarist bassist drummer pianist"
        " keyboardist violinist composer dj",
        "singer": "vocalist songwriter rapper",
        "scientist": "physicist chemist biologist astronomer",
        "case": "decision ruling lawsuit",
        "literary": "writer author novelist poet playwright dramatist essayist",
        "director": "filmmaker",
        "filmmaker": "director",
        "politician": "statesman president minister senator governor mayor congressman"
        " congresswoman",
        "athlete": "player footballer cricketer boxer wrestler swimmer runner cyclist golfer",
        "player": "footballer cricketer",
        "plant": "tree shrub herb flower grass fern orchid cactus vine palm succulent genus",
        "band": "group",
        "group": "band",
        "magazine": "periodical journal",
        "publication": "magazine newspaper journal periodical book novel zine",
        "film": "movie",
        "movie": "film",
    }.items()
}
