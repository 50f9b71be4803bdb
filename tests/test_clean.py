"""transforms.clean (authors, keys, record rejects) and transforms.categories (taxonomy)."""

from __future__ import annotations

import json

import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import LISTING_SEEDS, SEARCH_SEEDS, parse_text
from transforms.categories import ARXIV, CONFERENCE, arxiv_taxonomy, resolve_categories
from transforms.clean import _CHINESE_SURNAMES, clean_listings, split_authors


def split(lines: list[str]) -> list[tuple]:
    df = split_authors(pl.DataFrame({"a": lines}), "a")
    return df.select("authors", "n_authors_shown", "author_total", "is_truncated").rows()


# ---------------------------------------------------------------------------- split_authors
@pytest.mark.parametrize("line,names", [
    ("R. Teal Witter, Member, IEEE, Álvaro Parafita, Senior Member, IEEE, and Tomas Garriga, Fellow, IEEE",
     ["R. Teal Witter", "Álvaro Parafita", "Tomas Garriga"]),
    ("Abdullah Arafat Miah, Senior Member, IEEE, Kevin Vu, Life Fellow, IEEE, and Yu Bi, Student Member, IEEE",
     ["Abdullah Arafat Miah", "Kevin Vu", "Yu Bi"]),
    ("Xinyu Wang, IEEE Member, Somak Aditya, Member, IEEE, Bo Li, FIEEE, Ann Lee, SMIEEE", ["Xinyu Wang", "Somak Aditya", "Bo Li", "Ann Lee"]),
    ("Moshe Vardi, Fellow, ACM, Ann Lee, IEEE Fellow", ["Moshe Vardi", "Ann Lee"]),
    # names that open or hold a grade's word are names
    ("Ann Fellowes, Member Smith, Ieee Chen", ["Ann Fellowes", "Member Smith", "Ieee Chen"]),
])
def test_a_learned_societys_grade_is_no_author(line, names):
    assert split([line]) == [(names, len(names), len(names), False)]


def test_and_more_shows_three_of_six():
    assert split(["Zhengping Jiang, William Jurayj, Liaoyaqi Wang and 3 more"]) == [
        (["Zhengping Jiang", "William Jurayj", "Liaoyaqi Wang"], 3, 6, True)]


@pytest.mark.parametrize("line,names", [
    ("Jan van der Berg, Hans von und zu Liechtenstein", ["Jan van der Berg", "Hans von und zu Liechtenstein"]),
    ("Karl-Theodor von und zu Guttenberg und Anna Schmidt", ["Karl-Theodor von und zu Guttenberg", "Anna Schmidt"]),
    ("Anna Schmidt und Hans Müller", ["Anna Schmidt", "Hans Müller"]),
])
def test_von_und_zu_is_inside_a_name(line, names):
    """"und" joined two names everywhere: "Hans von und zu Liechtenstein" was "Hans von" and
    "zu Liechtenstein"."""
    assert split([line]) == [(names, len(names), len(names), False)]


@pytest.mark.parametrize("line", [
    "A. Smith, B. Jones, C. Wu and 12 more",
    "A. Smith, B. Jones, C. Wu, and 12 more",
    "A. Smith, B. Jones, C. Wu AND 12 MORE",
    "A. Smith, B. Jones, C. Wu and 12 others",
])
def test_and_more_variants(line):
    assert split([line]) == [(["A. Smith", "B. Jones", "C. Wu"], 3, 15, True)]


def test_ten_names_and_et_al_sign_has_no_total():
    names = ["Xinpeng Lv", "Yunxin Mao", "Renzhe Xu", "Chunyuan Zheng", "Haoxuan Li", "Yikai Chen",
             "Jinxuan Yang", "Wanrong Huang", "Yuanlong Chen", "Mingyang Geng"]
    for line in [", ".join(names) + " 等", ", ".join(names) + "等", ", ".join(names) + " et al."]:
        assert split([line]) == [(names, 10, None, True)]


@pytest.mark.parametrize(("line", "names"), [
    ("Marius Henry, Michael Rizvi-Martel, Michael Hahn", ["Marius Henry", "Michael Rizvi-Martel", "Michael Hahn"]),
    ("Steve Hanneke", ["Steve Hanneke"]),
    ("Jan van der Berg, danah boyd", ["Jan van der Berg", "danah boyd"]),
    ("Moshe Eliasof, Eldad Haber, Carola-Bibiane Schönlieb",
     ["Moshe Eliasof", "Eldad Haber", "Carola-Bibiane Schönlieb"]),
    ("张伟，李娜", ["张伟", "李娜"]),  # full-width comma from Chinese pages
    ("Ann Lee ,Bo Chen,  Carl Dee", ["Ann Lee", "Bo Chen", "Carl Dee"]),
])
def test_plain_lists_are_complete(line, names):
    assert split([line]) == [(names, len(names), len(names), False)]


def test_empty_items_are_not_names():
    assert split([", Ann Lee,, Bo Chen ,"]) == [(["Ann Lee", "Bo Chen"], 2, 2, False)]


def test_declared_total_counts_every_shown_item():
    (_, _, total, truncated), = split(["Veuns-Team, :, Changlong Gao and 25 more"])
    assert (total, truncated) == (28, True)


def test_split_authors_is_vectorised_over_a_column():
    rows = split(["Ann Lee", "A, B, C and 1 more", "A 等"])
    assert [r[1:] for r in rows] == [(1, 1, False), (3, 4, True), (1, None, True)]


# ---------------------------------------------------------------------------- clean_listings
def files_frame(fmt: str) -> pl.DataFrame:
    return pl.DataFrame({"file_idx": [0], "source_file_id": [42], "format": [fmt]})


def test_clean_listings_keys_names_and_abstracts():
    text = ("#01Oct 26, 2026\ncs.LG\nA\u00a0Title\u200b\nREMI MUNOS, Re\u0301mi\u00a0Munos, Leif Døring\n"
            "Policy  gradient methods converge.\u00a0")
    records, _ = parse_text(text)
    listings, quarantine = clean_listings(records, files_frame("listing"))
    assert quarantine.is_empty()
    row = listings.row(0, named=True)
    assert row["title"] == "A Title"
    assert row["authors"] == ["REMI MUNOS", "Rémi Munos", "Leif Døring"]
    assert row["author_keys"] == ["remi munos", "remi munos", "leif doring"]
    assert row["abstract"] == "Policy gradient methods converge."
    assert row["abstract_key"] == "policy gradient methods converge."  # case-folded; punctuation is the resolver's
    assert (row["source_file_id"], row["format"], row["listed_code"], row["taxonomy"]) == (42, "listing", "cs.LG", ARXIV)


def test_clean_listings_search_categories_are_conference_areas():
    records, _ = parse_text(SEARCH_SEEDS[1].read_text(encoding="utf-8"))
    listings, quarantine = clean_listings(records, files_frame("search"))
    assert quarantine.is_empty() and listings.height == 20
    typed = listings.select("listed_code", "taxonomy").drop_nulls("listed_code")
    assert set(typed["taxonomy"]) == {CONFERENCE}
    assert listings.filter(pl.col("listed_code").is_null())["taxonomy"].null_count() == 1


