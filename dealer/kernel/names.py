"""The one rule for the characters of a name that identifies something — a user, a table, a
patron, a link, a profile, a House Way, a pay table, a combination table: a name a reader
could take for another is no name. `refusal` says why a name breaks it, naming the character
(`U+0440 CYRILLIC SMALL LETTER ER`); the input boundary turns that into the one error line.

A name is refused, in this order, when it holds
1. an invisible or format character: controls, format characters (zero-width ones,
   bidirectional controls), surrogates, private-use code points and those no character is
   given yet, line and paragraph separators, Unicode's default-ignorable characters
   (`_IGNORABLE`: the Hangul fillers, variation selectors …) and the Arabic tatweel, which
   stretches a word and changes no letter; or a space but U+0020 (a no-break space, an
   ideographic space);
2. a character NFKC would change (a fullwidth letter, a ligature, a compatibility form, a
   letter written as a base and a combining mark: the name must be in NFKC);
3. punctuation or a symbol beyond ASCII: there live the look-alikes of ASCII's hyphen, dots,
   quotes and slashes (`‐`, `․`, `’`, `∕`);
4. a letter of no script (a modifier letter such as `ʼ`, which looks like a mark);
5. a Latin letter beyond A-Z, accented letters (`é`, `ș`: a letter and marks, decomposed) and
   the letters of Latin-1 and Latin Extended-A (`æ ø ß ł ı œ`): the IPA, phonetic, small
   capital and other extended letters include the look-alikes of ASCII ones (`ɑ ɡ ǀ ɩ ᴀ ʟ`);
6. letters (and digits beyond ASCII) of more than one script, but for the mixes UTS #39 calls
   highly restrictive (Han with Hiragana and Katakana, with Bopomofo or with Hangul, each also
   with Latin);
7. letters all of one other script that each look like a Latin letter (`LOOKS_LATIN`), as
   `рах` looks like `pax` and `ΚΑΖΙΝΟ` like `KAZINO`.

Decided: a letter's script is read from its Unicode name (its first word, two for the scripts
that share one: `OLD ITALIC`, `TAI LE` …; `_SCRIPT_OF_WORD` for the few words that are not a
script's), which the standard library has and which agrees with Unicode's Scripts.txt for every
letter; digits of ASCII and marks belong to no script. A name wholly in one script other than
Latin stays a name (`Москва`, `東京`, `カジノ`) where the input takes non-ASCII letters at all,
unless every letter of it looks Latin (7): such a name reads as a Latin one on a floor whose
names are Latin, so `Касса` is refused as the `Kacca` it looks like. Look-alikes within ASCII
(`l` and `I`, `rn` and `m`) are not this rule's: they are what every name is typed with.
"""

from __future__ import annotations

import unicodedata

from dealer.kernel.tuples import NamedTuple

_IGNORABLE = (
    (0x034F, 0x034F),
    (0x0640, 0x0640),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFFA0, 0xFFA0),
    (0xE0100, 0xE01EF),
)
"""Unicode's default-ignorable code points that are not of a category refused anyway
(DerivedCoreProperties.txt), and the Arabic tatweel (U+0640)."""

_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp", "Zs"})

_TWO_WORDS = frozenset({"OLD", "NEW", "TAI", "LINEAR", "INSCRIPTIONAL", "MEROITIC"})
"""First words of characters' names shared by several scripts: the script is two words."""

_SCRIPT_OF_WORD = {
    "CJK": "HAN",
    "IDEOGRAPHIC": "HAN",
    "HENTAIGANA": "HIRAGANA",
    "KATAKANA-HIRAGANA": "KATAKANA",
    "ARABIC-INDIC": "ARABIC",
    "EXTENDED": "ARABIC",
    "TURNED": "LATIN",
    "ROMAN": "LATIN",
    "MODIFIER": "",
    "CARON": "",
    "MASU": "",
    "VERTICAL": "",
}
"""First words of letters' names that are not their script's name: the script (as Scripts.txt
has it), or none (''): modifier letters and the like."""

_HIGHLY_RESTRICTIVE = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)
"""The mixes of scripts a name may hold (UTS #39's highly restrictive level)."""

_EUROPEAN = range(0x00C0, 0x0180)
"""Latin-1 Supplement and Latin Extended-A: the letters of Europe's alphabets."""

