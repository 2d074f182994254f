"""Prose names written with a Japanese honorific or particle, folded into the given name.

"Isobe-sama", "O-Tsuru" and "Tsuru-san" are the prose's "Isobe" and "Tsuru" with a mark of
address (:mod:`extraction.honorifics`): one candidate each, not three people. "Kawasemi no
Gonzō" and "Onibi no Sakichi" join a house or an epithet to a given name with the particle
"no": where the prose also names "Gonzō" alone, they are his.
"""

from __future__ import annotations

from extraction.honorifics import bare_name, honorific
from extraction.prose_candidates import Candidate
from extraction.slugs import normalise_name


def merge_honorifics(found: dict[str, Candidate]) -> None:
    """Fold each prose name written with an honorific into its bare form (:func:`bare_name`):
    "Isobe-sama" and "O-Tsuru" are mentions of "Isobe" and "Tsuru", and stay their aliases.
    When the prose never writes the bare form, the name takes it, keeping its votes: "Kii-chan"
    alone becomes "Kii"."""
    for key in sorted(found):
        candidate = found[key]
        forms = {s: bare_name(s) for s in candidate.surfaces if honorific(s)}
        if not forms or candidate.heading or len(forms) != len(candidate.surfaces):
            continue
        target = normalise_name(next(iter(forms.values())))
        if not target or target == key:
            continue
        found.pop(key)
        into = found.setdefault(target, Candidate())
        for surface, count in candidate.surfaces.items():
            into.surfaces[forms[surface]] = into.surfaces.get(forms[surface], 0) + count
            into.aliases.setdefault(surface, candidate.party)
        for alias, party in candidate.aliases.items():
            into.aliases[alias] = into.aliases.get(alias, False) or party
        into.mentions += candidate.mentions
        into.openings += candidate.openings
        into.verb_openings += candidate.verb_openings
        into.objects += candidate.objects
        into.possessive += candidate.possessive
        into.after_the += candidate.after_the
        into.defined |= candidate.defined
        into.party |= candidate.party
        into.paths += candidate.paths
        into.votes += candidate.votes
        into.titles += [t for t in candidate.titles if t not in into.titles]
        into.description = into.description or candidate.description


def merge_particle_names(found: dict[str, Candidate]) -> None:
    """Fold "Kawasemi no Gonzō" (a house or epithet, "no", a given name) into the given name's
    candidate when the prose names it alone too, as an alias; "Yoru no Ame" (the bowl Night
    Rain), whose last word the prose never writes alone, stays a name of its own."""
    for key in sorted(found):
        head, particle, given = key.rpartition(" no ")
        if not particle or not head or given == key or given not in found:
            continue
        candidate = found.pop(key)
        into = found[given]
        for surface in candidate.surfaces:
            into.aliases.setdefault(surface, candidate.party)
        for alias, party in candidate.aliases.items():
            into.aliases[alias] = into.aliases.get(alias, False) or party
        into.mentions += candidate.mentions
        into.party |= candidate.party
        into.paths += candidate.paths
        into.votes += candidate.votes


def merge_english_particles(found: dict[str, Candidate]) -> None:
    """Fold "Gonzō of the Kawasemi" into Gonzō when the prose also calls him "Kawasemi no
    Gonzō" (an alias :func:`merge_particle_names` gave him): the same name in English.
    "Calla of the Order of the Ember", whom no "no" form names, stays as written."""
    for key in sorted(found):
        given, of, house = key.partition(" of ")
        if not of or given not in found or given == key:
            continue
        owner = found[given]
        wanted = f"{normalise_name(house)} no {given}"
        if not any(normalise_name(alias) == wanted for alias in owner.aliases):
            continue
        candidate = found.pop(key)
        for surface in candidate.surfaces:
            owner.aliases.setdefault(surface, candidate.party)
        owner.mentions += candidate.mentions
        owner.party |= candidate.party
        owner.paths += candidate.paths
        owner.votes += candidate.votes


def o_prefixed(candidate: Candidate, name: str) -> bool:
    """Whether the prose writes the given name ``name`` with the polite prefix "O-" ("O-Kin"):
    the prefix goes on a given name as it is, so "Kin" is whole, not a short "Kingfisher"."""
    return any(alias[:2] == "O-" and bare_name(alias) == name for alias in candidate.aliases)