@pytest.mark.parametrize(("record", "reason"), [
    ("#01Oct 26, 2026\ncs.LG\nOn Schr\ufffddinger Bridges\nAnn Lee\nWe study bridges.", "undecodable"),
    ("#01Oct 26, 2026\ncs.LG\nA Title\n—, ...\nWe study bridges.", "author"),
    ("#01Oct 26, 2026\ncs.LG\nA Title\nAnn Lee\n— ... —", "abstract"),
    # affiliation letters that lost their superscript: which names hold one glued is unclear
    ("#01Oct 26, 2026\ncs.LG\nA Title\nJiayun Panga,b, Ahmed M. Zaitounb, Xacobe Couso Cambeiroa\nWe study bridges.",
     "affiliation letters"),
])
def test_clean_listings_quarantines_untrustworthy_records(record, reason):
    good = "#02Oct 26, 2026\ncs.LG\nAnother Title\nBo Chen\nAn abstract that is fine."
    records, _ = parse_text(record + "\n" + good)
    listings, quarantine = clean_listings(records, files_frame("listing"))
    assert listings["position"].to_list() == [2]
    assert quarantine.select("line_start", "line_end").rows() == [(1, 5)]
    assert reason in quarantine["reason"].item()


def test_clean_listings_on_listing_seeds_keeps_every_record():
    for path in LISTING_SEEDS:
        records, _ = parse_text(path.read_text(encoding="utf-8"))
        listings, quarantine = clean_listings(records, files_frame("listing"))
        assert quarantine.is_empty() and listings.height == 5
        assert (listings["n_authors_shown"] <= 3).all()


# ---------------------------------------------------------------------------- categories
def resolve(pairs: list[tuple[str | None, str | None]]) -> dict[str, dict]:
    codes, taxonomies = zip(*pairs)
    df = resolve_categories(pl.Series(codes, dtype=pl.String), pl.Series(taxonomies, dtype=pl.String))
    assert df["listed_code"].is_unique().all()
    return {row["listed_code"]: row for row in df.iter_rows(named=True)}


def test_arxiv_code_gets_name_archive_and_group():
    row = resolve([("cs.LG", ARXIV)])["cs.LG"]
    assert (row["code"], row["name"], row["parent_code"], row["parent_name"], row["taxonomy"]) == (
        "cs.LG", "Machine Learning", "cs", "Computer Science", ARXIV)
    assert row["group_name"] == "Computer Science"


def test_arxiv_alias_resolves_to_its_canonical_code():
    rows = resolve([("math.IT", ARXIV), ("cs.IT", ARXIV), ("stat.TH", ARXIV), ("alg-geom", ARXIV)])
    assert rows["math.IT"]["code"] == rows["cs.IT"]["code"] == "cs.IT"
    assert rows["math.IT"]["name"] == "Information Theory" and rows["math.IT"]["parent_code"] == "cs"
    assert rows["stat.TH"]["code"] == "math.ST"
    assert (rows["alg-geom"]["code"], rows["alg-geom"]["parent_code"]) == ("math.AG", "math")


def test_archive_that_is_also_a_category():
    row = resolve([("hep-th", ARXIV)])["hep-th"]
    assert (row["code"], row["parent_code"]) == ("hep-th", "hep-th")
    assert row["name"] == "High Energy Physics - Theory"


def test_unknown_well_formed_code_keeps_its_archive_prefix():
    rows = resolve([("cs.ZZ", ARXIV), ("astro-ph.XX", ARXIV)])
    assert (rows["cs.ZZ"]["code"], rows["cs.ZZ"]["name"], rows["cs.ZZ"]["parent_code"]) == ("cs.ZZ", None, "cs")
    assert (rows["cs.ZZ"]["parent_name"], rows["cs.ZZ"]["group_name"]) == ("Computer Science", "Computer Science")
    assert rows["astro-ph.XX"]["parent_code"] == "astro-ph"


def test_an_unknown_code_in_another_case_is_one_category_in_its_archive():
    """"CS.ZZ" had the parent "CS" beside "cs", and "cs.zz" was a category apart from "cs.ZZ"."""
    rows = resolve([("CS.ZZ", ARXIV), ("cs.zz", ARXIV), ("cs.ZZ", ARXIV), ("PHYSICS.New-PH", ARXIV), ("Foo.bar", ARXIV)])
    assert {rows[c]["code"] for c in ("CS.ZZ", "cs.zz", "cs.ZZ")} == {"cs.ZZ"}
    assert (rows["CS.ZZ"]["parent_code"], rows["CS.ZZ"]["parent_name"]) == ("cs", "Computer Science")
    assert (rows["PHYSICS.New-PH"]["code"], rows["PHYSICS.New-PH"]["parent_code"]) == ("physics.new-ph", "physics")
    assert rows["Foo.bar"]["code"] == "Foo.bar"  # no archive of the taxonomy: as listed


def test_conference_area_and_subarea():
    row = resolve([("Deep Learning · Attention Mechanisms", CONFERENCE)])["Deep Learning · Attention Mechanisms"]
    assert (row["code"], row["name"], row["parent_code"], row["parent_name"], row["taxonomy"]) == (
        "Deep Learning · Attention Mechanisms", "Attention Mechanisms", "Deep Learning", "Deep Learning", CONFERENCE)
    assert row["group_code"] is None


def test_one_level_conference_area():
    row = resolve([("Social Aspects", CONFERENCE)])["Social Aspects"]
    assert (row["code"], row["name"], row["parent_code"], row["taxonomy"]) == (
        "Social Aspects", "Social Aspects", None, CONFERENCE)


def test_nulls_and_repeats_are_dropped():
    rows = resolve([("cs.LG", ARXIV), (None, None), ("cs.LG", ARXIV), ("Social Aspects", CONFERENCE)])
    assert set(rows) == {"cs.LG", "Social Aspects"}


def test_vendored_taxonomy_is_consistent_and_attributed():
    from transforms.categories import TAXONOMY_FILE

    source = json.loads(TAXONOMY_FILE.read_text(encoding="utf-8"))["source"]
    assert "arxiv-base" in source and "MIT" in source and "Cornell" in source
    known, _, aliases = arxiv_taxonomy()
    assert known["code"].is_unique().all()
    assert known.height > 150 and "cs.LG" in known["code"].to_list()
    assert aliases["math.IT"] == "cs.IT"
    assert not set(aliases) & set(known["code"])


