"""Data quality: what each run loaded, what was quarantined and why, per file; author-list
completeness; files that were seen but not ingested."""

import streamlit as st

import digest_ui as ui

ui.require_warehouse()
st.title("Data quality")

files = ui.query("SELECT * FROM marts.dq_files ORDER BY share_lines_quarantined DESC NULLS LAST, path, version")
runs = ui.query("SELECT * FROM marts.dq_runs ORDER BY run_number")
current = files.filter(files["is_current"])  # a file fixed in place: its replaced version counts no more
cols = st.columns(5)
cols[0].metric("Files", ui.fmt_int(current.height))
cols[1].metric("Files with quarantine", ui.fmt_int(current.filter(current["n_quarantined_spans"] > 0).height))
cols[2].metric("Quarantined spans", ui.fmt_int(current["n_quarantined_spans"].sum()))
cols[3].metric("Quarantined lines", ui.fmt_int(current["n_quarantined_lines"].sum()))
cols[4].metric("Runs", ui.fmt_int(runs.height))

left, right = st.columns(2)
with left:
    reasons = ui.query("SELECT reason_kind, sum(n_spans)::BIGINT AS n_spans, sum(n_lines)::BIGINT AS n_lines "
                       "FROM marts.dq_quarantine_reasons GROUP BY reason_kind")
    ui.bar_chart(reasons, "reason_kind", "n_spans", "Quarantined spans by reason")
with right:
    per_run = runs.select("run_number", "n_listings", "n_quarantined_spans").unpivot(
        index="run_number", variable_name="measure", value_name="rows")
    st.markdown("**Listings loaded and spans quarantined per run**")
    if per_run.is_empty():
        st.caption("No recorded runs.")
    else:
        st.bar_chart(per_run.to_pandas(), x="run_number", y="rows", color="measure", stack=False,
                     x_label="run", y_label="rows")

st.subheader("Runs")
ui.table(runs)
st.subheader("Files")
ui.table(files)

st.subheader("Quarantined spans")
st.caption("Each rejected span of input with its reason; open the file at these lines to see it whole.")
spans = ui.query("SELECT path, line_start, line_end, reason, left(raw_text, 300) AS raw_text_head "
                 "FROM quarantine ORDER BY path, line_start LIMIT 1000")
ui.table(spans)

st.subheader("Author-list completeness")
completeness = ui.query("SELECT * FROM marts.author_list_completeness ORDER BY seen_in")
ui.table(completeness)

tables = ui.query("SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main' AND table_name = 'skipped_file'")
if tables.height:
    st.subheader("Files seen but not ingested")
    skipped = ui.query("SELECT reason, count(*) AS n_files, min(path) AS example_path FROM skipped_file "
                       "GROUP BY reason ORDER BY n_files DESC, reason")
    ui.table(skipped)
