"""Category resolution: arXiv codes against the vendored official taxonomy, and conference
areas ("Area · Subarea" or a one-level "Area") split into area and sub-area."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import polars as pl

from transforms.formats.listing import ONE_CODE
from transforms.formats.search import AREA_SEPARATOR, canonical_area

TAXONOMY_FILE = Path(__file__).resolve().parent.parent / "data" / "taxonomy" / "arxiv_taxonomy.json"
ARXIV = "arxiv"
CONFERENCE = "conference"

CATEGORY_COLUMNS = {
    "code": pl.String,
    "name": pl.String,
    "parent_code": pl.String,
    "parent_name": pl.String,
    "group_code": pl.String,
    "group_name": pl.String,
    "taxonomy": pl.String,
}


@cache
def arxiv_taxonomy() -> tuple[pl.DataFrame, pl.DataFrame, dict[str, str]]:
    """(one row per canonical arXiv category, one row per archive, alias → canonical code)."""
    raw = json.loads(TAXONOMY_FILE.read_text(encoding="utf-8"))
    archives, groups = raw["archives"], raw["groups"]
    archive_rows = pl.DataFrame(
        [{"parent_code": code, "archive_name": a.get("full_name"), "archive_group": a.get("in_group"),
          "archive_group_name": groups.get(a.get("in_group", ""), {}).get("full_name")}
         for code, a in archives.items()],
        schema={"parent_code": pl.String, "archive_name": pl.String, "archive_group": pl.String,
                "archive_group_name": pl.String},
    )
    aliases = dict(raw["category_aliases"]) | dict(raw["archives_subsumed"])
    rows = []
    for code, cat in raw["categories"].items():
        if code in aliases:
            continue
        archive = archives.get(cat["in_archive"], {})
        group = groups.get(archive.get("in_group", ""), {})
        rows.append({
            "code": code,
            "name": cat["full_name"],
            "parent_code": cat["in_archive"],
            "parent_name": archive.get("full_name"),
            "group_code": archive.get("in_group"),
            "group_name": group.get("full_name"),
            "taxonomy": ARXIV,
        })
    return pl.DataFrame(rows, schema=CATEGORY_COLUMNS), archive_rows, aliases


@cache
def _case_folded() -> dict[str, str]:
    """Lower-cased code or alias → canonical code: "cs.lg" and "CS.LG" are cs.LG, "math.it" is cs.IT."""
    known, _, aliases = arxiv_taxonomy()
    folded = {code.lower(): code for code in known["code"]}
    return folded | {alias.lower(): target for alias, target in aliases.items()}


@cache
def undotted_codes() -> list[str]:
    """Hyphenated codes, aliases and archives (no dot), lower-cased: "hep-th", "solv-int", "q-fin"
    (not "physics": a word of names as well)."""
    known, archives, aliases = arxiv_taxonomy()
    names = [*known["code"], *archives["parent_code"], *aliases]
    return sorted({c.lower() for c in names if "." not in c and "-" in c})


@cache
def _archive_spelling() -> tuple[dict[str, str], dict[str, str]]:
    """Lower-cased archive → the taxonomy's spelling, and → the case of its known subjects
    ("upper": cs.LG, math.AG; "lower": physics.soc-ph, cond-mat.mes-hall), where all agree."""
    known, archives, _ = arxiv_taxonomy()
    subjects = known.filter(pl.col("code").str.contains(".", literal=True)).select(
        archive=pl.col("parent_code"), subject=pl.col("code").str.split(".").list.last())
    cases = subjects.group_by("archive").agg(
        upper=(pl.col("subject") == pl.col("subject").str.to_uppercase()).all(),
        lower=(pl.col("subject") == pl.col("subject").str.to_lowercase()).all())
    case = {a: "upper" if u else "lower" for a, u, lo in cases.iter_rows() if u or lo}
    return ({a.lower(): a for a in archives["parent_code"]}, {a.lower(): c for a, c in case.items()})


def _unknown_code(code: pl.Expr) -> pl.Expr:
    """A well-formed code the taxonomy does not know, its archive as the taxonomy spells it and
    its subject in the case of the archive's known ones: "CS.ZZ" had the parent "CS" beside cs.ZZ's
    "cs", and "cs.zz" was another category than "cs.ZZ"."""
    spelling, case = _archive_spelling()
    folded = code.str.extract(r"^([^.]+)\.", 1).str.to_lowercase()
    archive = folded.replace_strict(spelling, default=None, return_dtype=pl.String)
    subject = code.str.extract(r"^[^.]+\.(.+)$", 1)
    subject_case = folded.replace_strict(case, default=None, return_dtype=pl.String)
    subject = (pl.when(subject_case == "upper").then(subject.str.to_uppercase())
               .when(subject_case == "lower").then(subject.str.to_lowercase()).otherwise(subject))
    return pl.when(archive.is_not_null() & subject.is_not_null()).then(archive + "." + subject).otherwise(code)


def _area_levels(area: pl.Expr) -> pl.Expr:
    """An area's levels: an empty one left out (a template's "Reinforcement Learning · " was a
    category named "" beside "Reinforcement Learning"), and a breadcrumb's root "Home" ("Home »
    Deep Learning » LLMs" was an area under "Home")."""
    levels = area.str.split("·").list.eval(pl.element().str.strip_chars()).list.filter(pl.element() != "")
    home = (levels.list.len() > 1) & (levels.list.first().str.to_lowercase() == "home")
    levels = pl.when(home).then(levels.list.slice(1)).otherwise(levels)
    return pl.when(levels.list.len() > 0).then(levels).otherwise(pl.concat_list(area))


