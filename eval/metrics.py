"""Clustering metrics against a known answer, from the contingency table (no pair lists).

Elements carry a truth label and a predicted label. With n_ij elements in truth cluster i and
predicted cluster j:

* pairwise: TP = Σ C(n_ij, 2); precision = TP / Σ_j C(n_.j, 2); recall = TP / Σ_i C(n_i., 2).
* B-cubed (Bagga & Baldwin): precision = Σ n_ij² / n_.j / N; recall = Σ n_ij² / n_i. / N.
"""

from __future__ import annotations

import polars as pl


def _f1(p: float, r: float) -> float:
    return 2 * p * r / (p + r) if p + r else 0.0


def cluster_scores(elements: pl.DataFrame, truth: str = "truth", pred: str = "pred") -> dict:
    """Pairwise and B-cubed precision/recall/F1 of `pred` against `truth` (one row per element)."""
    cells = elements.group_by(truth, pred).agg(n=pl.len())
    n_truth = cells.group_by(truth).agg(n_i=pl.col("n").sum())
    n_pred = cells.group_by(pred).agg(n_j=pl.col("n").sum())
    cells = cells.join(n_truth, on=truth).join(n_pred, on=pred)
    pairs = lambda c: (pl.col(c) * (pl.col(c) - 1) / 2).sum()  # noqa: E731
    tp = cells.select(pairs("n")).item()
    pred_pairs = n_pred.select(pairs("n_j")).item()
    truth_pairs = n_truth.select(pairs("n_i")).item()
    n = elements.height
    b3p = cells.select((pl.col("n") ** 2 / pl.col("n_j")).sum()).item() / n if n else 1.0
    b3r = cells.select((pl.col("n") ** 2 / pl.col("n_i")).sum()).item() / n if n else 1.0
    p = tp / pred_pairs if pred_pairs else 1.0
    r = tp / truth_pairs if truth_pairs else 1.0
    return {
        "elements": n, "truth_clusters": n_truth.height, "pred_clusters": n_pred.height,
        "pairwise": {"precision": p, "recall": r, "f1": _f1(p, r), "true_pairs": int(truth_pairs),
                     "predicted_pairs": int(pred_pairs), "correct_pairs": int(tp)},
        "bcubed": {"precision": b3p, "recall": b3r, "f1": _f1(b3p, b3r)},
    }