_PAIRS = (
    "ͿJΑAΒBΕEΖZΗHΙlΚKΜMΝNΟOΡPΤTΥYΧXαaγyιiνvοoρpσoυuϜFϳjϺMЅSІlЈJАAВBЕEКKМMНHОOРPСCТTУYХXЬb"
    "аaгrеeоoрpсcуyхxѕsіiјjѡwѴVѵvҮYүyһhҽeӀlӏiԁdԌGԛqԜWԝwՍUՏSՕOաwգqզqհhոnռnսuցgքfօoଠOഠoဝo"
    "ყyჿoሀUዐOᎠDᎡRᎢTᎥiᎩYᎪAᎫJᎬEᎳWᎷMᎻHᎽYᏀGᏂhᏃZᏏbᏒRᏔWᏕSᏙVᏚSᏞLᏟCᏢPᏦKᏧdᏳGᏴBᐯVᑌUᑭPᑯdᑲbᒍJᒪL"
    "ᕁxᕼHᕽxᖇRᖯbᖴFᗅAᗞDᗪDᗰMᗷBᚷXᛁlᛕKᛖMᴦrⲅrⲎHⲒlⲔKⲘMⲚNⲞOⲟoⲢPⲣpⲤCⲥcⲦTⲨYⲬXⳐLⴸVⴹEⵏlⵔOⵕQⵝX"
    "ꓐBꓑPꓒdꓓDꓔTꓖGꓗKꓙJꓚCꓜZꓝFꓟMꓠNꓡLꓢSꓣRꓦVꓧHꓪWꓫXꓬYꓮAꓰEꓲlꓳOꓴUꙇiꛟVꭵiꮁrꮃwꮓzꮩvꮪsꮯc"
    "𐊂B𐊆E𐊇F𐊊l𐊐X𐊒O𐊕P𐊖S𐊗T𐊠A𐊡B𐊢C𐊥F𐊫O𐊰M𐊱T𐊲Y𐊴X𐋏H𐌁B𐌂C𐌉l𐌑M𐌕T𐌗X𐐄O𐐕C𐐛L𐐠S𐐬o𐐽c𐑈s𐒴R𐓂O𐓎U"
    "𐓪o𐓶u𐔓N𐔖O𐔘K𐔜C𐔝V𐔥F𐔦L𐔧X𑜆v𑜊w𑜎w𑜏w𑢠V𑢢F𑢣L𑢤Y𑢦E𑢩Z𑢮E𑢲L𑢵O𑢸U𑢼T𑣀v𑣁s𑣂F𑣃i𑣄z𑣈o𑣗o𑣘u𑣜y"
    "𖼈V𖼊T𖼖L𖼨l𖼵R𖼺S𖽀A𖽂U𖽃Y"
)
LOOKS_LATIN = dict(zip(_PAIRS[::2], _PAIRS[1::2], strict=True))
"""Each letter of another script that looks like one Latin letter, with that letter: those of
Unicode's confusables (UTS #39) whose look-alike is one ASCII letter and that NFKC leaves as
they are (Cyrillic, Greek, Armenian, Cherokee, Coptic, Lisu, Canadian syllabics and others)."""


_UNNAMED = {"Cc": "<control>", "Cs": "<surrogate>", "Co": "<private-use>"}


def character(char: str) -> str:
    """A character as an error names it: `U+0440 CYRILLIC SMALL LETTER ER`; one with no name
    as Unicode's charts label it (`U+0009 <control>`)."""
    label = _UNNAMED.get(unicodedata.category(char), "<reserved>")
    return f"U+{ord(char):04X} {unicodedata.name(char, label)}"


def script(char: str) -> str | None:
    """The script of a letter or digit beyond ASCII, from its Unicode name (`CYRILLIC`,
    `HAN`, `OLD ITALIC`); '' for a letter of no script; None for a character that names no
    script (ASCII digits, marks, and what is no letter)."""
    if char.isascii():
        return "LATIN" if char.isalpha() else None
    category = unicodedata.category(char)
    if category[0] != "L" and category != "Nd":
        return None
    words = unicodedata.name(char, "").split()
    if not words:
        return ""
    first = " ".join(words[:2]) if words[0] in _TWO_WORDS else words[0]
    return _SCRIPT_OF_WORD.get(first, first)


def _shown(script_name: str) -> str:
    return script_name.title()


def _invisible(char: str) -> bool:
    code = ord(char)
    if unicodedata.category(char) in _INVISIBLE_CATEGORIES and char != " ":
        return True
    return any(low <= code <= high for low, high in _IGNORABLE)


