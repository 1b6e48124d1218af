"""Results as tables: a pandas DataFrame of one result's distributions or of a batch's
headline figures, and the HTML table a notebook shows for a result.

pandas is imported when a frame is asked for, not before (``import tactica`` stays light).

>>> import tactica
>>> bolt = {"weapons": [{"name": "Bolt rifle", "count": 10, "A": "1", "skill": 3,
...                      "S": 4, "AP": -1, "D": "1"}]}
>>> r = tactica.calculate({"attacker": bolt,
...                        "target": {"models": [{"count": 10, "T": 4, "Sv": 3, "W": 2}]}})
>>> df = r.to_frame()                    # P(value = i) per stage, one row per value
>>> list(df.columns)
['attacks', 'hits', 'wounds', 'unsaved', 'damage', 'models_destroyed']
>>> float(df["attacks"][10]), round(float(df["damage"].sum()), 12)   # 10 shots, for sure
(1.0, 1.0)
>>> geq = {"models": [{"count": 10, "T": 3, "Sv": 5, "W": 1}]}
>>> batch = tactica.calculate_many({"attacker": bolt, "target": geq},
...     targets=[geq, {"models": [{"T": 12, "Sv": 2, "W": 22}]}, {"unit": "Nowhere"}])
>>> tactica.to_frame(batch, labels=["geq", "knight", "?"])[["models_destroyed", "status"]]
        models_destroyed    status
geq             3.703704  computed
knight          0.000000  computed
?                    NaN   refused
>>> "<table>" in r._repr_html_()
True
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import TYPE_CHECKING, Any

from ...errors import needs_extra

if TYPE_CHECKING:
    with needs_extra("plan", "to_frame"):  # pandas
        import pandas as pd

__all__ = ["STAGES", "result_frame", "result_html", "to_frame"]

#: A result's distributions, in the order of the attack sequence, with their names.
STAGES = {
    "attacks": "attacks",
    "hits": "hits",
    "wounds": "wounds",
    "unsaved": "unsaved attacks",
    "damage": "damage",
    "models_destroyed": "models destroyed",
}


def result_frame(result: Any) -> pd.DataFrame:
    """One row per value (0, 1, 2, ...), one column per stage: P(value = i) (0 beyond a
    stage's last possible value); each column sums to 1."""
    with needs_extra("plan", "to_frame"):  # pandas
        import pandas as pd

    pmfs = {s: getattr(result, s).pmf for s in STAGES}
    n = max(len(p) for p in pmfs.values())
    df = pd.DataFrame({s: list(p) + [0.0] * (n - len(p)) for s, p in pmfs.items()})
    df.index.name = "value"
    return df


#: The headline columns of ``to_frame``: the stages' means and P(unit destroyed).
_HEADLINE = ("attacks", "hits", "wounds", "unsaved", "damage", "models_destroyed")


def to_frame(results: Sequence[Any], labels: Sequence[str] | None = None) -> pd.DataFrame:
    """A batch's results (``tactica.calculate_many``) as one row each: the expected
    attacks, hits, wounds, unsaved attacks, damage and models destroyed, the chance to
    destroy the unit, and ``status`` ("computed", or "refused" with the reason in
    ``note``: a refusal keeps its row). ``labels`` name the rows (default 0, 1, ...)."""
    with needs_extra("plan", "to_frame"):  # pandas
        import pandas as pd

    if labels is not None and len(labels) != len(results):
        raise ValueError(f"labels: {len(labels)} given for {len(results)} results")
    rows: list[dict[str, Any]] = []
    for r in results:
        if not isinstance(r, BaseException):  # a result (this module does not import it)
            row: dict[str, Any] = {s: getattr(r, s).mean for s in _HEADLINE}
            rows.append({**row, "p_unit_destroyed": r.p_unit_destroyed,
                         "status": "computed", "note": None})
        else:
            rows.append({**dict.fromkeys(_HEADLINE), "p_unit_destroyed": None,
                         "status": "refused", "note": str(r).splitlines()[0]})
    df = pd.DataFrame(rows, columns=[*_HEADLINE, "p_unit_destroyed", "status", "note"],
                      index=list(labels) if labels is not None else None)
    return df.astype({c: "float64" for c in (*_HEADLINE, "p_unit_destroyed")})


def _most_likely(pmf: tuple[float, ...]) -> int:
    return max(range(len(pmf)), key=lambda i: pmf[i])


def result_html(result: Any) -> str:
    """The result as an HTML table (what a notebook shows): per stage its mean, most
    likely value and the chance of at least one; the chance to destroy the unit; per
    weapon its expected attacks, hits and wounds; the notes."""
    title = f"{'Exact' if result.method == 'exact' else 'Monte Carlo'} result, " \
            f"{escape(result.rules)} edition rules"
    rows = "".join(
        f"<tr><th>{escape(label)}</th><td>{d.mean:.3f}</td><td>{_most_likely(d.pmf)}</td>"
        f"<td>{d.at_least(1):.1%}</td></tr>"
        for s, label in STAGES.items() for d in (getattr(result, s),))
    parts = [
        f"<table><caption>{title}</caption>"
        "<thead><tr><th>stage</th><th>mean</th><th>most likely</th>"
        "<th>at least 1</th></tr></thead>"
        f"<tbody>{rows}<tr><th>unit destroyed</th><td colspan=\"3\">"
        f"{result.p_unit_destroyed:.1%}</td></tr></tbody></table>"]
    if len(result.weapons) > 1:
        weapons = "".join(
            f"<tr><th>{escape(w.weapon)}</th><td>{w.attacks:.2f}</td><td>{w.hits:.2f}</td>"
            f"<td>{w.wounds:.2f}</td></tr>" for w in result.weapons)
        parts.append("<table><caption>per weapon (expected)</caption><thead><tr>"
                     "<th>weapon</th><th>attacks</th><th>hits</th><th>wounds</th></tr>"
                     f"</thead><tbody>{weapons}</tbody></table>")
    notes = [*result.notes, *(f"not calculated: {n}" for n in result.not_calculated)]
    if notes:
        parts.append("<ul>" + "".join(f"<li>{escape(n)}</li>" for n in notes) + "</ul>")
    return "<div>" + "".join(parts) + "</div>"