def canonical_code(code: str) -> str:
    """A code as the warehouse stores it: an arXiv code or alias in any case as its canonical
    code ("math.it" → cs.IT); a conference area with its levels as the load writes them
    ("Deep Learning->LLMs" → "Deep Learning · LLMs")."""
    arxiv = _case_folded().get(code.strip().lower())
    if arxiv:
        return arxiv
    area = canonical_area(pl.lit(code.strip(), pl.String))
    return pl.select(_area_levels(area).list.join(AREA_SEPARATOR)).item()


def listed_codes(listings: pl.DataFrame) -> pl.DataFrame:
    """(listed_code, taxonomy) of every listing's primary and secondary categories."""
    secondary = listings.select(pl.col("secondary_codes").alias("listed_code"), "taxonomy").explode("listed_code")
    return pl.concat([listings.select("listed_code", "taxonomy"), secondary.drop_nulls("listed_code")])


def with_secondary_ids(listings: pl.DataFrame, categories: pl.DataFrame) -> pl.DataFrame:
    """`secondary_codes` → `secondary_category_ids` (distinct, the primary's id left out): the
    load bridges them to the paper besides the primary `category_id`."""
    empty = pl.lit([], dtype=pl.List(pl.Int64))
    if listings.is_empty() or not (listings["secondary_codes"].list.len() > 0).any():
        return listings.drop("secondary_codes").with_columns(secondary_category_ids=empty)
    ids = categories.select("listed_code", taxonomy="listed_taxonomy", secondary_id=pl.col("category_id"))
    rows = listings.with_row_index("_row")
    secondary = (
        rows.select("_row", "taxonomy", "category_id", listed_code=pl.col("secondary_codes"))
        .explode("listed_code")
        .join(ids, on=["listed_code", "taxonomy"])
        .filter(pl.col("secondary_id").ne_missing(pl.col("category_id")))
        .group_by("_row")
        .agg(secondary_category_ids=pl.col("secondary_id").unique(maintain_order=True))
    )
    return (
        rows.join(secondary, on="_row", how="left")
        .with_columns(pl.col("secondary_category_ids").fill_null(empty))
        .sort("_row").drop("_row", "secondary_codes")
    )


def taxonomy_code(text: pl.Expr) -> pl.Expr:
    """Whether a text is a code of the arXiv taxonomy in any case, aliases, legacy codes and
    hyphenated archives included ("CS.LG", "Hep-Ph", "math.IT", "alg-geom", "q-fin"), or a dotted
    code in one of its archives written as the taxonomy writes the archive or in capitals ("cs.XY",
    "CS.XY"; not the name "Cs.Toth"). A word only shaped as a code ("meta-learning", "Node.js") is
    none: it was an arXiv category without a name, and "First-order" (no dot, so no archive) was
    null here, its row lost by both sides of `resolve_categories`."""
    spelling = _archive_spelling()[0].values()
    archive = text.str.extract(r"^([^.]+)\.", 1)
    known = text.str.to_lowercase().is_in([*_case_folded(), *undotted_codes()])
    in_archive = archive.is_in([*spelling, *(a.upper() for a in spelling)])
    return (text.str.contains("(?i)" + ONE_CODE) & (known | in_archive)).fill_null(False)