# ---------------------------------------------------------------------------- issue 12: author list forms
@pytest.mark.parametrize(("line", "expected"), [
    ("Ann Lee and Bo Chen", (["Ann Lee", "Bo Chen"], 2, 2, False)),
    ("ANN LEE AND BO CHEN", (["ANN LEE", "BO CHEN"], 2, 2, False)),
    ("Ann Lee & Bo Chen", (["Ann Lee", "Bo Chen"], 2, 2, False)),
    ("Ann Lee&Bo Chen", (["Ann Lee", "Bo Chen"], 2, 2, False)),
    ("Ann Lee, Bo Chen, and Carl Dee", (["Ann Lee", "Bo Chen", "Carl Dee"], 3, 3, False)),
    ("Ann Lee, Bo Chen and Carl Dee", (["Ann Lee", "Bo Chen", "Carl Dee"], 3, 3, False)),
    ("Ann Lee, Bo Chen, & Carl Dee", (["Ann Lee", "Bo Chen", "Carl Dee"], 3, 3, False)),
    ("Hans Müller und Anna Schmidt", (["Hans Müller", "Anna Schmidt"], 2, 2, False)),
    ("Ann Lee, Bo Chen and others", (["Ann Lee", "Bo Chen"], 2, None, True)),
    ("Ann Lee et al.", (["Ann Lee"], 1, None, True)),
    ("Ann Lee, Bo Chen, et al", (["Ann Lee", "Bo Chen"], 2, None, True)),
    ("张三、李四、王五", (["张三", "李四", "王五"], 3, 3, False)),
    ("张三、李四等人", (["张三", "李四"], 2, None, True)),
    ("Smith, John", (["John Smith"], 1, 1, False)),
    ("Smith, J.", (["J. Smith"], 1, 1, False)),
    ("van der Berg, Anna Maria", (["Anna Maria van der Berg"], 1, 1, False)),
    ("Smith, Jones", (["Jones Smith"], 1, 1, False)),  # read as Last, First: see SINGLE_LAST_FIRST
    ("张伟，李娜", (["张伟", "李娜"], 2, 2, False)),  # never Last, First in CJK
    ("Ann Lee, Bo", (["Ann Lee", "Bo"], 2, 2, False)),  # "Ann Lee" is no surname alone
    ("Smith, John, Jones, Mary", (["John Smith", "Mary Jones"], 2, 2, False)),  # pairs: see LAST_FIRST_PAIRS
    ("Ann Smith1,2, Bo Jones2", (["Ann Smith", "Bo Jones"], 2, 2, False)),
    ("Ann Smith¹, Bo Jones²³", (["Ann Smith", "Bo Jones"], 2, 2, False)),
    ("Ann Smith*, Bo Jones†, Carl Dee‡", (["Ann Smith", "Bo Jones", "Carl Dee"], 3, 3, False)),
    # other marks: symbols ("∗" U+2217, "⁎", "✉" corresponding author, "✝", "♯", "#") stayed in the
    # shown name ("Bo Chen✉"); superscript letters changed the person's key ("Ann Leeᵃ": "ann leea")
    ("Ann Lee∗, Bo Chen⁎✉, Carl Dee✝, Di Eve♯, Fay Gee#", (["Ann Lee", "Bo Chen", "Carl Dee", "Di Eve", "Fay Gee"], 5, 5, False)),
    ("Ann Leeᵃ, Bo Chenᵇ,ᶜ and Carl Deeʰ", (["Ann Lee", "Bo Chen", "Carl Dee"], 3, 3, False)),
    ("Kaʻiulani Lee, Ann Lee ✉", (["Kaʻiulani Lee", "Ann Lee"], 2, 2, False)),  # an ʻokina is a letter
    ("⾼伟, ⻩丽✉", (["⾼伟", "⻩丽"], 2, 2, False)),  # CJK radicals, as a PDF copy gives Han letters, stay
    ("Jaʰn Lee, Bo Chenʰ", (["Jaʰn Lee", "Bo Chen"], 2, 2, False)),  # a mark ends a name
    # marks of two kinds in one run split it: "ᵃ", "1", "¹" were loaded as authors, "¹" kept after "*"
    ("Ann Lee¹,ᵃ, Bo Chen²", (["Ann Lee", "Bo Chen"], 2, 2, False)),
    ("Ann Lee*,1, Bo Chen†,2, Carl Deeᵃ,¹", (["Ann Lee", "Bo Chen", "Carl Dee"], 3, 3, False)),
    ("Ann Lee*¹, Bo Chen1, 2, Carl Dee3", (["Ann Lee", "Bo Chen", "Carl Dee"], 3, 3, False)),
    # superscript digits apart from the name, or before it; marks in nested TeX groups
    ("¹Ann Lee, ²Bo Chen ³, Carl ✉ Dee", (["Ann Lee", "Bo Chen", "Carl Dee"], 3, 3, False)),
    ("Ann Lee$^{\\text{a},1}$, Bo Chen\\textsuperscript{\\textdagger}, Carl Dee^{\\ast{}}", (["Ann Lee", "Bo Chen", "Carl Dee"], 3, 3, False)),
    # other ways to say how many are left out: "one more" was loaded as a person, "+3 more" stayed
    # in the last name, "(+3)" was dropped with the affiliations, "... and 3 more" had no total
    ("Ann Lee, Bo Chen and one more", (["Ann Lee", "Bo Chen"], 2, 3, True)),
    ("Ann Lee, Bo Chen +3 more", (["Ann Lee", "Bo Chen"], 2, 5, True)),
    ("Ann Lee, Bo Chen (+3)", (["Ann Lee", "Bo Chen"], 2, 5, True)),
    ("Ann Lee (MIT), Bo Chen (2 more)", (["Ann Lee", "Bo Chen"], 2, 4, True)),
    ("Ann Lee, Bo Chen and 3 more authors", (["Ann Lee", "Bo Chen"], 2, 5, True)),
    ("Ann Lee, Bo Chen, ... and 3 more", (["Ann Lee", "Bo Chen"], 2, 5, True)),
    ("Ann Lee, Bo Chen & 2 others", (["Ann Lee", "Bo Chen"], 2, 4, True)),
    ("Ann Lee, Bo Chen, 3 more", (["Ann Lee", "Bo Chen"], 2, 5, True)),
    ("Ann Lee, Bo Chen plus twenty more", (["Ann Lee", "Bo Chen"], 2, 22, True)),
    ("Ann Lee, Bo Chen and 3 additional authors.", (["Ann Lee", "Bo Chen"], 2, 5, True)),
    ("Ann Lee, Bo Chen [+3]", (["Ann Lee", "Bo Chen"], 2, 5, True)),
    ("Ann Lee, Bo Chen (and 3 more)", (["Ann Lee", "Bo Chen"], 2, 5, True)),
    ("Ann Lee, Bo Chen und 3 weitere", (["Ann Lee", "Bo Chen"], 2, 5, True)),
    ("Ann Lee, Bo Chen and colleagues", (["Ann Lee", "Bo Chen"], 2, None, True)),
    ("Ann Lee, Bo Chen, among others", (["Ann Lee", "Bo Chen"], 2, None, True)),
    ("Ann Lee (1), Bo Chen (2)", (["Ann Lee", "Bo Chen"], 2, 2, False)),  # numbered affiliations, not a count
    # titles, degrees and addresses are not names: they made other people ("prof dr hans muller",
    # a person "Ph.D.", "hans muller hans ethz ch")
    ("Prof. Dr. Hans Müller, Dr Anna Schmidt and Prof. Dr.-Ing. Karl Heinz",
     (["Hans Müller", "Anna Schmidt", "Karl Heinz"], 3, 3, False)),
    ("Hans Müller PhD, Anna Schmidt, Ph.D., Bo Chen MSc", (["Hans Müller", "Anna Schmidt", "Bo Chen"], 3, 3, False)),
    ("Hans Müller <hans@ethz.ch>, Anna Schmidt (anna.s@uni-bonn.de), Bo Chen bo@x.org",
     (["Hans Müller", "Anna Schmidt", "Bo Chen"], 3, 3, False)),
    ("Drew Barrymore, Mrinal Sen, Ann Lee MD", (["Drew Barrymore", "Mrinal Sen", "Ann Lee MD"], 3, 3, False)),
    ("Assoc. Prof. Anna Adler, Prof.Dr. Hans Müller, Priv.-Doz. Dr. Karl Heinz and Dr. med. Bo Chen",
     (["Anna Adler", "Hans Müller", "Karl Heinz", "Bo Chen"], 4, 4, False)),
    ("Professor Emeritus Ann Lee, Dipl.-Ing. Karl Heinz, MBA, Bo Chen FRS", (["Ann Lee", "Karl Heinz", "Bo Chen"], 3, 3, False)),
    # credentials as items of their own, as clinical lists print them: "MD" was a person (a top
    # author), every position after it shifted; in a semicolon list "MD John Smith" ("Last, First")
    ("John Smith, MD, MPH, Jane Doe, RN, Peter Brown, PharmD", (["John Smith", "Jane Doe", "Peter Brown"], 3, 3, False)),
    ("John Smith, M.D., Ph.D., Jane Doe, FRCS and Bo Chen", (["John Smith", "Jane Doe", "Bo Chen"], 3, 3, False)),
    ("John Smith, MD", (["John Smith"], 1, 1, False)),
    ("Ann Lee, RN, BSN, CCRN, Bo Chen", (["Ann Lee", "Bo Chen"], 2, 2, False)),
    # the kind, not the list: fellowships and memberships of other colleges, pharmacy degrees
    ("Ann Lee, FACOG, Bo Chen, FRCPE, Carl Wu, MRCPsych, Dan Ng, BPharm", (["Ann Lee", "Bo Chen", "Carl Wu", "Dan Ng"], 4, 4, False)),
    # and not initials or a surname in "Surname, Initials" pairs (the review's: "Jones, MD" lost its
    # initials, "MA, Li" its person), nor Vancouver's "Lee MD", nor names
    ("Smith, JA; Jones, MD; Lee, BS", (["JA Smith", "MD Jones", "BS Lee"], 3, 3, False)),
    ("Smith, JD, Jones, MA, Lee, BS", (["JD Smith", "MA Jones", "BS Lee"], 3, 3, False)),
    ("ZHANG, Wei, MA, Li, DO, Anh", (["Wei ZHANG", "Li MA", "Anh DO"], 3, 3, False)),
    ("Smith, J.; Van Dyke, M.D.; Lee, B.", (["J. Smith", "M.D. Van Dyke", "B. Lee"], 3, 3, False)),
    ("Smith, J., Jones, M.D.", (["J. Smith", "M.D. Jones"], 2, 2, False)),
    ("Jones, M.D.", (["M.D. Jones"], 1, 1, False)),
    ("Smith JA, Lee MD, Brown K", (["Smith JA", "Lee MD", "Brown K"], 3, 3, False)),
    ("Wei Ma, Jun Do, Ann Ba", (["Wei Ma", "Jun Do", "Ann Ba"], 3, 3, False)),
    # "and" and the comma of other scripts (each list was one or two people)
    ("Иван Петров, Сергей Иванов и Анна Смирнова", (["Иван Петров", "Сергей Иванов", "Анна Смирнова"], 3, 3, False)),
    ("Олена Коваль та Петро Шевченко", (["Олена Коваль", "Петро Шевченко"], 2, 2, False)),
    ("राम शर्मा और सीता वर्मा", (["राम शर्मा", "सीता वर्मा"], 2, 2, False)),
    ("สมชาย ใจดี และ สมหญิง รักไทย", (["สมชาย ใจดี", "สมหญิง รักไทย"], 2, 2, False)),
    ("გიორგი ბერიძე და ნინო კაპანაძე", (["გიორგი ბერიძე", "ნინო კაპანაძე"], 2, 2, False)),
    ("김철수 및 이영희", (["김철수", "이영희"], 2, 2, False)),
    # ... in small letters only: capitalised, they are initials and names (the review's)
    ("Иванов И И, Петров А Б", (["Иванов И И", "Петров А Б"], 2, 2, False)),
    ("Нгуен Ван Ань, Та Куанг Бу", (["Нгуен Ван Ань", "Та Куанг Бу"], 2, 2, False)),
    ("Γιώργος Παπαδόπουλος, Νίκος Νικολάου και Μαρία Κ.", (["Γιώργος Παπαδόπουλος", "Νίκος Νικολάου", "Μαρία Κ."], 3, 3, False)),
    ("محمد علي، أحمد حسن و فاطمة الزهراء", (["محمد علي", "أحمد حسن", "فاطمة الزهراء"], 3, 3, False)),
    ("José Ortega y Gasset, María Pérez", (["José Ortega y Gasset", "María Pérez"], 2, 2, False)),  # "y" within a name
    # collaborations: one item each ("The ATLAS Collaboration: G. Aad" was one person; "ATLAS"
    # and "CMS Collaborations" two)
    ("The ATLAS Collaboration: G. Aad, B. Abbott", (["The ATLAS Collaboration", "G. Aad", "B. Abbott"], 3, 3, False)),
    ("ATLAS and CMS Collaborations", (["ATLAS Collaboration", "CMS Collaboration"], 2, 2, False)),
    ("ATLAS and CMS Collaborations: G. Aad", (["ATLAS Collaboration", "CMS Collaboration", "G. Aad"], 3, 3, False)),
    # a group that writes for another, or "for" inside a name, is one author (the review's; a real
    # JAMA author, "Writing Group for ...", was cut to "Writing Group")
    ("Writing Group for the DCCT/EDIC Research Group", (["Writing Group for the DCCT/EDIC Research Group"], 1, 1, False)),
    ("Ann Lee, Center for Open Science Collaboration", (["Ann Lee", "Center for Open Science Collaboration"], 2, 2, False)),
    ("Ann Lee, Bo Chen, on behalf of the CMS Collaboration", (["Ann Lee", "Bo Chen"], 2, 2, False)),
    ("Ann Lee, Bo Chen, Group Leader", (["Ann Lee", "Bo Chen", "Group Leader"], 3, 3, False)),
    # a total declared in brackets (dropped as an affiliation: the list was complete)
    ("G. Aad, B. Abbott, D. C. Abbott (2,934 authors)", (["G. Aad", "B. Abbott", "D. C. Abbott"], 3, 2934, True)),
    ("Ann Lee, Bo Chen et al. [50 authors in total]", (["Ann Lee", "Bo Chen"], 2, 50, True)),
    ("Ann Lee, Bo Chen (2 authors)", (["Ann Lee", "Bo Chen"], 2, 2, False)),
    ("Nat Friedman, Ing Wong, Dr. Dre", (["Nat Friedman", "Ing Wong", "Dre"], 3, 3, False)),  # names, not titles
    # bibliography forms: "Surname, Initials" between commas, BibTeX's "Last, First and Last, First"
    # (each was read as a list: "Smith", "J.", "Jones", "B.", ...)
    ("Smith, J., Jones, B. R., and van der Berg, C.-P.", (["J. Smith", "B. R. Jones", "C.-P. van der Berg"], 3, 3, False)),
    ("Smith, J., Jones, B. et al.", (["J. Smith", "B. Jones"], 2, None, True)),
    ("Smith, John and Doe, Jane", (["John Smith", "Jane Doe"], 2, 2, False)),
    ("Knuth, Donald E. and Lamport, Leslie and van Dam, Andries", (["Donald E. Knuth", "Leslie Lamport", "Andries van Dam"],
                                                                   3, 3, False)),
    ("Ann Lee, Bo Chen and Carl Dee, Di Eve", (["Ann Lee", "Bo Chen", "Carl Dee", "Di Eve"], 4, 4, False)),  # names in full
    # one-word "Surname, Given" pairs between commas (were four people: "Smith", "John", ...),
    # when real authors wear the parts in those places; one-word names the reference does not
    # know, and an odd count, stay a list
    ("Smith, John, Doe, Jane", (["John Smith", "Jane Doe"], 2, 2, False)),
    ("Lee, Ann, Park, Bo, Kim, Chul", (["Ann Lee", "Bo Park", "Chul Kim"], 3, 3, False)),
    ("van der Berg, Anna, Garcia, Maria and Müller, Hans", (["Anna van der Berg", "Maria Garcia", "Hans Müller"], 3, 3, False)),
    ("Smith, John, Doe, Jane, et al.", (["John Smith", "Jane Doe"], 2, None, True)),
    ("Sukarno, Hatta, Habibie, Wahid", (["Sukarno", "Hatta", "Habibie", "Wahid"], 4, 4, False)),
    ("Smith, John, Doe", (["Smith", "John", "Doe"], 3, 3, False)),
    # a one-word author the reference knows as no surname, then a full name: two authors (real arXiv
    # lists: "Mansi, Avinash Kori" was one person "Avinash Kori Mansi"); a known surname, particles or
    # an initial keep the "Surname, Given" reading
    ("Mansi, Avinash Kori", (["Mansi", "Avinash Kori"], 2, 2, False)),
    ("Nilaksh, Antoine Clavaud", (["Nilaksh", "Antoine Clavaud"], 2, 2, False)),
    ("Smith, John Paul", (["John Paul Smith"], 1, 1, False)),
    ("Garcia, Maria Jose", (["Maria Jose Garcia"], 1, 1, False)),
    ("Knuth, Donald E.", (["Donald E. Knuth"], 1, 1, False)),
    # "Others" as the list's last item: more names, not a person (was a third author, the list complete)
    ("Ann Lee, Bo Chen, Others", (["Ann Lee", "Bo Chen"], 2, None, True)),
    # a name in capitals keeps a last word that spells a degree: Mba is a surname (was "JEAN")
    ("JEAN MBA, PAUL NGUEMA, Bo Chen, MBA", (["JEAN MBA", "PAUL NGUEMA", "Bo Chen"], 3, 3, False)),
    ("JOHN SMITH PhD, JANE DOE MSc", (["JOHN SMITH", "JANE DOE"], 2, 2, False)),  # a degree not in capitals
    # the surname first in capitals, as on OpenReview profiles (was the key "wang jiaxu"), when the
    # reference knows the capitals as a surname or the next word as a given name
    ("WANG Jiaxu, ALLGEUER Philipp, ZHANG Wei-Qiang", (["Jiaxu Wang", "Philipp Allgeuer", "Wei-Qiang Zhang"], 3, 3, False)),
    # and not two capitals, which may be initials without periods ("GE Hinton" was "Hinton Ge"), unless
    # a surname stands before a given name in Pinyin or one the reference knows (hunt 52: "LI Siyao"
    # was another person than the listing's "Siyao Li", 36 of 36 real people so printed)
    ("IBM Research, AJ Smith, GE Hinton, JY Li, KC Tan", (["IBM Research", "AJ Smith", "GE Hinton", "JY Li", "KC Tan"],
                                                         5, 5, False)),
    ("LI Siyao, HU Erzhen, MA Lijun, WU Jiaxin, LI Yang", (["Siyao Li", "Erzhen Hu", "Lijun Ma", "Jiaxin Wu", "LI Yang"],
                                                           5, 5, False)),
    # an ORCID iD after a name, bare or as an address (made another person: "Ann Lee 0000-…")
    ("Ann Lee 0000-0002-1825-0097, Bo Chen https://orcid.org/0000-0002-1825-009X, Carl Dee ORCID: 0000-0001-5109-3700",
     (["Ann Lee", "Bo Chen", "Carl Dee"], 3, 3, False)),
    ("Ann Lee, Bo Chen, …", (["Ann Lee", "Bo Chen"], 2, None, True)),
    ("Ann Lee, Bo Chen...", (["Ann Lee", "Bo Chen"], 2, None, True)),
    ("Ann Lee, Bo Chen, ..., Zed Zhu", (["Ann Lee", "Bo Chen", "Zed Zhu"], 3, None, True)),
    ("Hans Anderson, Alexandra Ferrand, Sandra Andrews", (["Hans Anderson", "Alexandra Ferrand", "Sandra Andrews"],
                                                          3, 3, False)),
    ("Munos, Rémi; Valko, Michal; and Doe, John", (["Rémi Munos", "Michal Valko", "John Doe"], 3, 3, False)),
    # full names between both separators: not "Last, First" pairs ("Bo Chen Ann Lee" was one person,
    # "Bo Chen, Carl Wu, Dan Li" another)
    ("Ann Lee, Bo Chen; Carl Wu", (["Ann Lee", "Bo Chen", "Carl Wu"], 3, 3, False)),
    ("Ann Lee; Bo Chen, Carl Wu, Dan Li", (["Ann Lee", "Bo Chen", "Carl Wu", "Dan Li"], 4, 4, False)),
    ("Munos, Rémi; Valko, Michal;", (["Rémi Munos", "Michal Valko"], 2, 2, False)),
    ("Munos, Rémi; Plato", (["Rémi Munos", "Plato"], 2, 2, False)),  # a mononym beside pairs
    # "Etc" as a surname (hypothesis's find: "Aa Etc" was "Aa", the list cut short); "etc" in small letters or after a comma ends it
    ("Aa Etc, Bo Etc", (["Aa Etc", "Bo Etc"], 2, 2, False)),
    ("Ann Lee, Bo Chen etc", (["Ann Lee", "Bo Chen"], 2, None, True)),
    ("Ann Lee, Bo Chen, ETC", (["Ann Lee", "Bo Chen"], 2, None, True)),
    # the last pair joined by "and" or "&" (read as one item of two commas, the list was six words)
    ("Munos, Rémi; Valko, Michal and Lazaric, Alessandro", (["Rémi Munos", "Michal Valko", "Alessandro Lazaric"], 3, 3, False)),
    ("Munos, Rémi; Valko, Michal & Lazaric, Alessandro", (["Rémi Munos", "Michal Valko", "Alessandro Lazaric"], 3, 3, False)),
    # a middle dot or bullet between spaces, as conference sites print lists (was one author)
    ("Kevin Wang · Hongqian Niu · Didong Li", (["Kevin Wang", "Hongqian Niu", "Didong Li"], 3, 3, False)),
    ("Kevin Wang • Hongqian Niu", (["Kevin Wang", "Hongqian Niu"], 2, 2, False)),
    # a bar between spaces (was one person "Ann Lee | Bo Chen | Carl Wu"); not a slash, which may
    # join one person's two spellings
    ("Ann Lee | Bo Chen | Carl Wu", (["Ann Lee", "Bo Chen", "Carl Wu"], 3, 3, False)),
    ("Wei Zhang / 张伟", (["Wei Zhang / 张伟"], 1, 1, False)),
    # a sentence's period after the last name (was the name's display spelling "Carl Wu."); an
    # abbreviation's in a list with other periods, and a suffix's, stay (the review's "Yu.")
    ("Dan Ng, Eve Park, Carl Wu.", (["Dan Ng", "Eve Park", "Carl Wu"], 3, 3, False)),
    ("Ann Lee, Sourav Mandal.", (["Ann Lee", "Sourav Mandal"], 2, 2, False)),
    ("Lee A., Chen B.", (["Lee A.", "Chen B."], 2, 2, False)),
    ("Petrov A., Ivanov Yu.", (["Petrov A.", "Ivanov Yu."], 2, 2, False)),
    ("Ivanov, A., Petrov, Yu.", (["A. Ivanov", "Yu. Petrov"], 2, 2, False)),
    ("Ann Lee, John Smith, Jr.", (["Ann Lee", "John Smith Jr."], 2, 2, False)),
    # a name withheld is no person ("Anonymous" was a top author, "Anonymous, Anonymous" one person)
    ("Anonymous", ([], 0, None, True)),
    ("Anonymous Authors", ([], 0, None, True)),
    ("Anonymous, Anonymous", ([], 0, None, True)),
    ("Ann Lee, Anonymous", (["Ann Lee"], 1, None, True)),
    ("Anon Chantharat, Ann Lee", (["Anon Chantharat", "Ann Lee"], 2, 2, False)),
    ("Ann Lee, Anon", (["Ann Lee", "Anon"], 2, 2, False)),  # a Thai given name, a mononym
    # a placeholder for names not known ("N/A" was loaded as a person; hunt 51)
    ("N/A", ([], 0, None, True)),
    ("Unknown", ([], 0, None, True)),
    ("Ann Lee, N/A", (["Ann Lee"], 1, None, True)),
    # other words of the kind (the third read of session 51)
    ("Authors withheld", ([], 0, None, True)),
    ("<anonymous>", ([], 0, None, True)),
    ("None given", ([], 0, None, True)),
    ("Nonez Unknownson, Ann Lee", (["Nonez Unknownson", "Ann Lee"], 2, 2, False)),
])
def test_author_list_forms(line, expected):
    assert split([line]) == [expected]


