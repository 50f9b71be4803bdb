"""schemas.frames evaluates a model's data checks in one Polars pass and asks Pandera only when a
row fails: for any frame, its verdict is Pandera's own, and a frame that fails is quarantined
exactly as Pandera's failure cases say."""

from __future__ import annotations

import datetime as dt

import pandera.polars as pa
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schemas.frames import (ABSTRACT_MAX, AUTHORS_MAX, EARLIEST_DATE, RANK_MAX, TITLE_MAX, CleanListing, ParsedRecord,
                            QuarantineRow, passes, validate, validate_or_quarantine)

MODELS = [ParsedRecord, CleanListing, QuarantineRow]
# Values at and beside every bound the models state, and nulls.
EDGES = {
    pl.Int64: [None, -1, 0, 1, 2, RANK_MAX, RANK_MAX + 1],
    pl.String: [None, "", "a", "listing", "search", "arxiv", "conference", "x" * TITLE_MAX, "x" * (TITLE_MAX + 1),
                "y" * (AUTHORS_MAX + 1), "z" * (ABSTRACT_MAX + 1)],
    pl.Date: [None, EARLIEST_DATE - dt.timedelta(days=1), EARLIEST_DATE, dt.date(2026, 11, 30)],
    pl.Boolean: [None, True, False],
}


def columns(model: type[pa.DataFrameModel]) -> dict[str, pl.DataType]:
    return {name: col.dtype.type for name, col in model.to_schema().columns.items()}


@st.composite
def frames(draw, model: type[pa.DataFrameModel]) -> pl.DataFrame:
    schema = columns(model)
    n = draw(st.integers(0, 5))
    data = {name: [draw(st.sampled_from(EDGES[dtype])) for _ in range(n)] for name, dtype in schema.items()}
    return pl.DataFrame(data, schema=schema)


def pandera_passes(df: pl.DataFrame, model: type[pa.DataFrameModel]) -> bool:
    try:
        model.validate(df, lazy=True)
        return True
    except pa.errors.SchemaErrors:
        return False


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
@settings(max_examples=60)
@given(data=st.data())
def test_one_pass_agrees_with_pandera_on_any_frame(model, data):
    df = data.draw(frames(model))
    assert passes(df, model) == pandera_passes(df, model)


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_a_frame_failing_one_check_of_each_kind_is_caught(model):
    """Every check (nullability, a column check, a frame check) alone turns the verdict."""
    good = {ParsedRecord: dict(file_idx=0, position=1, rank=1, listed_on=EARLIEST_DATE, category_raw="cs.LG",
                               title="A title", authors_raw="A. Author", abstract="Text.", raw_text="raw"),
            CleanListing: dict(listing_id=1, source_file_id=1, format="listing", position=1, rank=1,
                               listed_on=EARLIEST_DATE, listed_code="cs.LG", taxonomy="arxiv", title="T", abstract="A",
                               abstract_key="a", n_authors_shown=2, author_total=3, is_truncated=True, paper_key=7),
            QuarantineRow: dict(source_file_id=1, path="p", reason="why", raw_text="raw")}[model]
    row = dict(good, line_start=2, line_end=3)
    schema = columns(model)
    assert passes(pl.DataFrame([row], schema=schema), model)
    breaks = [("line_start", 0 if model is not QuarantineRow else -1), ("line_end", 1),  # line_end 1 < line_start 2
              ("rank", RANK_MAX + 1), ("listed_on", EARLIEST_DATE - dt.timedelta(days=1)), ("format", "other"),
              ("author_total", 1), ("title", "" if model is CleanListing else "x" * (TITLE_MAX + 1))]
    breaks += [(c, None) for c, col in model.to_schema().columns.items() if not col.nullable]
    tried = 0
    for column, value in breaks:
        if column in row:
            bad = pl.DataFrame([row, dict(row, **{column: value})], schema=schema)
            assert not passes(bad, model), (column, value)
            assert not pandera_passes(bad, model), (column, value)
            tried += 1
    assert tried == {ParsedRecord: 12, CleanListing: 18, QuarantineRow: 8}[model]  # every break applies


def test_a_wrong_dtype_or_missing_column_is_raised_not_quarantined():
    df = pl.DataFrame({"line_start": ["1"], "line_end": [1], "source_file_id": [1], "raw_text": ["x"]})
    for model in MODELS:
        assert not passes(df, model)
        with pytest.raises(pa.errors.SchemaErrors):
            validate_or_quarantine(df, model)
        with pytest.raises(pa.errors.SchemaError):
            validate(df, model)


def test_failing_rows_are_quarantined_with_pandera_s_reasons_and_validate_raises():
    row = dict(file_idx=0, position=1, rank=1, listed_on=EARLIEST_DATE, category_raw=None, title="T",
               authors_raw="A. Author", abstract="Text.", raw_text="raw", line_start=1, line_end=1)
    rows = [row, dict(row, authors_raw=""), dict(row, line_start=3, line_end=2, rank=RANK_MAX + 1)]
    df = pl.DataFrame(rows, schema=columns(ParsedRecord)).with_columns(source_file_id=pl.lit(1, pl.Int64))
    good, bad = validate_or_quarantine(df, ParsedRecord)
    assert good.equals(df.head(1))
    assert bad["reason"].to_list() == [
        f"failed ParsedRecord.authors_raw: str_length(1, {AUTHORS_MAX})",
        "failed ParsedRecord.rank: less_than_or_equal_to(1000000); failed ParsedRecord: line_end before line_start"]
    assert bad.drop("reason").equals(df.tail(2))
    with pytest.raises(pa.errors.SchemaError):
        validate(df, ParsedRecord)
    assert validate(df.head(1), ParsedRecord).equals(df.head(1))
