-- Column descriptions for the data dictionary (`digest docs`), kept beside the DDL.
COMMENT ON COLUMN dim_source_file.source_file_id IS 'Id: hash of (path, sha256).';
COMMENT ON COLUMN dim_source_file.sha256 IS 'SHA-256 of the file bytes; content already ingested is skipped.';
COMMENT ON COLUMN dim_source_file.size_bytes IS 'File size in bytes.';
COMMENT ON COLUMN dim_source_file.mtime_ns IS 'Modification time seen at ingest; a file with the same path, mtime, ctime, inode and location as an ingested version is skipped unread.';
COMMENT ON COLUMN dim_source_file.n_lines IS 'Lines in the decoded file (a binary file counts as one, an empty file as none).';
COMMENT ON COLUMN dim_source_file.ingested_at IS 'When the run that loaded this file started.';
COMMENT ON COLUMN dim_source_file.run_id IS 'The ingest_run that loaded this file.';
COMMENT ON COLUMN dim_source_file.n_listings IS 'Listings loaded from this file.';

COMMENT ON COLUMN dim_paper.paper_id IS 'Id: the matching key of the first listing that made this paper; never renumbered.';
COMMENT ON COLUMN dim_paper.abstract IS 'Abstract, cleaned (NFC, single spaces), of the most recent current listing (ties: the longest); a real abstract wins over a withdrawal notice (transforms.resolve.NOTICE_TEXT).';
COMMENT ON COLUMN dim_paper.author_keys IS 'name_key of each entry of authors, same order.';
COMMENT ON COLUMN dim_paper.n_authors_shown IS 'Names in the longest author list seen.';
COMMENT ON COLUMN dim_paper.has_complete_listing IS 'Some listing showed the list without "and K more" or "等".';
COMMENT ON COLUMN dim_paper.last_listed_on IS 'Latest listing date (listing format only).';
COMMENT ON COLUMN dim_paper.n_listings IS 'Appearances of the paper in all files (rows of fact_listing).';

COMMENT ON COLUMN paper_key_map.paper_key IS 'Matching key of a listing: hash of its folded abstract.';
COMMENT ON COLUMN paper_key_map.paper_id IS 'The paper this key belongs to.';

COMMENT ON COLUMN fact_listing.listing_id IS 'Id: hash of (source_file_id, position).';
COMMENT ON COLUMN fact_listing.paper_id IS 'The paper listed (dim_paper).';
COMMENT ON COLUMN fact_listing.source_file_id IS 'The file version it was read from (dim_source_file).';
COMMENT ON COLUMN fact_listing.category_id IS 'Category of this listing (dim_category); null when the record has none.';
COMMENT ON COLUMN fact_listing.line_start IS 'First line of the record in its file (1-based).';
COMMENT ON COLUMN fact_listing.line_end IS 'Last line of the record in its file.';
COMMENT ON COLUMN fact_listing.format IS 'Digest format of the file: listing or search.';
COMMENT ON COLUMN fact_listing.paper_key IS 'Matching key of this listing (paper_key_map).';
COMMENT ON COLUMN fact_listing.n_authors_shown IS 'Author names this listing shows.';
COMMENT ON COLUMN fact_listing.is_truncated IS 'The listing shows only part of the author list ("and K more", "等").';

COMMENT ON COLUMN dim_author.author_id IS 'Id: hash of the name_key; stable as data arrives.';
COMMENT ON COLUMN dim_author.n_papers IS 'Papers with this author in their author list.';
COMMENT ON COLUMN author_name_variant.name_key IS 'Matching key (dim_author.name_key).';
COMMENT ON COLUMN author_name_variant.name IS 'A spelling seen in some listing.';
COMMENT ON COLUMN author_name_variant.display_rank IS 'Higher is a better display form: mixed case, then accents kept.';

COMMENT ON COLUMN bridge_paper_author.paper_id IS 'The paper (dim_paper).';
COMMENT ON COLUMN bridge_paper_author.author_id IS 'The author (dim_author).';
COMMENT ON COLUMN bridge_paper_author.author_position IS '1-based place in the author list.';
COMMENT ON COLUMN bridge_paper_category.paper_id IS 'The paper (dim_paper).';
COMMENT ON COLUMN bridge_paper_category.category_id IS 'A category it was listed under (dim_category).';

COMMENT ON COLUMN dim_category.category_id IS 'Id: hash of (taxonomy, code).';
COMMENT ON COLUMN dim_category.code IS 'arXiv code after alias resolution ("cs.LG") or the conference area line ("Deep Learning · Attention Mechanisms"); an area line that is an arXiv code ("hep-ph", or "cs.XY" in a known archive) is that arXiv category, so an area shares a code only with an unknown code of no known archive a listing lists ("self-supervised").';
COMMENT ON COLUMN dim_category.name IS 'arXiv category name ("Machine Learning") or the sub-area; null for an arXiv code the taxonomy does not know.';
COMMENT ON COLUMN dim_category.parent_name IS 'Archive name ("Computer Science") or the area.';
COMMENT ON COLUMN dim_category.group_code IS 'arXiv group id ("grp_cs"); null for conference areas.';
COMMENT ON COLUMN dim_category.taxonomy IS 'arxiv or conference.';

