"""Trust III, the trainer: a certificate is earned only by a drill its trainee took in their own
session, dealt from approved documents, whose recorded answers the engine judges again to the
score it states. Each attack was seen to succeed on the release before these fixes."""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path
from typing import Any

import cli
import psycopg
import pytest
from log_reads import records, use
from pg_server import PgServer

import dealer
from dealer.audit import open_log
from dealer.audit.records import canonical_json
from dealer.games.paigow.drills import HouseWayDrill
from dealer.games.paigow.house_way import load_house_way

run = functools.partial(cli.run, whole=True)
ok = functools.partial(cli.ok, whole=True)
PIN = "lantern-2468"
TRAINEE_PIN = "harbor-8642"
SUP = ("--supervisor", "sup-7", "--pin", PIN)
WAY = load_house_way("trump-plaza")
STANDARD = "training: {pass_percent: 80, min_hands: 5}\n"


def right(drill: HouseWayDrill) -> str:
    """The House Way's own setting of the hand dealt, as the trainee types it (its low cards)."""
    return " ".join(str(card) for card in drill.hand.setting.low)


def answers(seed: int, hands: int, wrong: int = 0) -> list[str]:
    """The answers to a fresh trainee's House Way drill of `hands` from `seed`, the first
    `wrong` of them the hand's two highest cards as its low hand (a miss)."""
    drill = HouseWayDrill(WAY, random.Random(seed), hands, {})
    typed = []
    while not drill.over:
        answer = right(drill)
        if len(typed) < wrong:
            answer = " ".join(str(c) for c in drill.hand.setting.high[-2:])
        typed.append(answer)
        drill.step(answer)
    return typed


def floor_at(folder: Path) -> Path:
    """Supervisor sup-7 and the trainee t-1 (a dealer with a PIN) on the log in DEALER_DB, a
    standard of 80% over 5 hands in `standard.yaml` in `folder` (returned)."""
    ok("audit", "user", "add", "sup-7", "--role", "supervisor", "--new-pin", PIN)
    ok("audit", "user", "add", "t-1", "--role", "dealer", "--new-pin", TRAINEE_PIN, *SUP)
    (folder / "standard.yaml").write_text(STANDARD, encoding="utf-8")
    return folder


@pytest.fixture
def floor(dealer_db: Path | str, tmp_path: Path) -> Path:
    """`floor_at` a test's folder, on each backend."""
    return floor_at(tmp_path)


def certify(folder: Path) -> Any:
    return run("train", "certify", "t-1", "--profile", str(folder / "standard.yaml"), *SUP)


