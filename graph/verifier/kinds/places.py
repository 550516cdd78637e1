"""Countries and the states or provinces within them, for comparisons: "Are both ...
American universities?" is answered by a page that says "in Austria" as well as by
one that says "Austrian"; "the same state" by the states two pages name. With large
cities, they also say that a name is a place (`is_city`, `is_region`).

General geography, not drawn from any question set: each country's name with its
people's adjective (the demonyms of `graph.verifier.text.categories`), the states and
provinces of the federations whose people are most often asked about, and capitals
and other large cities.
"""

from __future__ import annotations

import re
from functools import lru_cache

from graph.verifier.text.normalise import Text, analyse, split_words

# "country name: demonym" pairs, `_` for a space inside a name.
_COUNTRIES = """
afghanistan:afghan albania:albanian algeria:algerian andorra:andorran angola:angolan
argentina:argentine armenia:armenian australia:australian austria:austrian
azerbaijan:azerbaijani bahamas:bahamian bahrain:bahraini bangladesh:bangladeshi
barbados:barbadian belarus:belarusian belgium:belgian belize:belizean benin:beninese
bhutan:bhutanese bolivia:bolivian bosnia:bosnian brazil:brazilian brunei:bruneian
bulgaria:bulgarian burma:burmese myanmar:burmese burundi:burundian cambodia:cambodian
cameroon:cameroonian canada:canadian chad:chadian chile:chilean china:chinese
colombia:colombian congo:congolese croatia:croatian cuba:cuban cyprus:cypriot
czech_republic:czech czechia:czech denmark:danish dominican_republic:dominican
ecuador:ecuadorian egypt:egyptian united_arab_emirates:emirati england:english
eritrea:eritrean estonia:estonian ethiopia:ethiopian fiji:fijian philippines:filipino
finland:finnish france:french gabon:gabonese gambia:gambian georgia:georgian
germany:german ghana:ghanaian greece:greek grenada:grenadian guatemala:guatemalan
guinea:guinean guyana:guyanese haiti:haitian honduras:honduran hungary:hungarian
iceland:icelandic india:indian indonesia:indonesian iran:iranian iraq:iraqi
ireland:irish israel:israeli italy:italian ivory_coast:ivorian jamaica:jamaican
japan:japanese jordan:jordanian kazakhstan:kazakh kenya:kenyan south_korea:korean
north_korea:korean korea:korean kosovo:kosovar kuwait:kuwaiti kyrgyzstan:kyrgyz
laos:lao latvia:latvian lebanon:lebanese liberia:liberian libya:libyan
lithuania:lithuanian luxembourg:luxembourgish north_macedonia:macedonian
macedonia:macedonian madagascar:malagasy malawi:malawian malaysia:malaysian
maldives:maldivian mali:malian malta:maltese mauritania:mauritanian
mauritius:mauritian mexico:mexican moldova:moldovan monaco:monegasque
mongolia:mongolian montenegro:montenegrin morocco:moroccan mozambique:mozambican
namibia:namibian nepal:nepalese netherlands:dutch holland:dutch new_zealand:new_zealander
nigeria:nigerian niger:nigerien norway:norwegian oman:omani pakistan:pakistani
palestine:palestinian panama:panamanian paraguay:paraguayan persia:persian peru:peruvian
poland:polish portugal:portuguese puerto_rico:puerto qatar:qatari romania:romanian
russia:russian rwanda:rwandan el_salvador:salvadoran samoa:samoan
saudi_arabia:saudi scotland:scottish senegal:senegalese serbia:serbian
singapore:singaporean slovakia:slovak slovenia:slovenian somalia:somali
south_africa:african spain:spanish sudan:sudanese suriname:surinamese
sweden:swedish switzerland:swiss syria:syrian taiwan:taiwanese tajikistan:tajik
tanzania:tanzanian thailand:thai togo:togolese tonga:tongan trinidad:trinidadian
tunisia:tunisian turkey:turkish turkmenistan:turkmen uganda:ugandan ukraine:ukrainian
uruguay:uruguayan uzbekistan:uzbek venezuela:venezuelan vietnam:vietnamese wales:welsh
yemen:yemeni zambia:zambian zimbabwe:zimbabwean soviet_union:soviet ussr:soviet
yugoslavia:yugoslav prussia:prussian united_kingdom:british great_britain:british
britain:british uk:british united_states:american usa:american
united_states_of_america:american northern_ireland:irish
"""
# The states and provinces of federations, each with its people's adjective.
_REGIONS = {
    "american": """
        alabama alaska arizona arkansas california colorado connecticut delaware florida
        georgia hawaii idaho illinois indiana iowa kansas kentucky louisiana maine maryland
        massachusetts michigan minnesota mississippi missouri montana nebraska nevada
        new_hampshire new_jersey new_mexico new_york north_carolina north_dakota ohio oklahoma
        oregon pennsylvania rhode_island south_carolina south_dakota tennessee texas utah
        vermont virginia washington west_virginia wisconsin wyoming""",
    "australian": """
        new_south_wales queensland south_australia tasmania victoria western_australia
        northern_territory australian_capital_territory""",
    "canadian": """
        alberta british_columbia manitoba new_brunswick newfoundland nova_scotia ontario
        prince_edward_island quebec saskatchewan yukon nunavut northwest_territories""",
    "indian": """
        andhra_pradesh assam bihar goa gujarat haryana karnataka kerala madhya_pradesh
        maharashtra odisha punjab rajasthan tamil_nadu telangana uttar_pradesh
        west_bengal""",
}


