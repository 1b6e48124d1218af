"""tactica beside its peers: speed and numbers on six cases, and Monte Carlo throughput.

For each case of ``benchmarks/cases.py`` (the engine stress case and five everyday ones)
this times, over ``--runs`` rounds after one warm-up call each (every round calls every
exact tool ``BLOCK`` times in a row, tool after tool, so load on a shared machine falls
on all alike; the speed table takes the median of the calls that follow a tool's own
call, the call-by-call table that of its first call in a round, right after another
tool's; tactica's Monte Carlo in rounds of its own, one call at a time, because its
100,000-trial arrays flush the CPU's caches and the call timed after it would pay for
that, up to twice its time):

* tactica exact: ``tactica.calculate(document)`` on the scenario dict (validation
  included), with tactica's internal caches (damage/Feel No Pain loss tables, dice pmfs)
  cleared before every call, so no call reuses a previous call's work;
* tactica Monte Carlo: the same with ``{"method": "monte-carlo", "trials": 100000,
  "seed": 1}``; its throughput is reported in attack dice resolved per second;
* each installed peer of ``benchmarks/peers.py`` (the optional ``bench`` extra):
  ``wh40kdc`` (expected values), ``warhammer-stats`` (exact distributions), ``icepool``
  (damage distribution), each with its mean damage and mean models destroyed and where
  and why it disagrees with tactica's exact numbers; a peer that cannot express a case
  says so.

    python benchmarks/run.py                 # prints the markdown, updates README.md
    python benchmarks/run.py --runs 5 --no-write

The markdown goes between ``<!-- peers:start -->`` and ``<!-- peers:end -->`` of
``benchmarks/README.md`` (added at the end if absent); nothing else in the file changes.
Times are reported, never asserted.
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from cases import CASES, Case, CaseSpec, describe
from peers import PEERS, CannotExpress, Peer, PeerOutcome, PeerResult, Prepared
from readme import README, write_section

from tactica import Result, cache_registry, calculate
from tactica.combat import Distribution

MC_TRIALS = 100_000
MC_SEED = 1
TARGET_DICE_PER_SECOND = 5_000_000
#: Numbers agree when they match to 4 decimal places.
TOLERANCE = 5e-4


def clear_tactica_caches() -> None:
    """Forget what earlier calls computed (so each timed call starts cold): every cache
    of answers in ``tactica.cache_registry`` (the library and dataset stay loaded)."""
    cache_registry.clear("answers")


@dataclass(frozen=True)
class Job:
    """A computation to time; ``setup`` runs (untimed) before each timed call."""

    fn: Callable[[], object]
    setup: Callable[[], None] | None = None


#: Calls of one tool in a row within a round: the first follows another tool's call
#: ("call by call"), the others follow its own ("in a row"; after another tool's work a
#: call of tactica takes 2.8x, 1.25x, 1.08x, 1.04x its steady time at positions 1-4 of
#: a block: the median of positions 2-8 is the steady time within a few percent).
BLOCK = 8


@dataclass(frozen=True)
class Medians:
    """Median wall time of each job: of its calls that follow its own call in the same
    round (``in_row``) and of its first call in a round, right after another job's
    (``after_other``)."""

    in_row: dict[str, float]
    after_other: dict[str, float]


def interleaved_medians(jobs: dict[str, Job], runs: int, block: int = BLOCK,
                        clock: Callable[[], float] = time.perf_counter) -> Medians:
    """Median wall times of each job over ``runs`` rounds, after one warm-up call each.
    Every round times every job ``block`` times in a row, job after job, so that load on
    a shared machine falls on all of them alike; the first call of each job in a round
    follows another job's call (a tool called between others' calls: the CPU's caches
    and predictors hold the other tool's work, which slows a call by up to 2.5x here),
    the others follow its own call (a tool called repeatedly: a batch, a web app).
    ``clock``: wall time (``time.perf_counter``) or, on a shared machine, the thread's CPU
    time (``time.thread_time``: what other jobs' load inflates least)."""
    for job in jobs.values():
        job.fn()
    first: dict[str, list[float]] = {key: [] for key in jobs}
    rest: dict[str, list[float]] = {key: [] for key in jobs}
    for _ in range(max(1, runs)):
        for key, job in jobs.items():
            for call in range(max(1, block)):
                if job.setup is not None:
                    job.setup()
                start = clock()
                job.fn()
                (rest if call else first)[key].append(clock() - start)
    after = {key: statistics.median(values) for key, values in first.items()}
    in_row = {key: statistics.median(rest[key] or first[key]) for key in jobs}
    return Medians(in_row, after)


@dataclass(frozen=True)
class CaseRun:
    case: Case
    spec: CaseSpec
    exact: Result
    exact_seconds: float
    mc: Result
    mc_seconds: float
    peers: tuple[tuple[Peer, PeerOutcome | None], ...]  # None: peer not installed
    #: call by call: each tool's median time right after another tool's call
    after_other: dict[str, float]

    @property
    def dice_per_second(self) -> float:
        return self.mc.attacks.mean * MC_TRIALS / self.mc_seconds


def run_case(case: Case, runs: int, peers: tuple[Peer, ...] = PEERS) -> CaseRun:
    """Numbers and interleaved median times of tactica (exact, cold caches; Monte Carlo)
    and of every installed peer on ``case``."""
    exact_doc = {**case.document, "method": "exact"}
    mc_doc = {**case.document, "method": "monte-carlo", "trials": MC_TRIALS, "seed": MC_SEED}
    spec = describe(case)
    jobs = {"exact": Job(lambda: calculate(exact_doc), clear_tactica_caches)}
    prepared: dict[str, Prepared | CannotExpress | None] = {}
    for peer in peers:
        prepared[peer.package] = peer.prepare(spec) if peer.version else None
        ready = prepared[peer.package]
        if isinstance(ready, Prepared):
            jobs[peer.package] = Job(ready.compute)
    medians = interleaved_medians(jobs, runs)
    seconds = dict(medians.in_row)
    # on its own: its large arrays would evict the caches of the call timed next
    seconds |= interleaved_medians({"mc": Job(lambda: calculate(mc_doc))}, runs, 1).in_row
    outcomes: list[tuple[Peer, PeerOutcome | None]] = []
    for peer in peers:
        ready = prepared[peer.package]
        if isinstance(ready, Prepared):
            damage, models = ready.compute()
            outcomes.append((peer, PeerResult(damage, models, seconds[peer.package],
                                              ready.causes, ready.caveats)))
        else:
            outcomes.append((peer, ready))
    return CaseRun(case, spec, calculate(exact_doc), seconds["exact"], calculate(mc_doc),
                   seconds["mc"], tuple(outcomes), medians.after_other)


# --- comparing numbers ---------------------------------------------------------------


def _std_error(d: Distribution, trials: int) -> float:
    """Standard error of a sampled mean, from the sample's own spread."""
    pmf = np.asarray(d.pmf)
    variance = float(np.dot(pmf, (np.arange(len(pmf)) - d.mean) ** 2))
    return math.sqrt(variance / trials)


def mc_verdict(run: CaseRun) -> tuple[str, bool]:
    """How the Monte Carlo means compare with the exact ones, in standard errors, and
    whether one is more than 3 standard errors off."""
    pairs = (("damage", run.exact.damage, run.mc.damage),
             ("models", run.exact.models_destroyed, run.mc.models_destroyed))
    zs = {}
    for label, exact, sampled in pairs:
        se = _std_error(sampled, MC_TRIALS)
        zs[label] = abs(sampled.mean - exact.mean) / se if se else 0.0
    off = max(zs.values()) > 3
    verdict = "OUTSIDE 3 standard errors" if off else "within sampling error"
    detail = ", ".join(f"{label} {z:.1f} SE" for label, z in zs.items())
    return f"{verdict} ({detail} from exact)", off


def peer_verdict(run: CaseRun, result: PeerResult) -> tuple[str, bool]:
    """The disagreement text and whether a difference is left unexplained."""
    damage_ok = abs(result.damage - run.exact.damage.mean) <= TOLERANCE
    models_ok = (result.models is None
                 or abs(result.models - run.exact.models_destroyed.mean) <= TOLERANCE)
    if damage_ok and models_ok:
        return "; ".join(("agrees", *result.caveats)), False
    wrong = [w for w, ok in (("damage", damage_ok), ("models", models_ok)) if not ok]
    differs = " and ".join(wrong) + (" differ" if len(wrong) > 1 else " differs")
    if not result.causes:
        return f"{differs}: UNEXPLAINED; " + "; ".join(result.caveats), True
    return f"{differs}: " + "; ".join((*result.causes, *result.caveats)), False


# --- markdown ------------------------------------------------------------------------


def _ms(seconds: float) -> str:
    ms = seconds * 1000
    return f"{ms:.3f}" if ms < 0.1 else f"{ms:.2f}" if ms < 10 else f"{ms:.1f}"


def _peer_time(outcome: PeerOutcome | None) -> str:
    if outcome is None:
        return "not installed"
    if isinstance(outcome, CannotExpress):
        return "cannot express"
    return _ms(outcome.seconds)


def _seconds(run: CaseRun, key: str, after_other: bool) -> float:
    """A tool's median time: of its calls in a row, or of its call right after another
    tool's (``after_other``); ``key`` "exact" for tactica, else a peer's package."""
    if after_other:
        return run.after_other[key]
    if key == "exact":
        return run.exact_seconds
    outcome = next(o for p, o in run.peers if p.package == key)
    assert isinstance(outcome, PeerResult)
    return outcome.seconds


def faster_peers(run: CaseRun, after_other: bool = False) -> list[tuple[Peer, PeerResult]]:
    """Distribution peers that took less time than tactica exact on this case."""
    ours = _seconds(run, "exact", after_other)
    return [(p, o) for p, o in run.peers if p.distributions and isinstance(o, PeerResult)
            and _seconds(run, p.package, after_other) < ours]


def _speed_verdict(run: CaseRun, after_other: bool = False) -> str:
    compared = [p for p, o in run.peers if p.distributions and isinstance(o, PeerResult)]
    if not compared:
        return "no distribution peer can express it"
    faster = faster_peers(run, after_other)
    if not faster:
        return "yes"
    ours = _seconds(run, "exact", after_other)
    return "no: " + ", ".join(
        f"{p.package} takes {_seconds(run, p.package, after_other) / ours:.2f}× tactica's "
        "time" + ("" if after_other else " (see below)") for p, _ in faster)


#: Why a distribution peer can be faster than tactica exact on a case.
WHY_FASTER = {
    "icepool": (
        "icepool computes one distribution, the total damage, by convolving a per-attack "
        "damage die, and nothing else: no allocation, no models destroyed, no other "
        "stage. tactica computes every stage (attacks, hits, wounds, unsaved wounds, "
        "damage, models destroyed) and allocates the attacks one at a time as a Markov "
        "chain over the target's state (wounds left in the unit, for one allocation "
        "group), about 0.2 ms of CPU time on a few dice when timed alone (`lascannon`: "
        "validating the scenario and resolving the weapon's rules about 27%, the attack "
        "dice's totals and packets 19%, the target's chain 22%, the read-out and result "
        "document 17%, the calls between them the rest), through more code than icepool "
        "(pydantic, numpy, the rule set), which a call right after another tool's finds "
        "cold. The larger the attack (many dice, random damage, Feel No Pain: the stress "
        "case) the larger icepool's per-attack damage die and its convolutions, while "
        "tactica's chain stays bounded by the target's states, so the gap closes and "
        "turns in tactica's favour."
    ),
    "warhammer-stats": (
        "warhammer-stats computes damage and kills distributions per weapon; see the "
        "numbers table for what it leaves out."
    ),
}
def speed_table(runs: list[CaseRun]) -> list[str]:
    head = ("| case | attack dice (mean) | tactica exact | tactica MC 100k | "
            + " | ".join(p.package for p in PEERS)
            + " | tactica exact faster than the distribution peers? |")
    lines = [head, "|---|---:|---:|---:|" + "---:|" * len(PEERS) + "---|"]
    for r in runs:
        lines.append(
            f"| {r.case.key} | {r.exact.attacks.mean:g} | {_ms(r.exact_seconds)} | "
            f"{_ms(r.mc_seconds)} | "
            + " | ".join(_peer_time(o) for _, o in r.peers)
            + f" | {_speed_verdict(r)} |")
    return lines


def after_other_table(runs: list[CaseRun]) -> list[str]:
    """Call by call: each tool's first call of a round, right after another tool's."""
    shown = [p for p in PEERS if any(p.package in r.after_other for r in runs)]
    lines = ["| case | tactica exact | " + " | ".join(p.package for p in shown)
             + " | tactica exact faster than the distribution peers? |",
             "|---|---:|" + "---:|" * len(shown) + "---|"]
    for r in runs:
        cells = [_ms(r.after_other[p.package]) if p.package in r.after_other
                 else _peer_time(o) for p, o in r.peers if p in shown]
        lines.append(f"| {r.case.key} | {_ms(r.after_other['exact'])} | "
                     + " | ".join(cells) + f" | {_speed_verdict(r, after_other=True)} |")
    return lines


def numbers_table(runs: list[CaseRun]) -> tuple[list[str], list[str]]:
    """The numbers table and the list of unexplained differences."""
    lines = ["| case | tool | mean damage | mean models destroyed | where and why it "
             "disagrees with tactica exact |", "|---|---|---:|---:|---|"]
    unexplained: list[str] = []
    for r in runs:
        ex = r.exact
        note = "; ".join(ex.notes) if ex.notes else ""
        lines.append(f"| {r.case.key} | tactica exact | {ex.damage.mean:.4f} | "
                     f"{ex.models_destroyed.mean:.4f} | reference{': ' + note if note else ''} |")
        text, off = mc_verdict(r)
        if off:
            unexplained.append(f"{r.case.key} / tactica MC")
        lines.append(f"| {r.case.key} | tactica MC 100k | {r.mc.damage.mean:.4f} | "
                     f"{r.mc.models_destroyed.mean:.4f} | {text} |")
        for peer, outcome in r.peers:
            if outcome is None:
                lines.append(f"| {r.case.key} | {peer.package} | | | not installed |")
            elif isinstance(outcome, CannotExpress):
                lines.append(f"| {r.case.key} | {peer.package} | — | — | {outcome} |")
            else:
                text, bad = peer_verdict(r, outcome)
                if bad:
                    unexplained.append(f"{r.case.key} / {peer.package}")
                models = "n/a" if outcome.models is None else f"{outcome.models:.4f}"
                lines.append(f"| {r.case.key} | {peer.package} | {outcome.damage:.4f} | "
                             f"{models} | {text} |")
    return lines, unexplained


def hand_checks(runs: list[CaseRun]) -> list[str]:
    """Hand-derived numbers (and two independent simulations) next to tactica's."""
    by_key = {r.case.key: r.exact for r in runs}

    def ours(key: str, digits: int = 4) -> str:
        result = by_key.get(key)
        if result is None:
            return "(not run)"
        return (f"tactica {result.damage.mean:.{digits}f} damage, "
                f"{result.models_destroyed.mean:.{digits}f} models")

    return [
        "Hand checks of tactica's exact numbers:",
        "",
        "- `bolt-rifles`: unsaved wounds K ~ Bin(10, 2/3 · 1/2 · 1/2 = 1/6), damage "
        f"10/6 = 1.6667, models destroyed E[⌊K/2⌋] = 0.5877; {ours('bolt-rifles')}.",
        "- `lascannon`: 1/2 · 2/3 · 5/6 · 4.5 = 1.25; at most 7 damage against W11, no "
        f"model destroyed; {ours('lascannon')}.",
        "- `neophytes`: 20 shots, K ~ Bin(20, 1/2 · 1/2 · 2/3 = 1/6), W1: E[min(K, 10)] = "
        "3.33321 (the peers' 10/3 = 3.33333 ignores the 10-model cap, below 4 decimals); "
        f"{ours('neophytes', 5)}.",
        "- `primus`: before allocation 5 · 5/6 · 1/3 · 1/2 = 0.6944 (bonesword) + 2 · 5/6 "
        "· 5/6 · 1/6 · 2 = 0.4630 (claw, Anti-Infantry 2+) = 1.1574, what the peers "
        "report; an independent brute-force simulation (400,000 trials, bonesword first, "
        "damage beyond a model's wounds left lost) gives 1.0987 damage, 0.1476 models; "
        f"{ours('primus')}.",
        "- `webber`: 3.5 attacks · (1/6 Devastating Wounds + 1/6 · 2/3 failed 5+ saves) = "
        "0.9722; W1 and at most 6 attacks, so models destroyed = damage; "
        f"{ours('webber')}.",
        "- `stress`: before allocation 217/216 per attack, 40 · 217/216 = 40.1852 "
        "(icepool and wh40kdc); an independent simulation with allocation (60,000 "
        "trials; normal damage first, then each Devastating Wounds packet damaging at "
        "most one model, reference facts §4, 11th) gives 26.553 damage, 8.743 models; "
        f"{ours('stress', 3)}.",
    ]


def throughput_table(runs: list[CaseRun]) -> list[str]:
    lines = ["| case | attack dice per trial | median (ms), 100,000 trials | "
             "M attack dice/s |", "|---|---:|---:|---:|"]
    for r in runs:
        lines.append(f"| {r.case.key} | {r.mc.attacks.mean:.2f} | {_ms(r.mc_seconds)} | "
                     f"{r.dice_per_second / 1e6:.1f} |")
    total_dice = sum(r.mc.attacks.mean * MC_TRIALS for r in runs)
    total_time = sum(r.mc_seconds for r in runs)
    lines.append(f"| all six | | {_ms(total_time)} | {total_dice / total_time / 1e6:.1f} |")
    return lines


def markdown(runs: list[CaseRun], repeats: int) -> str:
    peers = ", ".join(p.label for p in PEERS)
    low = min(r.dice_per_second for r in runs)
    speed = speed_table(runs)
    numbers, unexplained = numbers_table(runs)
    out = [
        "## tactica beside its peers (`benchmarks/run.py`)",
        "",
        f"Run {dt.date.today().isoformat()} on {platform.machine()}, {os.cpu_count()} cpu, "
        f"Python {platform.python_version()}, numpy {np.__version__}; peers: {peers}. "
        f"{repeats} rounds after one warm-up call each, times in milliseconds; every "
        f"round calls tactica exact and every peer {BLOCK} times in a row each, tool "
        "after tool. The speed table gives each tool's median over the calls that follow "
        "its own call (a tool called repeatedly: a batch, the web app, a list checked unit "
        "by unit); the call-by-call table the median of its first call in each round, "
        "right after another tool's call, when the CPU's caches and branch predictors "
        "hold that tool's work: every tool is slower there, tactica most (its call runs "
        "through more code: validation, the rules, numpy, the result document). tactica "
        "MC runs in rounds of its own, one call at a time (its 100,000-trial arrays flush "
        "the CPU caches, and the call timed after one took up to twice as long). The "
        "machine is shared (other jobs run beside the benchmark), so absolute times are "
        "noisy, by a factor of 2 at worst; the interleaving keeps the ratios between "
        "tools steadier.",
        "",
        "What is timed: tactica exact = `tactica.calculate(scenario dict)` with its caches "
        "cleared before every call, the full result (every stage's distribution, "
        "allocation to models, models destroyed); tactica MC = the same scenario with "
        f"`method: monte-carlo`, {MC_TRIALS:,} trials; peers = building their inputs and "
        "computing (wh40kdc's embedded dataset is loaded once, outside the timing).",
        "",
        "Cases (`benchmarks/cases.py`, 11th-edition rules, tactica's default):",
        "",
        *[f"- `{r.case.key}`: {r.case.title}" for r in runs],
        "",
        "### Speed (median ms of the calls in a row)",
        "",
        *speed,
        "",
    ]
    for peer in (p for p in PEERS if p.distributions):
        expressed = [r for r in runs for p, o in r.peers
                     if p is peer and isinstance(o, PeerResult)]
        beaten = [r.case.key for r in expressed if any(p is peer for p, _ in faster_peers(r))]
        won = [r.case.key for r in expressed if r.case.key not in beaten]
        if beaten:
            text = (f"**{peer.package} is faster than tactica exact on "
                    + ", ".join(f"`{k}`" for k in beaten) + "**")
            if won:
                text += "; tactica exact is faster on " + ", ".join(f"`{k}`" for k in won)
            out += [text + ". " + WHY_FASTER[peer.package], ""]
        elif expressed:
            out += [f"tactica exact is faster than {peer.package} on every case it can "
                    f"express ({', '.join(f'`{r.case.key}`' for r in expressed)}).", ""]
    out += ["### Call by call (median ms of each tool's call right after another tool's)",
            "", *after_other_table(runs), ""]
    beaten_after = [r.case.key for r in runs
                    if any(p.package == "icepool" for p, _ in faster_peers(r, True))]
    if beaten_after:
        out += ["Call by call icepool is faster on " + ", ".join(f"`{k}`" for k in beaten_after)
                + ". " + WHY_FASTER["icepool"], ""]
    out += [
        "### Numbers",
        "",
        "Mean damage (damage actually inflicted, for tactica) and mean models destroyed. "
        "\"agrees\" means equal to 4 decimal places.",
        "",
        *numbers,
        "",
    ]
    if unexplained:
        out += ["Unexplained differences (check tactica): " + ", ".join(unexplained), ""]
    else:
        out += ["Every difference from tactica's exact numbers has a cause listed above; "
                "none points to a tactica error.", ""]
    out += [*hand_checks(runs), ""]
    out += [
        "### Monte Carlo throughput",
        "",
        "Attack dice resolved per second by `method: monte-carlo` (hit, wound, save, "
        "damage, Feel No Pain and allocation included; one process, numpy on one core), "
        f"target {TARGET_DICE_PER_SECOND / 1e6:.0f} million/s. The time includes the "
        "exact engine's 11th-edition Lethal Hits decision where it applies (the stress "
        "case).",
        "",
        *throughput_table(runs),
        "",
        f"Slowest case: {low / 1e6:.1f} M attack dice/s "
        f"({'meets' if low >= TARGET_DICE_PER_SECOND else 'BELOW'} the target). Small "
        "cases resolve few dice per call, so fixed per-call costs weigh more there.",
    ]
    return "\n".join(out)


def write_readme(text: str, path: Path = README) -> None:
    """Put ``text`` in the peers section of the benchmarks README."""
    write_section("peers", text, path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="timed calls per tool and case")
    parser.add_argument("--case", action="append", help="only this case (repeatable)")
    parser.add_argument("--no-write", action="store_true", help="do not update README.md")
    args = parser.parse_args(argv)
    cases = [c for c in CASES if not args.case or c.key in args.case]
    if not cases:
        parser.error(f"no such case; cases: {', '.join(c.key for c in CASES)}")
    missing = [p.package for p in PEERS if p.version is None]
    if missing:
        print(f"not installed (pip install -e .[bench]): {', '.join(missing)}",
              file=sys.stderr)
    runs = []
    for case in cases:
        print(f"{case.key} ...", file=sys.stderr, flush=True)
        runs.append(run_case(case, max(1, args.runs)))
    text = markdown(runs, max(1, args.runs))
    print(text)
    if not args.no_write:
        if len(cases) != len(CASES):
            print("not writing README.md for a subset of the cases", file=sys.stderr)
        else:
            write_readme(text)
            print(f"updated {README}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
