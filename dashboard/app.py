"""The digest-warehouse dashboard: `digest dashboard` (or `streamlit run dashboard/app.py`).

Reads the published warehouse read-only, one short connection per query, so it never blocks
an ingest and an ingest never blocks it (the ingest swaps in a new file; the next query sees it).
"""

import streamlit as st

st.set_page_config(page_title="Digest warehouse", page_icon=":material/analytics:", layout="wide")

PAGES = [
    st.Page("sections/overview.py", title="Overview", icon=":material/dashboard:", default=True),
    st.Page("sections/authors.py", title="Authors", icon=":material/person_search:"),
    st.Page("sections/categories.py", title="Categories", icon=":material/category:"),
    st.Page("sections/papers.py", title="Papers", icon=":material/article:"),
    st.Page("sections/trends.py", title="Trends", icon=":material/trending_up:"),
    st.Page("sections/data_quality.py", title="Data quality", icon=":material/rule:"),
]

st.navigation(PAGES).run()
