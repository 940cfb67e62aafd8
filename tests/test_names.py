"""The rule of names (`dealer.kernel.names`): the names it takes, and each it refuses with the
words of its refusal, rule by rule; how the input boundary says it for an id and a document's
name."""

from __future__ import annotations

import pytest

from dealer import inputs
from dealer.games.empire.combinations import parse_table
from dealer.games.paigow.paytables import parse_tables
from dealer.games.paigow.profile import load_profile
from dealer.kernel.errors import ConfigError, DealerError
from dealer.kernel.names import LOOKS_LATIN, refusal, script

ONE_SCRIPT = "a name's letters and digits are of one script"
PRINTED = "a name is printed characters and spaces (U+0020)"
MARKS = "a name's punctuation, symbols and spaces are ASCII's, its letters a script's"
LATIN = "its Latin letters are A-Z, accented letters and those of Latin-1 and Latin Extended-A"
SHOWN = "write it in Latin letters, or with a letter its script alone has"


@pytest.mark.parametrize(
    "name",
    [
        "trump-plaza",
        "Room 2 (high limit) #7",
        "café",
        "Ørsted",
        "Straße",
        "Kazino Bakı",
        "Bucureşti",
        "Tiền Giang",
        "Москва",
        "Казино-2",
        "Καζίνο",
        "東京タワー",
        "ひらがなの道",
        "한국 카지노",
        "東京 Tokyo 7",
        "كازينو ٣",
        "कैसीनो",
        "ქართული",
    ],
)
def test_names_the_rule_takes(name: str) -> None:
    """One script (Latin with accents and Europe's letters, or any other), the mixes of Han
    UTS #39 allows, ASCII's digits, marks and spaces: each is a name."""
    assert refusal(name) is None


@pytest.mark.parametrize(
    ("name", "character", "why", "rule"),
    [
        (
            "trump-рlaza",
            "U+0440 CYRILLIC SMALL LETTER ER",
            "is Cyrillic among Latin letters",
            ONE_SCRIPT,
        ),
        (
            "fοxwoods",
            "U+03BF GREEK SMALL LETTER OMICRON",
            "is Greek among Latin letters",
            ONE_SCRIPT,
        ),
        ("PG-٣", "U+0663 ARABIC-INDIC DIGIT THREE", "is Arabic among Latin letters", ONE_SCRIPT),
        (
            "Москва Moscow",
            "U+041C CYRILLIC CAPITAL LETTER EM",
            "is Cyrillic among Latin letters",
            ONE_SCRIPT,
        ),
        (
            "Москва東京",
            "U+6771 CJK UNIFIED IDEOGRAPH-6771",
            "is Han among Cyrillic letters",
            ONE_SCRIPT,
        ),
        (
            "рах-1",
            "U+0440 CYRILLIC SMALL LETTER ER",
            "looks like 'p', as every letter of the name looks Latin",
            SHOWN,
        ),
        (
            "Касса",
            "U+041A CYRILLIC CAPITAL LETTER KA",
            "looks like 'K', as every letter of the name looks Latin",
            SHOWN,
        ),
        (
            "ΚΑΖΙΝΟ",
            "U+039A GREEK CAPITAL LETTER KAPPA",
            "looks like 'K', as every letter of the name looks Latin",
            SHOWN,
        ),
        (
            "ᏴᎪᏒ",
            "U+13F4 CHEROKEE LETTER YV",
            "looks like 'B', as every letter of the name looks Latin",
            SHOWN,
        ),
        (
            "ｐlaza",
            "U+FF50 FULLWIDTH LATIN SMALL LETTER P",
            "is a compatibility form of 'p'",
            "write 'p'",
        ),
        ("ﬁsh", "U+FB01 LATIN SMALL LIGATURE FI", "is a compatibility form of 'fi'", "write 'fi'"),
        ("room²", "U+00B2 SUPERSCRIPT TWO", "is a compatibility form of '2'", "write '2'"),
        (
            "cafe\u0301",
            "U+0301 COMBINING ACUTE ACCENT",
            "makes 'é' of the letter before it",
            "write 'é' itself",
        ),
        ("trump\u200bplaza", "U+200B ZERO WIDTH SPACE", "prints nothing of its own", PRINTED),
        ("trump\u202eplaza", "U+202E RIGHT-TO-LEFT OVERRIDE", "prints nothing of its own", PRINTED),
        ("trump\u00adplaza", "U+00AD SOFT HYPHEN", "prints nothing of its own", PRINTED),
        ("trump\u3164plaza", "U+3164 HANGUL FILLER", "prints nothing of its own", PRINTED),
        ("trump\ufe0fplaza", "U+FE0F VARIATION SELECTOR-16", "prints nothing of its own", PRINTED),
        ("كـازينو", "U+0640 ARABIC TATWEEL", "prints nothing of its own", PRINTED),
        ("trump\u00a0plaza", "U+00A0 NO-BREAK SPACE", "is a space other than U+0020", PRINTED),
        ("trump\u3000plaza", "U+3000 IDEOGRAPHIC SPACE", "is a space other than U+0020", PRINTED),
        ("trump\tplaza", "U+0009 <control>", "prints nothing of its own", PRINTED),
        ("trump‐plaza", "U+2010 HYPHEN", "is punctuation or a symbol beyond ASCII", MARKS),
        (
            "Harrah’s",
            "U+2019 RIGHT SINGLE QUOTATION MARK",
            "is punctuation or a symbol beyond ASCII",
            MARKS,
        ),
        ("trump∕plaza", "U+2215 DIVISION SLASH", "is punctuation or a symbol beyond ASCII", MARKS),
        ("ʼtrump", "U+02BC MODIFIER LETTER APOSTROPHE", "is a letter of no script", MARKS),
        (
            "trump-plɑza",
            "U+0251 LATIN SMALL LETTER ALPHA",
            "is a Latin letter few alphabets use",
            LATIN,
        ),
        (
            "trump-pǀaza",
            "U+01C0 LATIN LETTER DENTAL CLICK",
            "is a Latin letter few alphabets use",
            LATIN,
        ),
        (
            "ᴛrump",
            "U+1D1B LATIN LETTER SMALL CAPITAL T",
            "is a Latin letter few alphabets use",
            LATIN,
        ),
    ],
)
def test_names_the_rule_refuses_and_why(name: str, character: str, why: str, rule: str) -> None:
    """Each rule, in the words of its refusal: the character, what is wrong with it, what a
    name holds instead."""
    found = refusal(name)
    assert found is not None and str(found) == f"{character} {why}: {rule}"


