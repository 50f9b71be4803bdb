"""One batch of files, bytes to warehouse-ready frames: decode → detect → parse → clean →
validate → match → merge. Pure: the caller reads the files and loads the result."""

from __future__ import annotations

import codecs
import hashlib
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import polars as pl

from schemas.frames import CleanListing, ParsedRecord, QuarantineRow, validate, validate_or_quarantine
from transforms import mojibake
from transforms.accounting import account_lines
from transforms.categories import listed_codes, resolve_categories, with_secondary_ids
from transforms.clean import clean_listings
from transforms.decode import Decoded, decode_bytes
from transforms.dedupe import PaperMatcher, author_variants, match_exact_abstract, merge_papers
from transforms.formats import FORMATS, UNKNOWN, detect_format, joined
from transforms.formats.common import QUARANTINE_SCHEMA, RECORD_SCHEMA
from transforms.ids import with_stable_ids

RAW_TEXT_LIMIT = 10_000  # quarantine keeps the head of a span: enough to see what went wrong


@dataclass(frozen=True)
class SourceFile:
    source_file_id: int
    path: str
    data: bytes
    sha256: str | None = None  # of the bytes, when the reader computed it (else computed here)


@dataclass
class BatchResult:
    files: pl.DataFrame  # source_file_id, encoding, format, n_lines
    listings: pl.DataFrame  # one row per listing (fact grain)
    papers: pl.DataFrame  # one candidate per paper_key
    authors: pl.DataFrame  # name spellings seen
    categories: pl.DataFrame  # categories seen
    quarantine: pl.DataFrame
    skipped: pl.DataFrame = field(default_factory=lambda: pl.DataFrame(schema={"path": pl.String, "reason": pl.String}))
    timings: dict[str, float] = field(default_factory=dict)
    read_by: tuple[str, int] | None = None  # (host, process) that read the files: a Dask worker's

    def release(self) -> None:
        """Drop the rows (keep the schemas and the timings) once the batch is staged."""
        for name in ("files", "listings", "papers", "authors", "categories", "quarantine", "skipped"):
            setattr(self, name, getattr(self, name).clear())


@dataclass
class DecodedFile:
    """A source file's text until it is cut into lines (`flows.parse_memory` weighs a batch by
    its lines first: `line_count`)."""
    source: SourceFile
    decoded: Decoded | None  # let go once the text is cut into lines


def decode_files(sources: list[SourceFile]) -> list[DecodedFile]:
    """Each source's text (`decode_bytes`)."""
    return [DecodedFile(src, decode_bytes(src.data)) for src in sources]


def line_count(decoded: Decoded) -> int:
    """The lines `_decode` cuts a text into (the last newline ends the last line)."""
    if decoded.encoding in NO_LINES:
        return 0
    return decoded.text.count("\n") + (not decoded.text.endswith("\n"))


def process_batch(sources: list[SourceFile], matcher: PaperMatcher = match_exact_abstract) -> BatchResult:
    started = time.perf_counter()
    texts = decode_files(sources)
    return process_decoded(texts, matcher, decode_seconds=time.perf_counter() - started)


