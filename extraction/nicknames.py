"""Short forms of given names, as a general lexicon: "Toby" is Tobias, "Bill" William, "Toni"
Anton, "Resi" Theresia.

:func:`shortens` says whether a lone given name may be a short form of a longer one: a common
English hypocorism from :data:`HYPOCORISMS` ("Bill" → William, "Peggy" → Margaret) or a
common German, Austrian, Slavic, Hungarian, Italian, Spanish or French one from
:data:`FOREIGN_HYPOCORISMS` ("Toni" → Anton, "Kazik" → Kazimierz, "Laci" → László, "Pepe" →
José; accents are not told apart: "Laci" is Laszlo too), a clipped
form of at least three letters ("Will" → William, "Kat" → Katherine), one of four letters
or more that drops the name's opening ("Seun" → Oluwaseun, "Biodun" → Abiodun; see
:data:`_OPENINGS`), or one with a pet
ending on a stem the full name goes on from with a vowel ("Toby" → Tobias, "Danny" → Daniel;
not "Mary" → Margaret), a doubled letter before the ending marking a stem of two ("Aggie" →
Agatha, "Ollie" → Oliver). Whether the prose means that person is the
caller's question (only one person may fit).
"""

from __future__ import annotations

import unicodedata

HYPOCORISMS: dict[str, tuple[str, ...]] = {
    "abby": ("abigail",), "alf": ("alfred",), "alfie": ("alfred",), "bella": ("isabella",),
    "bert": ("albert", "herbert", "bertram", "robert"), "bess": ("elizabeth",),
    "bessie": ("elizabeth",), "beth": ("elizabeth",), "betty": ("elizabeth",),
    "bill": ("william",), "billy": ("william",), "bob": ("robert",), "bobby": ("robert",),
    "chuck": ("charles",), "charlie": ("charles",), "dick": ("richard",),
    "dolly": ("dorothy",), "dot": ("dorothy",), "eddie": ("edward", "edmund", "edwin"),
    "ned": ("edward", "edmund"), "nell": ("eleanor", "helen", "ellen"),
    "nellie": ("eleanor", "helen", "ellen"), "hal": ("henry", "harold"),
    "hank": ("henry",), "harry": ("henry", "harold"), "hob": ("robert",),
    "jack": ("john",), "jamie": ("james",), "jem": ("james", "jeremiah"),
    "jim": ("james",), "jimmy": ("james",), "jenny": ("jennifer", "jane"),
    "kit": ("christopher", "katherine", "catherine"), "kate": ("katherine", "catherine"),
    "katie": ("katherine", "catherine"), "kitty": ("katherine", "catherine"),
    "liz": ("elizabeth",), "lizzie": ("elizabeth",), "maggie": ("margaret",),
    "meg": ("margaret",), "molly": ("mary",), "polly": ("mary",), "mick": ("michael",),
    "mickey": ("michael",), "mike": ("michael",), "nan": ("anne", "ann", "anna"),
    "nancy": ("anne", "ann", "anna"), "annie": ("anne", "ann", "anna"),
    "peggy": ("margaret",), "rick": ("richard",), "rob": ("robert",), "robin": ("robert",),
    "sally": ("sarah",), "sandy": ("alexander", "alexandra"), "sue": ("susan", "susannah"),
    "ted": ("edward", "theodore"), "teddy": ("edward", "theodore"), "tony": ("anthony",),
    "wat": ("walter",), "walt": ("walter",), "hodge": ("roger",), "gib": ("gilbert",),
}  # fmt: skip
FOREIGN_HYPOCORISMS: dict[str, tuple[str, ...]] = {
    # German and Austrian
    "toni": ("anton", "antonia", "antonio", "antonin"), "resi": ("theresia", "therese", "theresa"),
    "gustl": ("gustav",), "ferdl": ("ferdinand",), "sepp": ("josef", "joseph"),
    "seppl": ("josef", "joseph"), "hansi": ("johann", "johannes", "hans"),
    "hannes": ("johannes",), "franzl": ("franz",), "poldi": ("leopold",), "fritz": ("friedrich",),
    "lutz": ("ludwig",), "wastl": ("sebastian",), "vroni": ("veronika",), "liesl": ("elisabeth",),
    "gretl": ("margarete",), "gretchen": ("margarete",), "kathi": ("katharina",),
    "teddy": ("theodor",), "ted": ("theodor",),
    # Slavic
    "sasha": ("alexander", "aleksandr", "alexandra", "aleksandra"),
    "sascha": ("alexander", "alexandra"), "misha": ("mikhail",), "mischa": ("michail", "mikhail"),
    "kolya": ("nikolai", "nikolay"), "volodya": ("vladimir",), "vova": ("vladimir",),
    "dima": ("dmitri", "dmitry"), "seryozha": ("sergei", "sergey"), "lyosha": ("aleksei", "alexei"),
    "alyosha": ("aleksei", "alexei"),
    "petya": ("pyotr",), "vanya": ("ivan",), "kostya": ("konstantin",),
    "zhenya": ("yevgeny", "evgeny", "yevgenia"), "pasha": ("pavel",), "grisha": ("grigory",),
    "arkasha": ("arkady",), "natasha": ("natalia", "natalya"), "masha": ("maria", "mariya"),
    "katya": ("yekaterina", "ekaterina"), "tanya": ("tatiana", "tatyana"), "olya": ("olga",),
    "sonya": ("sofia", "sofya"), "nadya": ("nadezhda",), "lyuba": ("lyubov",),
    "kazik": ("kazimierz",), "staszek": ("stanislaw", "stanisław"), "janek": ("jan",),
    "jurek": ("jerzy",), "wojtek": ("wojciech",), "kuba": ("jakub",),
    "gosia": ("malgorzata", "małgorzata"), "basia": ("barbara",),
    "honza": ("jan",), "pepik": ("josef",), "mirek": ("miroslav", "miroslaw"),
    # Hungarian
    "laci": ("laszlo",), "pisti": ("istvan",), "jancsi": ("janos",), "feri": ("ferenc",),
    "gyuri": ("gyorgy",), "jozsi": ("jozsef",), "bandi": ("andras",), "sanyi": ("sandor",),
    "erzsi": ("erzsebet",), "kati": ("katalin",), "zsuzsi": ("zsuzsanna",),
    # Italian
    "beppe": ("giuseppe",), "peppe": ("giuseppe",), "peppino": ("giuseppe",), "gigi": ("luigi",),
    "nino": ("antonino", "giovanni"), "toto": ("salvatore",),
    "turi": ("salvatore",), "pippo": ("filippo",), "bice": ("beatrice",),
    # Spanish and Portuguese
    "pepe": ("jose",), "paco": ("francisco",), "pancho": ("francisco",), "nacho": ("ignacio",),
    "chus": ("jesus",), "lola": ("dolores",), "lupe": ("guadalupe",), "concha": ("concepcion",),
    "chelo": ("consuelo",), "quique": ("enrique",),
    # French
    "jojo": ("joseph", "georges"), "mimi": ("michelle", "emilie"), "manon": ("marie",),
    "dede": ("andre",), "fanfan": ("francois", "francoise"),
}  # fmt: skip
"""Pet forms of given names outside English, as written without accents (:func:`unaccented`)."""
_PET_ENDINGS = ("ie", "ey", "y")
_OPENINGS = frozenset(("oluwa", "olu", "a", "e", "i", "o"))
"""Openings a given name drops for its short form: Yoruba "Oluwa-"/"Olu-" ("Seun" of
Oluwaseun, "Femi" of Oluwafemi), a leading vowel ("Biodun" of Abiodun, "Lisa" of Elisa)."""