def test_a_letter_s_script_is_read_from_its_name() -> None:
    """Scripts as Unicode's Scripts.txt has them, read from the characters' names: the few
    first words that are no script's name mapped (`_SCRIPT_OF_WORD`), those shared by several
    scripts read as two words."""
    assert [script(c) for c in "aрωא東ひカーㄅ한٣𐌀ᦀ"] == [
        "LATIN", "CYRILLIC", "GREEK", "HEBREW", "HAN", "HIRAGANA", "KATAKANA", "KATAKANA",
        "BOPOMOFO", "HANGUL", "ARABIC", "OLD ITALIC", "NEW TAI",
    ]  # fmt: skip
    assert [script(c) for c in "7-\u0301ʼ"] == [None, None, None, ""]


def test_every_look_alike_is_another_script_s_letter_kept_by_nfkc() -> None:
    """`LOOKS_LATIN` holds letters of scripts other than Latin, each taken for one ASCII
    letter, none of which rule 2 would refuse first."""
    assert len(LOOKS_LATIN) == 273
    assert all(script(c) not in ("LATIN", None, "") for c in LOOKS_LATIN)
    assert all(len(a) == 1 and a.isascii() and a.isalpha() for a in LOOKS_LATIN.values())


def test_an_id_names_the_character_beyond_ascii() -> None:
    """Ids stay ASCII; a refusal for a character beyond it names the character (as the rule of
    names finds it, else as not ASCII); one of ASCII says what an id may hold, as before."""
    with pytest.raises(DealerError) as beyond:
        inputs.table_id("Москва-1")
    assert str(beyond.value) == (
        "table id 'Москва-1' is not valid: U+041C CYRILLIC CAPITAL LETTER EM is not ASCII: use "
        "ASCII letters, digits and . _ @ # - (up to 64)"
    )
    with pytest.raises(DealerError) as spaced:
        inputs.user_id("d 104")
    assert (
        str(spaced.value)
        == "user id 'd 104' is not valid: use letters, digits and . _ @ - (up to 64)"
    )


def test_a_document_s_name_is_refused_naming_the_input() -> None:
    assert inputs.document_name("  Москва  ", "name", limit=100) == "Москва"
    with pytest.raises(DealerError) as refused:
        inputs.document_name("trump-рlaza", "name", limit=100)
    assert str(refused.value) == (
        f"name 'trump-рlaza' is not a name: U+0440 CYRILLIC SMALL LETTER ER is Cyrillic among "
        f"Latin letters: {ONE_SCRIPT}"
    )


def test_the_documents_ids_name_the_character_beyond_ascii() -> None:
    """A pay table's id, a combination table's name and a meter's link stay ASCII; refused
    for a look-alike, each says which character."""
    _, problems = parse_tables(
        "schema: 1\ntables:\n  - id: PT-ЕT-01\n", "tables.yaml", "tables.yaml"
    )
    assert any(
        "id 'PT-ЕT-01' must be a name of letters, digits, '.', '_', '-' (up to 64), in ASCII: "
        "U+0415 CYRILLIC CAPITAL LETTER IE is Cyrillic among Latin letters" in line
        for line in problems
    ), problems
    table = {"version": "1", "provisional": False, "type_order": [], "combinations": []}
    with pytest.raises(ConfigError) as combination:
        parse_table({"name": "house-сombos", **table}, "combos.yaml")
    assert str(combination.value) == (
        "combination table combos.yaml: name: 'house-сombos' is not a lower-case kebab-case name "
        "(U+0441 CYRILLIC SMALL LETTER ES is Cyrillic among Latin letters)"
    )
    with pytest.raises(ConfigError) as link:
        load_profile(None, ("meters.progressive_treasure.link=FLOOR-ЕT-1",))
    assert "'FLOOR-ЕT-1' is not a link: U+0415 CYRILLIC CAPITAL LETTER IE is Cyrillic" in str(
        link.value
    )
