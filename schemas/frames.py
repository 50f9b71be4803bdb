"""Pandera models, one per stage's frame. A row that fails goes to quarantine with the check
that failed; the rest of the run goes on (`validate_or_quarantine`)."""

from __future__ import annotations

import datetime as dt
from functools import cache
from typing import Optional

import pandera.polars as pa
import polars as pl
import pandera.backends.polars.builtin_checks  # noqa: F401 - the polars forms of ge, isin, str_length...
from pandera.api.polars.types import PolarsData

RANK_MAX = 1_000_000
# Longest plausible fields: a longer one is a broken file (a 10 MB line), not a paper. The largest
# collaborations list 5,154 names (~100,000 characters in full): 50,000 quarantined them; more
# would let a broken line of short names through (the co-author pairs view is quadratic in a list).
TITLE_MAX, AUTHORS_MAX, ABSTRACT_MAX = 2_000, 120_000, 100_000
# A declared total ("and 99999999999999999999 more") beyond twenty times those 5,154: a broken
# line, not a paper (read past Int64, it was dropped and the list of two loaded as complete).
AUTHOR_TOTAL_MAX = 100_000
EARLIEST_DATE = dt.date(1991, 1, 1)  # arXiv opened in August 1991


class Lineage(pa.DataFrameModel):
    line_start: int = pa.Field(ge=1)
    line_end: int = pa.Field(ge=1)

    @pa.dataframe_check(error="line_end before line_start")
    def lines_ordered(cls, data) -> pl.LazyFrame:
        return data.lazyframe.select(pl.col("line_end") >= pl.col("line_start"))


class ParsedRecord(Lineage):
    """A record as a format parser read it."""

    file_idx: int = pa.Field(ge=0)
    position: int = pa.Field(ge=1)
    rank: Optional[int] = pa.Field(nullable=True, ge=0, le=RANK_MAX)
    listed_on: Optional[dt.date] = pa.Field(nullable=True, ge=EARLIEST_DATE)
    category_raw: Optional[str] = pa.Field(nullable=True)
    title: Optional[str] = pa.Field(nullable=True, str_length={"max_value": TITLE_MAX})
    authors_raw: str = pa.Field(str_length={"min_value": 1, "max_value": AUTHORS_MAX})
    abstract: str = pa.Field(str_length={"min_value": 1, "max_value": ABSTRACT_MAX})
    raw_text: str


class CleanListing(Lineage):
    """One listing after cleaning: what the dedupe and the load consume."""

    listing_id: int
    source_file_id: int
    format: str = pa.Field(isin=["listing", "search"])
    position: int = pa.Field(ge=1)
    rank: Optional[int] = pa.Field(nullable=True, ge=0, le=RANK_MAX)
    listed_on: Optional[dt.date] = pa.Field(nullable=True, ge=EARLIEST_DATE)
    listed_code: Optional[str] = pa.Field(nullable=True, str_length={"min_value": 1})
    taxonomy: Optional[str] = pa.Field(nullable=True, isin=["arxiv", "conference"])
    title: Optional[str] = pa.Field(nullable=True, str_length={"min_value": 1})
    abstract: str = pa.Field(str_length={"min_value": 1})
    abstract_key: str = pa.Field(str_length={"min_value": 1})
    n_authors_shown: int = pa.Field(ge=1)
    author_total: Optional[int] = pa.Field(nullable=True, ge=1)
    is_truncated: bool
    paper_key: int

    @pa.dataframe_check(error=f"declared author total over {AUTHOR_TOTAL_MAX:,} (a broken line)")
    def total_plausible(cls, data) -> pl.LazyFrame:
        return data.lazyframe.select(pl.col("author_total").is_null() | (pl.col("author_total") <= AUTHOR_TOTAL_MAX))

    @pa.dataframe_check(error="declared author total below the names shown")
    def total_covers_shown(cls, data) -> pl.LazyFrame:
        return data.lazyframe.select(
            pl.col("author_total").is_null() | (pl.col("author_total") >= pl.col("n_authors_shown"))
        )

    class Config:
        strict = False  # list columns (authors, author_keys) are checked by the dtypes below


class QuarantineRow(Lineage):
    """A rejected span. Line 0..0 is a file with no lines (an empty file)."""

    source_file_id: int
    path: str
    line_start: int = pa.Field(ge=0)
    line_end: int = pa.Field(ge=0)
    reason: str = pa.Field(str_length={"min_value": 1})
    raw_text: str