# "et al." in its other spellings and "and others" in other languages: each was loaded as a person
# ("al.", "others.", "alii") or glued to the last name ("Carl Wu y otros"), and the list as complete.
UNSAID_ENDINGS = ["et al.,", "& al.", "and al.", "and others.", ", et alii", "et alia", "and many others", "and several others",
                  ", and other authors", "u.a.", "und andere", "y otros", "y cols.", "e outros", "e altri", "et coll.",
                  "en anderen", "og flere", "m.fl.", "ja muut", "ve diğerleri", "và cộng sự", "и др.", "i in.", "a kol.",
                  "ほか", "他", "等", "等人", "等 5 人", "외",
                  # in brackets (read as an affiliation and dropped: the list was complete)
                  "(et al.)", "[et al.]", "(and others)", "（et al.）",
                  "και άλλοι", "κ.ά.", "وآخرون"]
COUNTED_ENDINGS = [("et 2 autres", 2), ("y 2 más", 2), ("e 3 outros", 3), ("und 2 weitere", 2), ("外 2 名", 2),
                   ("他2名", 2), ("ほか 3 名", 3), ("and 2 others.", 2),
                   # digits in groups ("2" was a person, the total 935) and "authors" after a plus
                   ("and 2,931 more", 2931), ("and 1,000 more", 1000), ("and 2.931 more", 2931),
                   ("and 2\u00a0931 more", 2931), ("[+2931 authors]", 2931), ("(+2,931 authors)", 2931),
                   ("and 2'931 more", 2931), ("and 2\u2009931 more", 2931), ("and 12,345 more", 12345)]