def test_a_trainees_own_login_cannot_write_a_perfect_drill(
    pg_server: PgServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Medium: the trainee's own database login appended a training record claiming 5 of 5
    right, and the supervisor's routine `train certify` signed a real certificate for it. The
    record is no drill the trainee took in their own session (unsigned), and its answers,
    judged again, are not what it claims: refused, nothing written."""
    dealer_db = use(pg_server.fresh_url(), monkeypatch)
    assert isinstance(dealer_db, str)
    folder = floor_at(tmp_path)
    claimed = {
        "trainee": "t-1", "drill": "house-way", "score": 5, "hands": 5, "dealt": 5,
        "planned": 5, "percent": "100.0", "missed": {}, "asked": {}, "limited": [], "seed": 1,
        "seconds_per_hand": 4.0, "answers": answers(1, 5, wrong=5),
    }  # fmt: skip
    settings = {
        "house_way": {"name": WAY.name, "version": WAY.version},
        "house_way_source": WAY.origin,
        "house_way_sha256": WAY.sha256,
    }
    with psycopg.connect(pg_server.login(dealer_db, "t-1"), autocommit=True) as conn:
        conn.execute(
            "SELECT dealer.append_record('training', 'paigow', 'house-way', '', NULL, 't-1', "
            "'dealer', 'dealer train house-way', '[]', %s, '[]', %s, NULL, NULL, '0.2.0', "
            "'{}', '{}')",
            [canonical_json(claimed), canonical_json(settings)],
        )
    before = len(records(dealer_db))
    refused = certify(folder)
    assert (refused.exit_code, refused.stdout) == (1, "")
    assert refused.stderr.startswith(
        "Error: t-1's latest house-way drill (record 3) is a practice drill: it is not signed "
        "by t-1"
    )
    assert len(records(dealer_db)) == before
    pg_server.drop(dealer_db)


def test_a_signed_drill_whose_answers_do_not_give_its_score_earns_nothing(
    dealer_db: Path | str, floor: Path
) -> None:
    """Medium: a drill record the trainee wrote and signed themself (they hold their own key),
    claiming every hand right where its answers miss two: the engine judges its answers again
    and the score that counts is the engine's."""
    from dealer.audit import keys
    from dealer.audit.authority import signer
    from dealer.audit.records import Entry, RecordKind
    from dealer.games.paigow.profile import load_profile

    profile = load_profile()
    claimed = {
        "trainee": "t-1", "drill": "house-way", "score": 5, "hands": 5, "dealt": 5,
        "planned": 5, "percent": "100.0", "missed": {}, "asked": {}, "limited": [], "seed": 7,
        "seconds_per_hand": 4.0, "answers": answers(7, 5, wrong=2),
    }  # fmt: skip
    settings = {
        "house_way": {"name": WAY.name, "version": WAY.version},
        "house_way_source": WAY.origin,
        "house_way_sha256": WAY.sha256,
        "profile": profile.name,
        "profile_source": profile.source,
        "profile_sha256": profile.sha256,
    }
    forged = Entry(
        kind=RecordKind.TRAINING,
        user_id="t-1",
        role="dealer",
        game="paigow",
        action="house-way",
        input_text="dealer train house-way --hands 5 --seed 7 --trainee t-1",
        result=claimed,
        explanation=["training: t-1, house-way drill, 5 of 5 right"],
        settings=settings,
    )
    with open_log(dealer_db) as log:
        private = signer(log, "t-1", TRAINEE_PIN, "training", roles=("dealer",)).private
        assert private is not None
        with log.transaction() as tx:
            made = tx.append(keys.sign(forged, private, tx.head().head_hash))
    refused = certify(floor)
    assert refused.exit_code == 1
    assert refused.stderr == (
        f"Error: training record {made} says 5 of 5 right, but its answers judged again are 3 "
        "of 5: it earns no certificate\n"
    )


def test_a_drill_kept_for_a_trainee_is_dealt_only_from_approved_documents(
    dealer_db: Path | str, floor: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Medium: a House Way file nobody approved dealt a trainee's drill, which then counted
    toward a certificate. Refused before the first hand, nothing written; once a supervisor
    approves the file it deals; a practice drill for no trainee records nothing either way."""
    monkeypatch.chdir(floor)
    shipped = Path(dealer.__file__).parent / "games" / "paigow" / "house_ways" / "trump-plaza.yaml"
    own = shipped.read_text(encoding="utf-8").replace("name: trump-plaza", "name: our-way", 1)
    (floor / "our-way.yaml").write_text(own, encoding="utf-8")
    before = len(records(dealer_db))
    drill = ("train", "house-way", "--house-way", "our-way.yaml", "--hands", "1", "--seed", "3")
    answer = answers(3, 1)[0] + "\n"  # our way sets hands as the shipped one does
    refused = run(*drill, "--trainee", "t-1", "--pin", TRAINEE_PIN, stdin=answer)
    assert (refused.exit_code, refused.stdout) == (1, "")
    assert refused.stderr.startswith("Error: the House Way our-way.yaml (sha256 ")
    assert refused.stderr.endswith(
        "is not approved for every table (no table is named): a supervisor approves its file "
        "with 'dealer audit approve-house-way FILE'\n"
    )
    assert len(records(dealer_db)) == before
    assert ok(*drill, stdin=answer).exit_code == 0  # practice, for no one: nothing kept
    assert len(records(dealer_db)) == before
    ok("audit", "approve-house-way", "our-way.yaml", "--reason", "the floor's way", *SUP)
    kept = ok(*drill, "--trainee", "t-1", "--pin", TRAINEE_PIN, "--json", stdin=answer)
    assert json.loads(kept.stdout.splitlines()[-1])["own_session"] is True