def process_decoded(texts: list[DecodedFile], matcher: PaperMatcher = match_exact_abstract,
                    decode_seconds: float = 0.0) -> BatchResult:
    """`process_batch` of files decoded already (`decode_files`, `decode_seconds` spent on it)."""
    timings: dict[str, float] = {"decode": decode_seconds}
    with _timed(timings, "decode"):
        files, lines, file_quarantine = _decode(texts)
    with _timed(timings, "parse"):
        records, parse_quarantine = _parse(files, lines)
        records, invalid = validate_or_quarantine(records, ParsedRecord)
    with _timed(timings, "clean"):
        listings, clean_quarantine = clean_listings(records, files)
        categories = _categories(listings)
    with _timed(timings, "match"):
        listings = matcher(with_stable_ids(listings, {"listing_id": ["source_file_id", "position"]}))
        listings = listings.join(
            categories.select("listed_code", "category_id", taxonomy="listed_taxonomy"), on=["listed_code", "taxonomy"],
            how="left"
        )
        listings = with_secondary_ids(listings, categories)  # cross-listings: "cs.LG; stat.ML"
    with _timed(timings, "validate"):
        listings, unusable = validate_or_quarantine(listings, CleanListing)
        rejected = [file_quarantine, parse_quarantine, invalid, clean_quarantine, unusable]
        separators, stray = account_lines(lines, pl.concat([_spans(f) for f in [listings, *rejected]]))
        files = files.join(separators, on="file_idx", how="left").with_columns(
            pl.col("n_separator_lines").fill_null(0).cast(pl.Int64)
        )
        quarantine = validate(_quarantine(files, [*rejected, stray]), QuarantineRow)  # a bad row here is a bug
    return BatchResult(
        files=files,
        listings=listings.drop("raw_text", "abstract", "abstract_key", "title"),
        papers=merge_papers(listings),
        authors=author_variants(listings),
        categories=categories.drop("listed_code", "listed_taxonomy").unique("category_id").sort("category_id"),
        quarantine=quarantine,
        timings=timings,
    )


def combined(results: list[BatchResult]) -> BatchResult:
    """Results of parts of a batch as one: what staging each would stage (it appends rows)."""
    if len(results) == 1:
        return results[0]
    timings: dict[str, float] = {}
    for result in results:
        for stage, seconds in result.timings.items():
            timings[stage] = timings.get(stage, 0.0) + seconds
    frames = {name: pl.concat([getattr(r, name) for r in results], how="diagonal_relaxed")
              for name in ("files", "listings", "papers", "authors", "categories", "quarantine", "skipped")}
    return BatchResult(**frames, timings=timings)


@contextmanager
def _timed(timings: dict[str, float], stage: str) -> Iterator[None]:
    started = time.perf_counter()
    yield
    timings[stage] = timings.get(stage, 0.0) + time.perf_counter() - started


_FILE_SCHEMA = {"file_idx": pl.Int64, "source_file_id": pl.Int64, "path": pl.String, "encoding": pl.String,
                "format": pl.String, "text": pl.String, "n_padding_bytes": pl.Int64, "text_sha256": pl.String}
NO_LINES = ("binary", "empty")  # encodings of files that hold no text lines
TRAILING = " \t\n"  # after a file's last character: not part of its content (_text_sha256)


