"""Accuracy metrics, threshold calibration and table printing for the benchmarks."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from citecheck_tex.model import Label, Verdict
from citecheck_tex.vocab.journals import same_journal

CLASSES = ("EXACT", "MINOR", "MAJOR")


@dataclass
class Row:
    """One checked case: gold label, kind, the verdict, expected corrections."""

    case_id: str
    split: str
    gold: str
    kind: str
    verdict: Verdict
    expected: dict[str, str]
    style: str = ""


def relabel(v: Verdict, tau_minor: float, tau_exact: float) -> str:
    """The label ``v`` would get with other thresholds (UNVERIFIED/SKIPPED unchanged).

    Mirrors :func:`citecheck_tex.verify.policy._label_for`: at or above tau_minor a
    contradicted field makes MINOR and none EXACT; MAJOR below (tau_exact only
    sets the confidence of an EXACT, so it does not change the class).
    """
    if v.label in (Label.UNVERIFIED, Label.SKIPPED):
        return v.label.value
    if v.score >= tau_minor and v.checks:
        return "MINOR" if v.discrepancies else "EXACT"
    return "MAJOR"


def pred_of(row: Row, taus: tuple[float, float] | None, skipped_as: str = "") -> str:
    """Predicted class of a row, optionally mapping SKIPPED to a class."""
    p = relabel(row.verdict, *taus) if taus else row.verdict.label.value
    if p == "SKIPPED" and skipped_as:
        return skipped_as
    return p


def macro_f1(gold: Sequence[str], pred: Sequence[str]) -> float:
    """Mean F1 over the three classes."""
    return sum(prf(gold, pred, c)[2] for c in CLASSES) / len(CLASSES)


def prf(gold: Sequence[str], pred: Sequence[str], cls: str) -> tuple[float, float, float]:
    """Precision, recall and F1 of one class."""
    tp = sum(1 for g, p in zip(gold, pred, strict=True) if g == cls and p == cls)
    fp = sum(1 for g, p in zip(gold, pred, strict=True) if g != cls and p == cls)
    fn = sum(1 for g, p in zip(gold, pred, strict=True) if g == cls and p != cls)
    prec = tp / (tp + fp) if tp + fp else 0.0
    rec = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * prec * rec / (prec + rec) if prec + rec else 0.0
    return prec, rec, f1


def calibrate(rows: Sequence[Row], skipped_as: str = "") -> tuple[float, float, float]:
    """Grid-search (tau_minor, tau_exact) maximising macro-F1 on ``rows``.

    The thresholds are taken in the middle of the best plateau, so they are not
    glued to one case. tau_exact no longer changes a class (it only lowers the
    confidence of an EXACT whose citation states little), so its whole range is
    one plateau and the middle of it (9.0) is kept.
    """
    gold = [r.gold for r in rows]
    results: list[tuple[float, float, float]] = []
    for m10 in range(5, 96, 1):
        tm = m10 / 10
        for e10 in range(max(m10, 80), 101, 1):
            te = e10 / 10
            pred = [pred_of(r, (tm, te), skipped_as) for r in rows]
            results.append((macro_f1(gold, pred), tm, te))
    best = max(f for f, _, _ in results)
    plateau = [(tm, te) for f, tm, te in results if f >= best - 1e-9]
    tms = sorted({tm for tm, _ in plateau})
    tm = tms[len(tms) // 2]
    tes = sorted({te for m, te in plateau if m == tm})
    te = tes[len(tes) // 2]
    return best, tm, te


def report(title: str, rows: Sequence[Row], taus: tuple[float, float] | None,
           seconds: float, skipped_as: str = "") -> str:
    """A text table of every metric the spec asks for."""
    gold = [r.gold for r in rows]
    pred = [pred_of(r, taus, skipped_as) for r in rows]
    n = len(rows)
    acc = sum(1 for g, p in zip(gold, pred, strict=True) if g == p) / n if n else 0.0
    lines = [f"### {title}", "",
             f"n = {n}; accuracy = {acc:.3f}; macro-F1 = {macro_f1(gold, pred):.3f}", ""]
    lines += ["| class | precision | recall | F1 | support |", "|---|---:|---:|---:|---:|"]
    for c in CLASSES:
        p, r, f = prf(gold, pred, c)
        lines.append(f"| {c} | {p:.3f} | {r:.3f} | {f:.3f} | {gold.count(c)} |")
    cols = list(CLASSES) + sorted({p for p in pred if p not in CLASSES})
    lines += ["", "Confusion (rows gold, columns predicted):", "",
              "| gold \\ pred | " + " | ".join(cols) + " |",
              "|---|" + "---:|" * len(cols)]
    conf = Counter(zip(gold, pred, strict=True))
    for g in CLASSES:
        lines.append(f"| {g} | " + " | ".join(str(conf[(g, c)]) for c in cols) + " |")
    by_kind: dict[str, list[bool]] = defaultdict(list)
    for r, p in zip(rows, pred, strict=True):
        by_kind[f"{r.gold}/{r.kind}"].append(r.gold == p)
    lines += ["", "| kind | n | accuracy |", "|---|---:|---:|"]
    for k in sorted(by_kind):
        ok = by_kind[k]
        lines.append(f"| {k} | {len(ok)} | {sum(ok) / len(ok):.3f} |")
    exact = [p for g, p in zip(gold, pred, strict=True) if g == "EXACT"]
    fmaj = sum(1 for p in exact if p == "MAJOR") / len(exact) if exact else 0.0
    right, total = suggestion_share(rows, pred)
    lines += ["",
              f"- false MAJOR on EXACT: {fmaj:.2%} ({sum(1 for p in exact if p == 'MAJOR')}"
              f"/{len(exact)})",
              f"- MINOR fields correctly suggested: {right}/{total} = "
              f"{(right / total if total else 0):.1%} (gold MINOR cases labelled MINOR)",
              f"- time per reference: {1000 * seconds / max(1, n):.2f} ms "
              f"({seconds:.2f} s for {n})", ""]
    return "\n".join(lines)


def _norm(s: str) -> str:
    return "".join(ch for ch in s.lower() if ch.isalnum())


def suggestion_share(rows: Iterable[Row], pred: Sequence[str]) -> tuple[int, int]:
    """(right, total): expected corrected fields of gold-MINOR cases predicted MINOR whose
    suggestion contains the correct value."""
    right = total = 0
    for r, p in zip(rows, pred, strict=True):
        if r.gold != "MINOR" or not r.expected:
            continue
        for fld, value in r.expected.items():
            total += 1
            if p != "MINOR":
                continue
            sugg = (r.verdict.suggested or {}).get(fld, "")
            if fld == "author":
                ok = _norm(value) in _norm(sugg) if sugg else False
                # an added author is corrected by a list that no longer has it
                if r.kind == "author_added":
                    ok = bool(sugg) and _norm(value) not in _norm(sugg)
            elif fld in ("doi", "eprint"):
                ok = _norm(value) == _norm(sugg)
            elif fld == "pages":
                ok = bool(sugg) and _norm(sugg).startswith(_norm(value))
            else:
                ok = bool(sugg) and (_norm(value) == _norm(sugg) or
                                     (fld == "journal" and same_journal(value, sugg)))
            right += ok
    return right, total