COMMENT ON COLUMN dim_date.date IS 'The day.';
COMMENT ON COLUMN dim_date.year IS 'Calendar year.';
COMMENT ON COLUMN dim_date.quarter IS 'Calendar quarter, 1-4.';
COMMENT ON COLUMN dim_date.month IS 'Month, 1-12.';
COMMENT ON COLUMN dim_date.day IS 'Day of the month.';
COMMENT ON COLUMN dim_date.iso_week IS 'ISO 8601 week number.';
COMMENT ON COLUMN dim_date.iso_year IS 'ISO 8601 year of the week: group weeks by (iso_year, iso_week), not (year, iso_week).';
COMMENT ON COLUMN dim_date.weekday IS 'Day name (Monday ...).';

COMMENT ON COLUMN quarantine.quarantine_id IS 'Id: hash of (file, lines, reason).';
COMMENT ON COLUMN quarantine.source_file_id IS 'The file version the span is in (dim_source_file).';
COMMENT ON COLUMN quarantine.path IS 'Path of that file, relative to the ingest root.';
COMMENT ON COLUMN quarantine.line_start IS 'First line of the span (0 for a file with no lines).';
COMMENT ON COLUMN quarantine.line_end IS 'Last line of the span.';
COMMENT ON COLUMN quarantine.reason IS 'Why the span was rejected.';
COMMENT ON COLUMN quarantine.raw_text IS 'The span as read (its first 10,000 characters).';
COMMENT ON COLUMN quarantine.run_id IS 'The ingest_run that rejected it.';

COMMENT ON COLUMN skipped_file.run_id IS 'The run that saw the file.';
COMMENT ON COLUMN skipped_file.path IS 'Path relative to the ingest root.';
COMMENT ON COLUMN skipped_file.reason IS 'content already ingested, vanished before it could be read, cannot be read: ...';
COMMENT ON COLUMN skipped_file.sha256 IS 'SHA-256 of the content, when it could be read.';

COMMENT ON COLUMN ingest_run.run_id IS 'Prefect flow run id.';
COMMENT ON COLUMN ingest_run.started_at IS 'When the run started.';
COMMENT ON COLUMN ingest_run.finished_at IS 'When its outcome was recorded.';
COMMENT ON COLUMN ingest_run.n_files_seen IS 'Files found under the paths given.';
COMMENT ON COLUMN ingest_run.n_files_new IS 'File versions ingested.';
COMMENT ON COLUMN ingest_run.n_files_skipped IS 'Files not ingested: unchanged, duplicate content, unreadable.';
COMMENT ON COLUMN ingest_run.n_listings IS 'Listings loaded.';
COMMENT ON COLUMN ingest_run.n_new_papers IS 'Papers the run added.';
COMMENT ON COLUMN ingest_run.n_papers IS 'Papers in the warehouse after the run.';
COMMENT ON COLUMN ingest_run.n_authors IS 'Authors in the warehouse after the run.';
COMMENT ON COLUMN ingest_run.n_quarantined IS 'Spans the run quarantined.';
COMMENT ON COLUMN ingest_run.n_new_authors IS 'Authors the run added.';

COMMENT ON TABLE term_rules IS 'One row: the version of the term extraction rules (transforms.terms.RULES_VERSION) dim_term and bridge_paper_term were extracted with; a run with other rules extracts every paper again. No row: the first rules.';
COMMENT ON COLUMN term_rules.version IS 'transforms.terms.RULES_VERSION of the last extraction.';
COMMENT ON TABLE dim_term IS 'One key term (a normalised phrase of 1-4 words: "large language model") found among the top terms of at least one paper.';
COMMENT ON COLUMN dim_term.term_id IS 'Id: stable_id(term).';
COMMENT ON COLUMN dim_term.term IS 'Normal form: lower case, punctuation and hyphens as spaces, plurals folded ("Language Models" → "language model").';
COMMENT ON COLUMN dim_term.n_words IS 'Words in the term (1-4).';
COMMENT ON COLUMN dim_term.n_papers IS 'Papers that have this term among their top terms (bridge_paper_term).';
COMMENT ON TABLE bridge_paper_term IS 'Paper × term: the top 10 terms of each paper''s title and abstract, scored within the paper only (so a fresh and an incremental load agree).';
COMMENT ON COLUMN bridge_paper_term.paper_id IS 'The paper (dim_paper).';
COMMENT ON COLUMN bridge_paper_term.term_id IS 'The term (dim_term).';
COMMENT ON COLUMN bridge_paper_term.score IS 'Salience within the paper: occurrences (whole or inside a longer phrase) plus 2 if in the title (else plus 0.5 if in the abstract''s first sentence), times 1 + 0.2 per extra word; 0.8x for all but the best phrase of one head word.';
COMMENT ON COLUMN bridge_paper_term.term_rank IS '1 = the paper''s most salient term; ties broken by the term text.';