@pytest.mark.parametrize("ending", UNSAID_ENDINGS)
@pytest.mark.parametrize("names", [["Ann Lee", "Bo Chen", "Carl Wu"], ["山田太郎", "佐藤花子"]])
def test_a_list_ending_in_another_language_says_more_names_exist(names, ending):
    sep = ", " if names[0].isascii() else "、"
    line = sep.join(names) + ("" if ending.startswith(",") else " ") + ending
    assert split([line]) == [(names, len(names), None, True)]


@pytest.mark.parametrize("ending,count", COUNTED_ENDINGS)
def test_a_list_ending_with_a_count_in_another_language_counts_it(ending, count):
    assert split([f"Ann Lee, Bo Chen {ending}"]) == [(["Ann Lee", "Bo Chen"], 2, 2 + count, True)]


@pytest.mark.parametrize("line,names", [
    ("Hardy Otros, Ann Lee", ["Hardy Otros", "Ann Lee"]),  # a word that ends a list, in a name
    ("Ann Lee and Al", ["Ann Lee", "Al"]),  # "and al." only with its period
    ("Smith, J., Jones, E.A.", ["J. Smith", "E.A. Jones"]),  # initials, not "e.a."
    ("Li Wai, Ann Lee", ["Li Wai", "Ann Lee"]),
    # the review's: a surname ending in "and al." or "et al", a last initial and word that spell an
    # abbreviation in capitals, a person Alia joined by "et", 外 in a name before a mark
    ("Ann Lee, Mark Randal", ["Ann Lee", "Mark Randal"]),
    ("Ann Lee, Hamid Metalios", ["Ann Lee", "Hamid Metalios"]),
    ("Ann Lee, Hamid Metal", ["Ann Lee", "Hamid Metal"]),
    ("Ann Lee, John A Kol", ["Ann Lee", "John A Kol"]),
    ("Ann Lee, Anna I In", ["Ann Lee", "Anna I In"]),
    ("Marie Dupont et Alia", ["Marie Dupont", "Alia"]),
    ("张三1, 李外2", ["张三", "李外"]),
])
def test_names_that_hold_a_list_ending_word_stay_names(line, names):
    assert split([line]) == [(names, len(names), len(names), False)]