def validate(df: pl.DataFrame, model: type[pa.DataFrameModel]) -> pl.DataFrame:
    """`model.validate(df)`: Pandera's schema checks, then its data checks evaluated in one
    Polars pass (`passes`); only a frame with a failing row runs Pandera's own
    validation, for its failure cases (raised as SchemaError)."""
    if passes(df, model):
        return df
    return model.validate(df)


def passes(df: pl.DataFrame, model: type[pa.DataFrameModel]) -> bool:
    """Whether `df` has `model`'s columns and dtypes and passes its data checks (nullability,
    every column and frame check), evaluated in one collect. Pandera collects each check on its
    own, and even its schema-only validation costs ~10 ms: on a small batch that was 58 % of
    `process_batch`. False for a model using what this pass does not evaluate (unique, coerce,
    strict, regex columns): Pandera decides then."""
    compiled = _compiled(model)
    if compiled is None:
        return False
    dtypes, checks = compiled
    if any(df.schema.get(name) != dtype for name, dtype in dtypes.items()):
        return False  # a missing column or a wrong dtype: Pandera raises it
    if not checks or df.is_empty():
        return True
    lf = df.lazy()
    outcomes = [_outcome(lf, key, check).select(pl.first().alias(f"c{i}")) for i, (key, check) in enumerate(checks)]
    return bool(pl.concat(outcomes, how="horizontal").select(pl.all_horizontal(pl.all()).all()).collect().item())


@cache
def _compiled(model: type[pa.DataFrameModel]) -> tuple[dict[str, pl.DataType], list[tuple[str, pa.Check | None]]] | None:
    """`model`'s column dtypes, and (column or "*", check) for every data check; check None: the
    column is not nullable. None when the model uses a feature `passes` does not evaluate."""
    schema = model.to_schema()
    if schema.unique or schema.coerce or schema.strict or any(c.unique or c.coerce or c.regex
                                                              for c in schema.columns.values()):
        return None
    checks: list[tuple[str, pa.Check | None]] = []
    for name, column in schema.columns.items():
        if not column.nullable:
            checks.append((name, None))
        checks.extend((name, check) for check in column.checks)
    checks.extend(("*", check) for check in schema.checks)
    return {name: column.dtype.type for name, column in schema.columns.items()}, checks


def _outcome(lf: pl.LazyFrame, key: str, check: pa.Check | None) -> pl.LazyFrame:
    """One boolean column, a row's pass or fail, as Pandera's polars backend decides it (its
    check backend's `apply` and null handling; nullability: null, or NaN in a float column)."""
    if check is None:
        present = pl.col(key).is_not_null()
        return lf.select(present & pl.col(key).is_not_nan() if lf.collect_schema()[key].is_float() else present)
    out = check.get_backend(lf)(check).apply(PolarsData(lf, key))
    if isinstance(out, bool):
        return pl.LazyFrame({"ok": [out]})
    ok = pl.first()
    return out.select(ok | ok.is_null() if check.ignore_na else ok.fill_null(False))


def validate_or_quarantine(df: pl.DataFrame, model: type[pa.DataFrameModel]) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(rows that pass, failed rows with a `reason` naming the checks they failed).

    `df` must carry the lineage columns (source_file_id, line_start, line_end, raw_text).
    Failures that name no row (a missing column, a wrong dtype) are bugs, not bad input: raised.
    """
    if passes(df, model):
        return df, df.clear().with_columns(reason=pl.lit("", pl.String))
    try:
        return model.validate(df, lazy=True), df.clear().with_columns(reason=pl.lit("", pl.String))
    except pa.errors.SchemaErrors as err:
        failures = err.failure_cases
        if failures["index"].is_null().any():
            raise
    reasons = (
        failures.group_by("index")
        .agg(reason=_failure_text(model.__name__).unique().sort().str.join("; "))
        .rename({"index": "_row"})
        .with_columns(pl.col("_row").cast(pl.UInt32))
    )
    flagged = df.with_row_index("_row").join(reasons, on="_row", how="left")
    good = flagged.filter(pl.col("reason").is_null()).drop("_row", "reason")
    bad = flagged.filter(pl.col("reason").is_not_null()).drop("_row")
    return good, bad


def _failure_text(model_name: str) -> pl.Expr:
    where = pl.when(pl.col("column") == model_name).then(pl.lit(model_name)).otherwise(
        pl.format("{}.{}", pl.lit(model_name), "column")
    )
    return pl.format("failed {}: {}", where, "check")