def resolve_categories(codes: pl.Series, taxonomy: pl.Series) -> pl.DataFrame:
    """Distinct (listed code, listed taxonomy) → one dimension row each, keyed by `listed_code`
    and `listed_taxonomy` (the format's: a listing's codes are arXiv's, a search page's areas
    the conference's).

    arXiv aliases resolve to their canonical code (math.IT → cs.IT); a well-formed code the
    taxonomy does not know keeps its archive prefix as parent and a null name. A one-level area
    written as an arXiv code (a search page's "hep-ph", "CS.LG", "cs.XY": `taxonomy_code`) is that
    arXiv category, resolved as a listing's: read as an area, it was a second row of the code,
    named the code, without a parent, and a paper listed in both formats was counted twice under
    the code. An area only shaped as a code ("meta-learning") stays an area.
    """
    listed = pl.DataFrame({"listed_code": codes, "listed_taxonomy": taxonomy}).drop_nulls().unique(maintain_order=True)
    is_area = pl.col("listed_taxonomy") == CONFERENCE
    listed = listed.with_columns(area=pl.when(is_area).then(_area_levels(pl.col("listed_code")))).with_columns(
        written=pl.when(is_area).then(pl.col("area").list.join(AREA_SEPARATOR)).otherwise(pl.col("listed_code")))
    as_code = ~is_area | taxonomy_code(pl.col("written"))
    return pl.concat([_arxiv_rows(listed.filter(as_code)), _area_rows(listed.filter(~as_code))], how="diagonal").select(
        "listed_code", "listed_taxonomy", *[pl.col(c).cast(t) for c, t in CATEGORY_COLUMNS.items()])


def _arxiv_rows(listed: pl.DataFrame) -> pl.DataFrame:
    """The arXiv category of each `written` code: its canonical code, names, archive and group."""
    known, archives, _ = arxiv_taxonomy()
    code = pl.col("written").str.to_lowercase().replace_strict(
        _case_folded(), default=_unknown_code(pl.col("written")), return_dtype=pl.String)
    return (
        listed.with_columns(code=code, taxonomy=pl.lit(ARXIV))
        .join(known.drop("taxonomy"), on="code", how="left")
        .with_columns(parent_code=pl.col("parent_code").fill_null(pl.col("code").str.split(".").list.first()))
        .join(archives, on="parent_code", how="left")  # an unknown code in a known archive
        .with_columns(
            parent_name=pl.col("parent_name").fill_null(pl.col("archive_name")),
            group_code=pl.col("group_code").fill_null(pl.col("archive_group")),
            group_name=pl.col("group_name").fill_null(pl.col("archive_group_name")),
        )
    )


def _area_rows(listed: pl.DataFrame) -> pl.DataFrame:
    """The conference area of each listed area: its levels joined, named by its last level."""
    return listed.with_columns(
        code=pl.col("written"),
        name=pl.col("area").list.last(),
        parent_code=pl.when(pl.col("area").list.len() > 1).then(pl.col("area").list.first()),
        taxonomy=pl.lit(CONFERENCE),
    ).with_columns(parent_name=pl.col("parent_code"))


def areas_read_as_codes(areas: pl.DataFrame) -> pl.DataFrame:
    """Of stored conference rows (category_id, code), those a load now reads as an arXiv code
    (`resolve_categories`): `from_id` beside the arXiv row each moves to, its id as a fresh load
    gives it. An older load stored a search page's "hep-ph" as an area beside the arXiv hep-ph."""
    from transforms.ids import with_stable_ids

    rows = resolve_categories(areas["code"], pl.repeat(CONFERENCE, areas.height, dtype=pl.String, eager=True))
    rows = with_stable_ids(rows.filter(pl.col("taxonomy") == ARXIV), {"category_id": ["taxonomy", "code"]})
    moved = areas.select(from_id="category_id", listed_code="code").join(rows, on="listed_code")
    return moved.drop("listed_code", "listed_taxonomy")