NAME_GIVEN = ["Ann", "Rémi", "Alexandra", "Sandra", "Andrea", "Étienne", "Jean-Pierre", "Mary Jo", "J.", "danah",
              "Zhengping", "Łukasz", "Ngọc Anh", "Carola-Bibiane"]
NAME_SURNAME = ["Anderson", "Ferrand", "Andrews", "Munos", "Rizvi-Martel", "van der Berg", "de la Cruz", "ben Amor",
                "O'Neil", "Døring", "boyd", "Nguyễn", "Landau", "Grand"]
CJK_NAMES = ["张三", "李四", "王五", "赵六", "陈明", "山田太郎"]


@st.composite
def person(draw) -> tuple[str, str]:
    return draw(st.sampled_from(NAME_GIVEN)), draw(st.sampled_from(NAME_SURNAME))


@st.composite
def written_list(draw):
    """(authors line, the names it shows, whether it is cut short) in one of the written forms."""
    form = draw(st.sampled_from(["comma", "and", "amp", "oxford", "comma-and", "ideographic", "semicolon", "mixed",
                                 "dot"]))
    people = draw(st.lists(person(), min_size=3 if form == "mixed" else 1, max_size=8))
    if form == "ideographic":
        names = draw(st.lists(st.sampled_from(CJK_NAMES), min_size=1, max_size=6))
    else:
        names = [f"{g} {s}" for g, s in people]
    joiner = draw(st.sampled_from(["and", "AND", "And"]))
    marks = draw(st.sampled_from(["", "", "1", "¹", "*", "†", "1,2"])) if form != "semicolon" else ""
    shown = [n + marks for n in names]
    if form == "semicolon":
        pairs = [f"{s}, {g}" for g, s in people]
        last = draw(st.sampled_from(["; ", f" {joiner} ", " & ", f"; {joiner} "]))  # "...; Valko, M and Lazaric, A"
        line = "; ".join(pairs[:-1]) + last + pairs[-1] if len(pairs) > 1 else pairs[0]
    elif form == "mixed":  # full names in groups between semicolons, commas within ("A, B; C")
        line = _grouped(draw, shown)
    elif form == "ideographic":
        line = "、".join(shown)
    elif form == "amp":
        line = " & ".join(shown)
    elif form == "dot":
        line = draw(st.sampled_from([" · ", " • ", " ∙ "])).join(shown)
    elif len(shown) == 1:
        line = shown[0]
    elif form == "and":
        line = ", ".join(shown[:-1]) + f" {joiner} " + shown[-1]
    elif form == "oxford":
        line = ", ".join(shown[:-1]) + f", {joiner} " + shown[-1]
    elif form == "comma-and":
        line = ", ".join(shown[:-1]) + f" {joiner} " + shown[-1]
    else:
        line = ", ".join(shown)
    suffix = draw(st.sampled_from(["", "", "", " et al.", " 等", ", and others", ", …", "..."]))
    return line + suffix, names, bool(suffix)


def _grouped(draw, names: list[str]) -> str:
    """Names in groups between "; ", ", " within a group; not every group a pair (a list of
    two-name groups, "Ann Lee, Bo Chen; Carl Wu, Dan Li", reads as "Last, First" pairs)."""
    cuts = sorted(draw(st.sets(st.integers(1, len(names) - 1), min_size=1)))
    groups = [names[start:end] for start, end in zip([0, *cuts], [*cuts, len(names)])]
    if all(len(group) == 2 for group in groups):
        groups = [groups[0] + groups[1], *groups[2:]] if len(groups) > 2 else [groups[0][:1], groups[0][1:] + groups[1]]
    return "; ".join(", ".join(group) for group in groups)


@given(written_list())
def test_every_written_form_splits_back_to_its_names(case):
    line, names, cut = case
    (got, n_shown, total, truncated), = split([line])
    assert got == names
    assert n_shown == len(names) and truncated == cut
    assert total == (None if cut else len(names))


