"""Typed card notation: every accepted spelling, every refusal, and the round trip."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dealer.games.paigow.deck import check_distinct, parse_cards
from dealer.kernel.cards import (
    DECK,
    JOKER,
    Card,
    deal_around,
    format_cards,
    parse,
    standard_deck,
    symbols,
)
from dealer.kernel.errors import CardError


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("As Kd", "As Kd"),
        ("as kd", "As Kd"),
        ("AS,KD", "As Kd"),
        ("10h Th", None),
        ("10h 9c", "Th 9c"),
        ("A♠ K♦ 10♥ 2♣", "As Kd Th 2c"),
        ("AsKdJK", "As Kd JK"),
        ("joker 2c", "JK 2c"),
        ("Joker, 2c", "JK 2c"),
        ("jk", "JK"),
        ("10s10d", "Ts Td"),
    ],
)
def test_accepted_spellings(typed: str, canonical: str | None) -> None:
    if canonical is None:
        with pytest.raises(CardError, match="duplicate card 'Th'"):
            parse_cards(typed)
    else:
        assert format_cards(parse_cards(typed)) == canonical


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("As Zx", "unknown card 'Zx'"),
        ("As 1s", "unknown card '1s'"),
        ("As Kd As", "duplicate card 'As': As is already in the hand"),
        ("JK As joker", "a second joker 'joker'"),
        ("As Kdx", "unknown card 'Kdx'"),
    ],
)
def test_refusals_name_the_token(typed: str, message: str) -> None:
    with pytest.raises(CardError, match=message):
        parse_cards(typed)


def test_wrong_count_names_what_was_expected() -> None:
    with pytest.raises(CardError, match="expected 7, got 6"):
        parse_cards("As Kd Qc Jh Ts 9s", (7,), "seven-card hand")
    with pytest.raises(CardError, match="expected 2 or 5, got 3"):
        parse_cards("As Kd Qc", (5, 2))


def test_distinct_across_hands() -> None:
    with pytest.raises(CardError, match="duplicate card As: in the dealer's hand and the seat 2"):
        check_distinct([("dealer's hand", parse_cards("As Kd")), ("seat 2", parse_cards("As 2c"))])


def test_deck_and_symbols() -> None:
    assert len(DECK) == 53 and len(set(DECK)) == 53
    assert [c.index for c in DECK] == list(range(53))
    assert DECK[-1] == JOKER and JOKER.is_joker
    assert symbols(parse_cards("As Th JK")) == "A♠ 10♥ JK"


hands = st.lists(st.sampled_from(DECK), min_size=1, max_size=7, unique=True)


@given(hands)
def test_parse_format_parse_round_trips(cards: list[Card]) -> None:
    text = format_cards(cards)
    assert parse_cards(text) == tuple(cards)
    assert format_cards(parse_cards(text)) == text
    assert parse_cards(symbols(cards)) == tuple(cards)
    assert parse_cards(text.lower().replace(" ", ",")) == tuple(cards)


def test_deal_around_deals_one_card_at_a_time_from_seat_0_and_leaves_the_rest() -> None:
    hands, stock = deal_around("abcdefghij", 3, 3)
    assert hands == (("a", "d", "g"), ("b", "e", "h"), ("c", "f", "i"))
    assert stock == ("j",)
    assert deal_around([1, 2, 3, 4], 2, 2) == (((1, 3), (2, 4)), ())


def test_standard_deck_holds_the_52_cards_and_its_jokers_in_the_standard_notation() -> None:
    deck = standard_deck("two-joker", 2)
    assert deck.cards == (*DECK, JOKER)
    assert deck.copies_of(JOKER) == (JOKER, JOKER)
    assert parse(deck, "AsKd JK joker") == (Card(14, 3), Card(13, 1), JOKER, JOKER)
    with pytest.raises(CardError, match="the deck has one"):
        parse(deck, "JK JK JK")
    with pytest.raises(CardError, match="or JK for the joker"):
        parse(deck, "Zz")