def _decode(texts: list[DecodedFile]) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """Per file (decoded: `decode_files`): encoding and format; all text lines with their numbers;
    file-level rejects. Lines are cut by Python's str.split, one file at a time, each text let go
    once it is cut, and the frame is built from them;
    a file's text stays in the frame only when no format was found in it (its quarantine row
    shows its head). Polars' split of each whole text, a copy of it without its last newline and
    the texts kept to the end held 13-15x a file while it was parsed, now 8-9x, and a 116 MB
    file parses in 2.9-3.3 s, not 5.1-5.5 s (`python -m bench.big_files memory`)."""
    columns: dict[str, list] = {name: [] for name in _FILE_SCHEMA}
    line_texts: list[str] = []
    n_lines: list[int] = []
    for idx, decoded_file in enumerate(texts):
        src, decoded = decoded_file.source, decoded_file.decoded
        decoded_file.decoded = None  # the text is held once, as its lines
        text = decoded.text
        fmt = detect_format(text) if text and not text.isspace() else UNKNOWN
        for name, value in zip(_FILE_SCHEMA, (idx, src.source_file_id, src.path, decoded.encoding, fmt,
                                              text if fmt == UNKNOWN else None, decoded.n_padding_bytes,
                                              _text_sha256(src, decoded))):
            columns[name].append(value)
        if decoded.encoding in NO_LINES:
            n_lines.append(0)
            continue
        own = text.split("\n")
        if text.endswith("\n"):  # the last newline ends the last line: no empty line after it
            own.pop()
        n_lines.append(len(own))
        line_texts += own
        del decoded, text, own
    # Built from columns: from a list of row dicts Polars inferred every row (~7 % of a parse task).
    files = pl.DataFrame(columns, schema=_FILE_SCHEMA)
    lines = (
        pl.DataFrame({"file_idx": columns["file_idx"], "format": columns["format"], "n": n_lines},
                     schema={"file_idx": pl.Int64, "format": pl.String, "n": pl.Int64})
        .select(pl.col("file_idx", "format").repeat_by("n").explode())
        .drop_nulls("file_idx")  # a file of no lines repeats to an empty list: one null row
        .with_columns(line=pl.Series(line_texts, dtype=pl.String))
        .with_columns(line_no=pl.int_range(1, pl.len() + 1, dtype=pl.Int64).over("file_idx"))
    )
    del columns, line_texts
    lines, files = _repaired(lines, files)
    lines, files = _split_joined(lines, files)
    # A binary file counts as one opaque line; an empty file has none.
    files = files.join(lines.group_by("file_idx").agg(n_lines=pl.len()), on="file_idx", how="left").with_columns(
        n_lines=pl.when(pl.col("encoding") == "binary").then(1).otherwise(pl.col("n_lines").fill_null(0))
        .cast(pl.Int64)
    )
    rejected = files.filter(pl.col("format") == UNKNOWN).select(
        "file_idx",
        line_start=pl.col("n_lines").clip(0, 1),
        line_end=pl.col("n_lines"),
        reason=pl.when(pl.col("encoding") == "binary").then(pl.lit("binary file"))
        .when(pl.col("encoding") == "empty").then(pl.lit("empty file"))
        .when(pl.col("text").str.strip_chars() == "").then(pl.lit("file holds only blank lines"))
        .when(pl.col("encoding").str.ends_with("+html")).then(pl.lit("unknown format (an HTML page)"))
        .when(pl.col("encoding").str.contains("+quoted-printable", literal=True))
        .then(pl.lit("unknown format (a quoted-printable e-mail body)"))
        .otherwise(pl.lit("unknown format")),
        raw_text=pl.col("text").str.strip_suffix("\n").str.slice(0, RAW_TEXT_LIMIT),
    )
    # Trailing NUL padding (what a crash leaves) is not text: stripped by decode_bytes, reported
    # here as a span of no line (line 0, like an empty file), so the line audit is unchanged.
    padding = files.filter(pl.col("n_padding_bytes") > 0).select(
        "file_idx", line_start=pl.lit(0, pl.Int64), line_end=pl.lit(0, pl.Int64),
        reason=pl.format("trailing NUL padding: {} bytes removed", "n_padding_bytes"), raw_text=pl.lit(""),
    )
    return files.drop("n_padding_bytes", "text"), lines, pl.concat([rejected, padding])


def _text_sha256(src: SourceFile, decoded: Decoded) -> str:
    """The checksum of the digest a file holds: of its decoded text without the blanks and line
    ends after its last character. A copy saved with other line ends (decode_bytes reads CRLF and
    CR as LF), a BOM, another encoding, with or without a final newline or with blanks at its end
    is the same digest, skipped as content already ingested (merge/10_files.sql) rather than
    counting every listing twice: no parser reads what differs, and no line moves. Blanks at the
    end of inner lines count (quarantine keeps lines as they are), and so do blank lines before
    the text (they move every line). The bytes' checksum where there is no text (or only blank
    lines: each such file is quarantined) or where bytes were lost to U+FFFD ("Padülla" and
    "Padölla" read alike)."""
    data = src.data
    raw = src.sha256 or hashlib.sha256(data).hexdigest()
    if decoded.encoding in NO_LINES or decoded.n_bad_bytes:
        return raw
    plain = decoded.encoding == "utf-8" and not decoded.n_padding_bytes and b"\r" not in data
    if plain and codecs.BOM_UTF8 not in data:
        end = _content_end(data)  # the text is the bytes: hashed in place, not encoded again
        return raw if end in (0, len(data)) else hashlib.sha256(memoryview(data)[:end]).hexdigest()
    text = decoded.text.rstrip(TRAILING)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest() if text else raw