@given(st.lists(person(), min_size=2, max_size=6), st.integers(1, 40))
def test_and_more_keeps_its_total_in_every_form(people, more):
    names = [f"{g} {s}" for g, s in people]
    for line in [", ".join(names) + f" and {more} more", ", ".join(names) + f", and {more} others"]:
        assert split([line]) == [(names, len(names), len(names) + more, True)]


# ---------------------------------------------------------------------------- issue 12: categories
def test_codes_resolve_whatever_their_case():
    rows = resolve([("cs.lg", ARXIV), ("CS.LG", ARXIV), ("Stat.ml", ARXIV), ("math.it", ARXIV), ("HEP-TH", ARXIV)])
    assert [rows[c]["code"] for c in ("cs.lg", "CS.LG", "Stat.ml", "math.it", "HEP-TH")] == [
        "cs.LG", "cs.LG", "stat.ML", "cs.IT", "hep-th"]
    assert rows["cs.lg"]["name"] == "Machine Learning"


@pytest.mark.parametrize(("line", "code"), [("High Energy Physics - Theory (hep-th)", "hep-th"),
                                             ("Computer Science (cs.LG)", "cs.LG")])
def test_a_named_code_is_its_code(line, code):
    records, quarantine = parse_text(f"#01Oct 26, 2026\n{line}\nA Title\nAnn Lee\nWe study bridges.")
    assert quarantine.is_empty() and records["category_raw"].to_list() == [code]


@pytest.mark.parametrize("line", [
    "cs.LG; stat.ML", "cs.LG, stat.ML", "cs.LG stat.ML", "cs.lg;stat.ml",
    # as arXiv's own pages write it (the record was quarantined: "not an arXiv category code")
    "Machine Learning (cs.LG); Machine Learning (stat.ML)", "Subjects: Machine Learning (cs.LG), Machine Learning (stat.ML)",
])
def test_cross_listed_category_line_is_a_primary_and_secondaries(line):
    records, quarantine = parse_text(f"#01Oct 26, 2026\n{line}\nA Title\nAnn Lee\nWe study bridges.")
    assert quarantine.is_empty()
    listings, _ = clean_listings(records, files_frame("listing"))
    row = listings.row(0, named=True)
    assert (row["listed_code"].lower(), [c.lower() for c in row["secondary_codes"]]) == ("cs.lg", ["stat.ml"])


@pytest.mark.parametrize(("line", "codes"), [
    # a bare code before a named one: the bare code was read as the named one's name and dropped
    ("cs.CV (eess.IV)", ["cs.cv", "eess.iv"]), ("cs.LG(stat.ML)", ["cs.lg", "stat.ml"]),
    ("cs.LG; Artificial Intelligence (cs.AI)", ["cs.lg", "cs.ai"]),
    ("cs.LG, Machine Learning (stat.ML)", ["cs.lg", "stat.ml"]),
    ("math.PR math.ST (stat.TH)", ["math.pr", "math.st", "stat.th"]),
    # ... or after it (the record was quarantined)
    ("Machine Learning (cs.LG); cs.AI", ["cs.lg", "cs.ai"]),
    ("Distributed, Parallel, and Cluster Computing (cs.DC); cs.LG, stat.ML", ["cs.dc", "cs.lg", "stat.ml"]),
    # a hyphenated word of a name in one case is no code (a review: "human-computer" was the primary)
    ("human-computer interaction (cs.HC); artificial intelligence (cs.AI)", ["cs.hc", "cs.ai"]),
    ("HUMAN-COMPUTER INTERACTION (CS.HC)", ["cs.hc"]), ("multi-agent systems (cs.MA)", ["cs.ma"]),
    ("adaptation and self-organizing systems (nlin.AO); hep-th", ["nlin.ao", "hep-th"]),
    ("quant-ph (cond-mat.mes-hall)", ["quant-ph", "cond-mat.mes-hall"]),
])
def test_bare_and_named_codes_on_one_line_are_all_kept_in_order(line, codes):
    records, quarantine = parse_text(f"#01Oct 26, 2026\n{line}\nA Title\nAnn Lee\nWe study bridges.")
    assert quarantine.is_empty()
    listings, _ = clean_listings(records, files_frame("listing"))
    row = listings.row(0, named=True)
    assert [c.lower() for c in [row["listed_code"], *row["secondary_codes"]]] == codes


def test_secondary_category_ids_through_the_pipeline():
    from transforms.pipeline import SourceFile, process_batch

    text = ("#01Oct 26, 2026\ncs.LG; stat.ML; cs.lg\nA Title\nAnn Lee\nWe study bridges.\n"
            "#02Oct 26, 2026\nstat.ML\nB Title\nBo Chen\nWe study tunnels.\n")
    result = process_batch([SourceFile(1, "x.txt", text.encode())])
    ids = dict(result.categories.select("code", "category_id").iter_rows())
    rows = result.listings.sort("position").select("category_id", "secondary_category_ids").rows()
    assert rows == [(ids["cs.LG"], [ids["stat.ML"]]), (ids["stat.ML"], [])]


@pytest.mark.parametrize("count", ["99999999999999999999", "9223372036854775807", "2000000"])
def test_an_impossible_declared_total_is_quarantined_not_dropped(count):
    """"and 99999999999999999999 more" overflowed Int64 to null: the list of two loaded as
    complete; 2^63-1 wrapped below zero (quarantined for a misleading reason); two million
    loaded. The largest real lists hold ~5,000 names."""
    from transforms.pipeline import SourceFile, process_batch

    text = (f"#01Oct 26, 2026\ncs.LG\nA Title\nAnn Lee, Bo Chen and {count} more\nWe study bridges.\n"
            "#02Oct 26, 2026\ncs.LG\nB Title\nAnn Lee, Bo Chen and 5154 more\nWe study tunnels.\n")
    result = process_batch([SourceFile(1, "x.txt", text.encode())])
    assert result.listings.select("position", "author_total").rows() == [(2, 5156)]
    assert result.quarantine.select("line_start", "reason").rows() == [
        (1, "failed CleanListing: declared author total over 100,000 (a broken line)")]