def _names(text: str) -> list[str]:
    return [name.replace("_", " ") for name in text.split()]


def _index(pairs: dict[str, str]) -> dict[str, list[tuple[Text, str]]]:
    """Names by their first folded token, longest first: (folded name, its value)."""
    index: dict[str, list[tuple[Text, str]]] = {}
    for name, value in sorted(pairs.items(), key=lambda pair: -len(pair[0])):
        folded = analyse(name)
        index.setdefault(folded.tokens[0], []).append((folded, value))
    return index


_COUNTRY_INDEX = _index(
    {
        name.replace("_", " "): demonym
        for pair in _COUNTRIES.split()
        for name, demonym in [pair.split(":")]
    }
)
_REGION_INDEX = _index(
    {region: people for people, names in _REGIONS.items() for region in _names(names)}
)
# Capitals and other large cities, `_` for a space inside a name (names that are as often
# a person's or a common word's, "Victoria", "Reading", "Nice", are left out).
_CITIES = """
amsterdam athens baghdad bangkok barcelona beijing beirut berlin bogota boston brussels
bucharest budapest buenos_aires cairo calcutta kolkata canberra cape_town caracas chicago
copenhagen damascus delhi new_delhi dhaka dubai dublin edinburgh florence frankfurt
geneva glasgow hamburg hanoi havana helsinki hong_kong honolulu houston istanbul jakarta
jerusalem johannesburg kabul karachi kiev kyiv kuala_lumpur lagos lahore leningrad lima
lisbon liverpool london los_angeles madrid manchester manila marseille melbourne
mexico_city miami milan minsk montreal moscow mumbai bombay munich nairobi naples
new_orleans new_york new_york_city oslo ottawa paris philadelphia prague pyongyang
rio_de_janeiro riyadh rome saint_petersburg st_petersburg san_francisco santiago
sao_paulo seattle seoul shanghai singapore stockholm sydney taipei tehran tel_aviv tokyo
toronto tunis vancouver venice vienna warsaw zurich atlanta baltimore dallas denver
detroit las_vegas nashville pittsburgh san_diego toulouse lyon turin stuttgart cologne
luxembourg monaco kuwait panama guatemala djibouti quebec
"""
# Places whose name is as often a person's or another place's ("Georgia", "Washington").
_AMBIGUOUS = frozenset(
    split_words("georgia victoria washington virginia jordan chad indiana israel")
)
_CITY_NAMES = frozenset(" ".join(analyse(name).tokens) for name in _names(_CITIES))
_REGION_NAMES = (
    frozenset(
        " ".join(name.tokens)
        for index in (_COUNTRY_INDEX, _REGION_INDEX)
        for entries in index.values()
        for name, _ in entries
    )
    - _AMBIGUOUS
)
_CAPITALISED = re.compile(r"\b[A-Z][\w'’.-]*(?:\s+(?:of\s+|and\s+|the\s+)*[A-Z][\w'’.-]*)*")


def _found(raw: str, index: dict[str, list[tuple[Text, str]]]) -> dict[str, str]:
    """Folded name -> value, for each name of `index` a capitalised run of `raw` holds
    (longest first), ambiguous names aside."""
    found: dict[str, str] = {}
    for run in _CAPITALISED.findall(raw):
        tokens = analyse(run).tokens
        position = 0
        while position < len(tokens):
            for name, value in index.get(tokens[position], ()):
                size = len(name.tokens)
                if tokens[position : position + size] == name.tokens:
                    found[" ".join(name.tokens)] = value
                    position += size - 1
                    break
            position += 1
    return {name: value for name, value in found.items() if name not in _AMBIGUOUS}


@lru_cache(maxsize=16384)
def regions_named(raw: str) -> frozenset[str]:
    """The states and provinces a sentence names."""
    return frozenset(_found(raw, _REGION_INDEX))


@lru_cache(maxsize=16384)
def nationalities_named(raw: str) -> frozenset[str]:
    """The nationalities a sentence gives by the countries, states and provinces it names
    ("in Austria": austrian; "Texas": american)."""
    return frozenset({*_found(raw, _COUNTRY_INDEX).values(), *_found(raw, _REGION_INDEX).values()})


_DEMONYM_OF = {
    " ".join(name.tokens): demonym
    for entries in _COUNTRY_INDEX.values()
    for name, demonym in entries
}
_DEMONYMS = frozenset(_DEMONYM_OF.values())


def demonym_of(name: str) -> str | None:
    """The people's adjective of a country, its name folded ("united states": american)."""
    return _DEMONYM_OF.get(name)


def is_demonym(name: str) -> bool:
    """Whether a folded name is a country's people's adjective ("american")."""
    return name in _DEMONYMS


def is_city(name: str) -> bool:
    """Whether a folded name is a capital or another large city."""
    return name in _CITY_NAMES


def is_region(name: str) -> bool:
    """Whether a folded name is a country, or a state or province of a federation."""
    return name in _REGION_NAMES