class Refusal(NamedTuple):
    """Why a name is refused: the character, what is wrong with it, and the rule it breaks
    (what a name may hold instead); `str` joins them as an error says it."""

    char: str
    why: str
    rule: str

    @property
    def found(self) -> str:
        """The character and what is wrong with it: `U+0440 CYRILLIC SMALL LETTER ER is
        Cyrillic among Latin letters`."""
        return f"{character(self.char)} {self.why}"

    def __str__(self) -> str:
        return f"{self.found}: {self.rule}"


_PRINTED = "a name is printed characters and spaces (U+0020)"
_MARKS = "a name's punctuation, symbols and spaces are ASCII's, its letters a script's"
_LATIN = "its Latin letters are A-Z, accented letters and those of Latin-1 and Latin Extended-A"
_ONE_SCRIPT = "a name's letters and digits are of one script"
_SHOWN = "write it in Latin letters, or with a letter its script alone has"


def refusal(text: str) -> Refusal | None:
    """Why `text` may not be a name (the module's rules, in order), or None when it may. A name
    of ASCII is answered at once: only a control character breaks it. `text` is as long as a
    name may be (its input bounds it first): the first character breaking NFKC is found by
    normalizing each beginning of it."""
    if text.isascii():
        bad = next((char for char in text if not char.isprintable()), None)
        return None if bad is None else Refusal(bad, "prints nothing of its own", _PRINTED)
    for char in text:
        if _invisible(char):
            space = unicodedata.category(char) == "Zs"
            why = "is a space other than U+0020" if space else "prints nothing of its own"
            return Refusal(char, why, _PRINTED)
    found = _compatibility_refusal(text)
    if found is not None:
        return found
    scripts: dict[str, str] = {}
    for char in text:
        if unicodedata.category(char)[0] == "M":
            continue
        named = script(char)
        if named is None and not char.isascii():
            return Refusal(char, "is punctuation or a symbol beyond ASCII", _MARKS)
        if named == "":
            return Refusal(char, "is a letter of no script", _MARKS)
        if named == "LATIN" and not _common_latin(char):
            return Refusal(char, "is a Latin letter few alphabets use", _LATIN)
        if named is not None:
            scripts.setdefault(named, char)
    return _mixed_refusal(scripts) or _looks_latin_refusal(text, scripts)


def _compatibility_refusal(text: str) -> Refusal | None:
    """Why `text` is not in NFKC, naming the first character that makes it so (rule 2): a
    compatibility form, or a combining mark NFKC joins to the letter before it."""
    if unicodedata.is_normalized("NFKC", text):
        return None
    end = next(
        e for e in range(1, len(text) + 1) if not unicodedata.is_normalized("NFKC", text[:e])
    )
    char = text[end - 1]
    alone = unicodedata.normalize("NFKC", char)
    if alone != char:
        return Refusal(char, f"is a compatibility form of '{alone}'", f"write '{alone}'")
    start = end - 1
    while start > 0 and unicodedata.combining(text[start]):
        start -= 1
    whole = unicodedata.normalize("NFKC", text[start:end])
    return Refusal(char, f"makes '{whole}' of the letter before it", f"write '{whole}' itself")


def _common_latin(char: str) -> bool:
    """A Latin letter of rule 5's: an accented ASCII letter, or one of Europe's alphabets."""
    return ord(char) in _EUROPEAN or unicodedata.normalize("NFD", char)[0].isascii()


def _mixed_refusal(scripts: dict[str, str]) -> Refusal | None:
    """Why the scripts a name's letters are of (each with its first letter) are too many
    (rule 6), naming the first letter of another script than Latin, else than the first's."""
    named = frozenset(scripts)
    if len(named) <= 1 or any(named <= allowed for allowed in _HIGHLY_RESTRICTIVE):
        return None
    first = "LATIN" if "LATIN" in named else next(iter(scripts))
    other = next(name for name in scripts if name != first)
    return Refusal(scripts[other], f"is {_shown(other)} among {_shown(first)} letters", _ONE_SCRIPT)


def _looks_latin_refusal(text: str, scripts: dict[str, str]) -> Refusal | None:
    """Why a name of one script but Latin reads as a Latin one (rule 7): every letter of it
    looks like a Latin letter; the first is named."""
    if len(scripts) != 1 or "LATIN" in scripts:
        return None
    letters = [char for char in text if unicodedata.category(char)[0] == "L"]
    if not letters or not all(char in LOOKS_LATIN for char in letters):
        return None
    first = letters[0]
    why = f"looks like '{LOOKS_LATIN[first]}', as every letter of the name looks Latin"
    return Refusal(first, why, _SHOWN)