def _content_end(data: bytes) -> int:
    """len(data.rstrip(TRAILING)), from the file's tail: no copy of a large file."""
    tail = data[-4096:]
    kept = tail.rstrip(TRAILING.encode())
    return len(data) - len(tail) + len(kept) if kept or len(tail) == len(data) else len(data.rstrip(TRAILING.encode()))


def _repaired(lines: pl.DataFrame, files: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Mojibake repaired in the lines (`transforms.mojibake`); a file with a repaired line says so
    in its encoding ("utf-8+mojibake-repaired")."""
    repaired, changed = mojibake.repair(lines["line"], lines["file_idx"])  # a file's lines decide ambiguous ones
    if not changed.any():
        return lines, files
    fixed = lines.filter(changed)["file_idx"].unique()
    return lines.with_columns(line=repaired), files.with_columns(
        encoding=pl.when(pl.col("file_idx").is_in(fixed.implode())).then(pl.col("encoding") + "+mojibake-repaired")
        .otherwise("encoding"))


def _split_joined(lines: pl.DataFrame, files: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Files joined end to end (`transforms.formats.joined`): glued openers cut, each part read
    by its own format; a file with a cut line says so in its encoding ("utf-8+unglued")."""
    lines, unglued = joined.split_joined(lines)
    if unglued.is_empty():
        return lines, files
    return lines, files.with_columns(
        encoding=pl.when(pl.col("file_idx").is_in(unglued.implode())).then(pl.col("encoding") + joined.UNGLUED)
        .otherwise("encoding"))


def _spans(frame: pl.DataFrame) -> pl.DataFrame:
    return frame.select(pl.col("file_idx").cast(pl.Int64), pl.col("line_start").cast(pl.Int64),
                        pl.col("line_end").cast(pl.Int64))


def _parse(files: pl.DataFrame, lines: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    records, quarantine = [pl.DataFrame(schema=RECORD_SCHEMA)], [pl.DataFrame(schema=QUARANTINE_SCHEMA)]
    for fmt in FORMATS:
        own = lines.filter(pl.col("format") == fmt.name).drop("format")
        if own.is_empty():
            continue
        good, bad = fmt.parse(own)
        records.append(good.with_columns(format=pl.lit(fmt.name)))
        quarantine.append(bad)
    return _in_file_order(pl.concat(records, how="diagonal")), pl.concat(quarantine)


def _in_file_order(records: pl.DataFrame) -> pl.DataFrame:
    """A file holding both formats (`joined`): each parser numbered its own records from 1, so
    the file's are numbered again in line order (a listing's id is its file and position)."""
    if "format" not in records.columns:  # no file of this batch was parsed
        return records
    both = records.group_by("file_idx").agg(pl.col("format").n_unique()).filter(pl.col("format") > 1)["file_idx"]
    if both.is_empty():
        return records
    return records.with_columns(position=pl.when(pl.col("file_idx").is_in(both.implode())).then(
        pl.col("line_start").rank("ordinal").over("file_idx").cast(pl.Int64)).otherwise("position"))


def _categories(listings: pl.DataFrame) -> pl.DataFrame:
    codes = listed_codes(listings)  # primary and secondary categories
    cats = resolve_categories(codes["listed_code"], codes["taxonomy"])
    return with_stable_ids(cats, {"category_id": ["taxonomy", "code"]})


def _quarantine(files: pl.DataFrame, parts: list[pl.DataFrame]) -> pl.DataFrame:
    """All rejected spans of the batch, with their file and path."""
    ids = files.select("file_idx", "source_file_id", "path")
    spans = [
        p.join(ids, on="file_idx", how="left") if "source_file_id" not in p.columns else p.join(
            ids.drop("file_idx"), on="source_file_id", how="left")
        for p in parts
    ]
    return pl.concat(
        [s.select("source_file_id", "path", "line_start", "line_end", "reason",
                  pl.col("raw_text").str.slice(0, RAW_TEXT_LIMIT)) for s in spans]
    ).sort("source_file_id", "line_start")