# ---------------------------------------------------------------------------- name suffixes
# "John Smith, Jr., Ann Lee" loaded three authors (John Smith | Jr. | Ann Lee): a generational
# suffix standing alone between separators belongs to the name before it.
@pytest.mark.parametrize(("line", "expected"), [
    ("John Smith, Jr., Ann Lee", (["John Smith Jr.", "Ann Lee"], 2, 2, False)),
    ("Ann Lee, John Smith, Jr.", (["Ann Lee", "John Smith Jr."], 2, 2, False)),
    ("John Smith, Jr.", (["John Smith Jr."], 1, 1, False)),
    ("JOHN SMITH, JR., ANN LEE", (["JOHN SMITH JR.", "ANN LEE"], 2, 2, False)),
    ("john smith, jr, ann lee", (["john smith jr", "ann lee"], 2, 2, False)),
    ("Ann Lee, John Smith, Jr. and Bo Chen", (["Ann Lee", "John Smith Jr.", "Bo Chen"], 3, 3, False)),
    ("John Smith, Jr. & Bo Chen", (["John Smith Jr.", "Bo Chen"], 2, 2, False)),
    ("John Smith, Sr., Ann Lee and 2 more", (["John Smith Sr.", "Ann Lee"], 2, 4, True)),
    ("John Smith, III, Ann Lee, Bo Chen, IV et al.", (["John Smith III", "Ann Lee", "Bo Chen IV"], 3, None, True)),
    ("John Smith1, Jr.2, Ann Lee*", (["John Smith Jr.", "Ann Lee"], 2, 2, False)),
    # "Last, Suffix, First", "Last, First, Suffix", "Last Suffix, First": one person
    ("Smith, Jr., John", (["John Smith Jr."], 1, 1, False)),
    ("Smith, John, Jr.", (["John Smith Jr."], 1, 1, False)),
    ("Smith Jr., John", (["John Smith Jr."], 1, 1, False)),
    ("King, Martin Luther, Jr.", (["Martin Luther King Jr."], 1, 1, False)),
    ("Smith, Jr., John; Lee, Ann", (["John Smith Jr.", "Ann Lee"], 2, 2, False)),
    ("Lee, Ann; Smith, John, Jr.; Chen, Bo", (["Ann Lee", "John Smith Jr.", "Bo Chen"], 3, 3, False)),
    # a suffix written inside the name was one item already
    ("Robert E. Schapire, Martin Luther King Jr., Ann Lee",
     (["Robert E. Schapire", "Martin Luther King Jr.", "Ann Lee"], 3, 3, False)),
    # not suffixes: a surname, a given name, an initial
    ("Andrew Senior, Ann Lee", (["Andrew Senior", "Ann Lee"], 2, 2, False)),
    ("Senior, Andrew", (["Andrew Senior"], 1, 1, False)),
    ("Junior Santos, Ann Lee", (["Junior Santos", "Ann Lee"], 2, 2, False)),
    ("Naoki Ii, Ann Lee", (["Naoki Ii", "Ann Lee"], 2, 2, False)),
    ("Smith, J.", (["J. Smith"], 1, 1, False)),
    ("Jr. Tanaka, Ann Lee", (["Jr. Tanaka", "Ann Lee"], 2, 2, False)),
])
def test_a_name_suffix_belongs_to_the_name_before_it(line, expected):
    assert split([line]) == [expected]


def test_a_suffixed_name_keys_alike_in_every_written_form_and_apart_from_the_bare_name():
    lines = ["John Smith Jr.", "John Smith, Jr.", "Smith, Jr., John", "Smith, John, Jr.", "SMITH JR., JOHN",
             "Smith, John Jr; Lee, Ann", "John Smith Jr", "John Smith"]
    text = "\n".join(f"#{i:02d}Oct 26, 2026\ncs.LG\nTitle {i}\n{line}\nWe study bridges number {i}."
                     for i, line in enumerate(lines, 1))
    records, quarantine = parse_text(text)
    listings, _ = clean_listings(records, files_frame("listing"))
    assert quarantine.is_empty() and listings.height == len(lines)
    keys = [k[0] for k in listings.sort("position")["author_keys"].to_list()]
    assert keys == ["john smith jr"] * 7 + ["john smith"]


SUFFIXES = ["Jr.", "Jr", "Sr.", "JR.", "II", "III", "IV"]


@st.composite
def suffixed_list(draw):
    """(authors line, its names): some people carry a suffix, written after a comma ("Ann
    Anderson, Jr.") in a list, or as "Anderson, Ann, Jr." / "Anderson, Jr., Ann" in a semicolon list."""
    form = draw(st.sampled_from(["comma", "and", "amp", "oxford", "semicolon"]))
    people = draw(st.lists(st.tuples(st.sampled_from(NAME_GIVEN), st.sampled_from(NAME_SURNAME),
                                     st.sampled_from(["", "", *SUFFIXES])), min_size=1, max_size=6))
    names = [f"{g} {s} {x}".rstrip() for g, s, x in people]
    marks = draw(st.sampled_from(["", "1", "*", "1,2"])) if form != "semicolon" else ""
    if form == "semicolon":
        written = [f"{s}, {g}" + (draw(st.sampled_from([f", {x}", f" {x}"])) if x else "") if draw(st.booleans())
                   else f"{s}, " + (f"{x}, " if x else "") + g for g, s, x in people]
        line = "; ".join(written)
    else:
        written = [f"{g} {s}" + (f", {x}" if x else "") + marks for g, s, x in people]
        joiner = {"comma": ", ", "and": " and ", "amp": " & ", "oxford": ", and "}[form]
        line = ", ".join(written[:-1]) + (joiner if len(written) > 1 else "") + written[-1]
        line = ", ".join(written) if form == "comma" else line
    return line + draw(st.sampled_from(["", " et al.", " and 3 more"])), names


@given(suffixed_list())
def test_every_suffixed_list_splits_back_to_its_names(case):
    line, names = case
    (got, n_shown, total, _), = split([line])
    assert got == names
    assert n_shown == len(names)
    assert total in (None, len(names), len(names) + 3)


def test_a_collaboration_is_one_author_with_or_without_a_small_the():
    """"ATLAS Collaboration" and "the ATLAS collaboration" were two authors (each ranked first by
    papers): a small "the" is left out. ("The ATLAS Collaboration", as arXiv writes names, keeps its
    key: the key is the name's own everywhere it is read.)"""
    from conftest import parse_text
    from transforms.clean import clean_listings

    lines = ["ATLAS Collaboration", "the ATLAS collaboration", "Ann Lee, the Virgo Collaboration", "Theo Group"]
    text = "".join(f"#{i:02d}Oct 26, 2026\nhep-ex\nTitle {i}\n{line}\nWe measure the cross-section of process {i} in "
                   f"proton collisions at the LHC with the full Run 2 dataset, and find agreement with the predictions "
                   f"of the Standard Model at every energy.\n" for i, line in enumerate(lines, 1))
    records, _ = parse_text(text)
    listings, _ = clean_listings(records, pl.DataFrame({"file_idx": [0], "source_file_id": [1], "format": ["listing"]}))
    assert listings["author_keys"].to_list() == [["atlas collaboration"]] * 2 + [["ann lee", "virgo collaboration"],
                                                                                 ["theo group"]]


# Chinese names between spaces (hunt 50: "张伟 李娜 王芳" was one person, in both formats): three or
# more of two to four characters are a list; two may be one Japanese name, surname and given name.
@pytest.mark.parametrize("line,names", [
    ("张伟 李娜 王芳", ["张伟", "李娜", "王芳"]),
    ("张伟\u3000李娜\u3000王芳\u3000欧阳娜娜", ["张伟", "李娜", "王芳", "欧阳娜娜"]),
    ("张伟 李娜 王芳 等", ["张伟", "李娜", "王芳"]),
    ("今泉 允聡", ["今泉 允聡"]),
    ("张伟 李娜", ["张伟 李娜"]),
    ("张 伟", ["张 伟"]),
    # other words between spaces (the review of session 50): an affiliation, a Japanese honorific,
    # keywords taken for the names: never cut into "people"
    ("张伟 清华大学 计算机系", ["张伟 清华大学 计算机系"]),
    ("山田 太郎 先生", ["山田 太郎 先生"]),
    ("深度学习 神经网络 图像分割", ["深度学习 神经网络 图像分割"]),
    ("張偉 李娜 陳靜", ["張偉", "李娜", "陳靜"]),
])
def test_chinese_names_between_spaces(line, names):
    assert split_authors(pl.DataFrame({"authors_raw": [line]}))["authors"].to_list() == [names]


CHINESE_NAME = st.builds(str.__add__, st.sampled_from(sorted(_CHINESE_SURNAMES)),
                         st.text(st.characters(min_codepoint=0x4E00, max_codepoint=0x9FA5), min_size=1, max_size=2))


@given(st.lists(CHINESE_NAME, min_size=3, max_size=10), st.sampled_from([" ", "\u3000", "  "]))
def test_any_chinese_names_between_spaces_read_back(names, space):
    got = split_authors(pl.DataFrame({"authors_raw": [space.join(names)]}))["authors"].to_list()
    assert got == [names]
