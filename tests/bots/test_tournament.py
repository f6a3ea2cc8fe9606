"""Small tournaments: reproducible, complete summaries, the CLI's JSON."""

from __future__ import annotations

import json

import pytest

from bots import cli, tournament

KEYS = {"matches_won", "win_rate", "ci95", "hands_won", "mean_points_per_hand",
        "median_decision_ms", "p95_decision_ms"}  # fmt: skip
TIMES = {"median_decision_ms", "p95_decision_ms"}


def test_wilson_interval() -> None:
    lo, hi = tournament.wilson(60, 100)
    assert 0.50 < lo < 0.6 < hi < 0.70
    assert tournament.wilson(0, 0) == (0.0, 1.0)


def test_labels_repeat_names() -> None:
    assert tournament.labels_for(["expert", "greedy", "greedy"]) == [
        "expert",
        "greedy",
        "greedy#2",
    ]


def test_a_small_tournament_is_reproducible() -> None:
    first = tournament.run("classic", ["greedy", "random"], matches=2, seed=5)
    again = tournament.run("classic", ["greedy", "random"], matches=2, seed=5)
    strip = {k: {f: v for f, v in s.items() if f not in TIMES} for k, s in first.items()}
    assert strip == {k: {f: v for f, v in s.items() if f not in TIMES} for k, s in again.items()}
    assert sum(s["matches_won"] for s in first.values()) >= 2
    for s in first.values():
        assert KEYS <= s.keys()


def test_the_hand_that_ends_a_match_is_counted() -> None:
    # A rummy51 match ends after the hand that takes a penalty total to the limit (101):
    # counted with its last hand, some player's points reach it.
    for index in range(4):
        stats = tournament.play_match("rummy51", ["greedy", "greedy"], seed=3, index=index)
        assert max(s.points for s in stats) >= 101
        assert stats[0].hands == stats[1].hands >= 1
        assert sum(s.hands_won for s in stats) <= stats[0].hands


@pytest.mark.parametrize(
    ("variant", "players"), [("basic", "expert,greedy,random"), ("rummy51", "expert,greedy")]
)
def test_cli_prints_one_json_object(
    variant: str, players: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = cli.main(
        [
            "tournament",
            "--variant",
            variant,
            "--players",
            players,
            "--matches",
            "1",
            "--seed",
            "3",
            "--jobs",
            "1",
            "--json",
        ]
    )
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert list(out) == players.split(",")
    for s in out.values():
        assert KEYS <= s.keys() and len(s["ci95"]) == 2


def test_cli_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        cli.main(["tournament", "--players", "greedy,random", "--matches", "1", "--jobs", "1"]) == 0
    )
    out = capsys.readouterr().out
    assert "greedy" in out and "median decision" in out and "p95 decision" in out


def test_unknown_strategy_is_refused() -> None:
    with pytest.raises(SystemExit):
        cli.main(["tournament", "--players", "greedy,wizard", "--matches", "1"])


def test_jobs_do_not_change_the_results_of_a_searching_expert() -> None:
    one = tournament.run("classic", ["expert", "greedy"], matches=2, seed=4, jobs=1)
    two = tournament.run("classic", ["expert", "greedy"], matches=2, seed=4, jobs=2)
    for label in one:
        assert {f: v for f, v in one[label].items() if f not in TIMES} == {
            f: v for f, v in two[label].items() if f not in TIMES
        }
        assert one[label]["p95_decision_ms"] >= one[label]["median_decision_ms"]


def test_percentile_is_the_nearest_rank() -> None:
    assert tournament.percentile([], 95) == 0.0
    assert tournament.percentile([float(i) for i in range(1, 101)], 95) == 95.0