def shortens(short: str, full: str) -> bool:
    """Whether the given name ``short`` may be a short form of the given name ``full``."""
    lone, whole = unaccented(short), unaccented(full)
    if lone == whole or len(lone) < 3:
        return False
    if whole in HYPOCORISMS.get(lone, ()) or whole in FOREIGN_HYPOCORISMS.get(lone, ()):
        return True  # "Pepe" is José though no shorter
    if len(whole) <= len(lone):
        return False
    if whole.startswith(lone):
        return len(whole) >= len(lone) + 2  # "Will" of William, "Kat" of Katherine; not "Ann"
    if len(lone) >= 4 and whole.endswith(lone) and whole[: -len(lone)] in _OPENINGS:
        return True  # "Seun" of Oluwaseun, "Biodun" of Abiodun, "Lisa" of Elisa
    stem = next((lone[: -len(e)] for e in _PET_ENDINGS if lone.endswith(e)), "")
    doubled = len(stem) >= 3 and stem[-2] == stem[-1]
    stem = stem[:-1] if doubled else stem  # "Dann-y" → "Dan", "Agg-ie" → "Ag" (Agatha)
    rest = whole[len(stem) :]
    long_enough = len(stem) >= 3 or (doubled and len(stem) == 2)
    return long_enough and whole.startswith(stem) and rest[:1] in ("a", "e", "i", "o", "u")


def pet_form(short: str, full: str) -> bool:
    """Whether the given name ``short`` may stand for ``full``: a short form of it
    (:func:`shortens`) or ``full`` with a pet ending ("Frankie" of Frank, "Danny" of Dan,
    "Johnny" of John)."""
    lone, whole = unaccented(short), unaccented(full)
    if shortens(short, full):
        return True
    if len(whole) < 3 or not lone.startswith(whole):
        return False
    return lone[len(whole) :] in (*_PET_ENDINGS, *(whole[-1] + e for e in _PET_ENDINGS))


def clipped_forms(full: str) -> set[str]:
    """The short forms ``full`` gives by dropping its opening (:data:`_OPENINGS`), unaccented:
    "seun" of Oluwaseun, "biodun" of Abiodun."""
    whole = unaccented(full)
    return {
        whole[len(opening) :]
        for opening in _OPENINGS
        if whole.startswith(opening) and len(whole) - len(opening) >= 4
    }


def unaccented(name: str) -> str:
    """``name`` casefolded without its accents ("László" → "laszlo")."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def foreign_fulls(short: str) -> tuple[str, ...]:
    """The given names :data:`FOREIGN_HYPOCORISMS` says ``short`` is a pet form of."""
    return FOREIGN_HYPOCORISMS.get(unaccented(short), ())
