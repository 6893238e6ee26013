"""Settle-up (RULES.md §4 and the pot at the end of the evening, §1): share_pot and settle."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.domain.settle import EXACT_LIMIT, Transfer, settle, share_pot

# --- helpers, written independently of the module ------------------------------------------


def apply(balances: dict[str, int], transfers: list[Transfer]) -> dict[str, int]:
    """Balances after the transfers: the payer's debt shrinks, the payee's credit shrinks."""
    after = dict(balances)
    for t in transfers:
        after[t.payer] += t.cents
        after[t.payee] -= t.cents
    return after


def brute_force_minimum(balances: dict[str, int]) -> int:
    """Fewest transfers, by trying every set partition of the non-zero players.

    A settlement's transfers form a forest of zero-sum trees, so the minimum is
    n − (largest number of zero-sum blocks in a partition). Blocks are built the textbook
    way: the first remaining player opens a block and picks any subset of the others.
    """
    values = [v for v in balances.values() if v != 0]

    def most_blocks(rest: tuple[int, ...]) -> int | None:
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        best = None
        for size in range(len(others) + 1):
            for chosen in combinations(range(len(others)), size):
                if first + sum(others[i] for i in chosen) != 0:
                    continue
                left = tuple(v for i, v in enumerate(others) if i not in chosen)
                blocks = most_blocks(left)
                if blocks is not None and (best is None or blocks + 1 > best):
                    best = blocks + 1
        return best

    blocks = most_blocks(tuple(values))
    assert blocks is not None  # the whole set is one zero-sum block
    return len(values) - blocks


def greedy_everyone(balances: dict[str, int]) -> int:
    """Transfer count of plain largest-debtor-to-largest-creditor over all players."""
    bal = {k: v for k, v in balances.items() if v}
    count = 0
    while bal:
        payer = min(bal, key=lambda k: (bal[k], k))
        payee = min(bal, key=lambda k: (-bal[k], k))
        cents = min(-bal[payer], bal[payee])
        bal[payer] += cents
        bal[payee] -= cents
        count += 1
        bal = {k: v for k, v in bal.items() if v}
    return count


def assert_settles(balances: dict[str, int], transfers: list[Transfer]) -> None:
    assert all(isinstance(t.cents, int) and t.cents > 0 for t in transfers)
    assert all(t.payer != t.payee for t in transfers)
    assert all(v == 0 for v in apply(balances, transfers).values())
    assert transfers == sorted(transfers, key=lambda t: (t.payer, t.payee, t.cents))


# --- settle: examples ----------------------------------------------------------------------


def test_empty_and_all_zero():
    assert settle({}) == []
    assert settle({"Anna": 0, "Bert": 0, "Carl": 0}) == []


def test_two_players():
    assert settle({"Anna": 250, "Bert": -250}) == [Transfer("Bert", "Anna", 250)]


def test_zero_balances_are_ignored():
    transfers = settle({"Anna": 120, "Bert": 0, "Carl": -120, "Dora": 0})
    assert transfers == [Transfer("Carl", "Anna", 120)]


def test_one_debtor_many_creditors():
    balances = {"Anna": -600, "Bert": 100, "Carl": 200, "Dora": 300}
    assert settle(balances) == [
        Transfer("Anna", "Bert", 100),
        Transfer("Anna", "Carl", 200),
        Transfer("Anna", "Dora", 300),
    ]


def test_one_creditor_many_debtors():
    balances = {"Anna": 95, "Bert": -5, "Carl": -40, "Dora": -50}
    assert settle(balances) == [
        Transfer("Bert", "Anna", 5),
        Transfer("Carl", "Anna", 40),
        Transfer("Dora", "Anna", 50),
    ]


def test_exact_search_beats_greedy():
    # Greedy: A pays C 300, then A owes 100, B owes 300 against D 200 and E 200: 4 transfers.
    # Optimum: B pays C 300 (a zero-sum pair), A pays D and E 200 each: 3 transfers.
    balances = {"A": -400, "B": -300, "C": 300, "D": 200, "E": 200}
    assert greedy_everyone(balances) == 4
    assert settle(balances) == [
        Transfer("A", "D", 200),
        Transfer("A", "E", 200),
        Transfer("B", "C", 300),
    ]


def test_pairs_of_equal_amounts():
    # Greedy happens to find the optimum here too; the exact search must as well.
    balances = {"A": -5, "B": -5, "C": -3, "D": 3, "E": 5, "F": 5}
    assert brute_force_minimum(balances) == 3
    assert settle(balances) == [
        Transfer("A", "E", 5),
        Transfer("B", "F", 5),
        Transfer("C", "D", 3),
    ]


def test_twelve_players_many_groups():
    balances = {f"P{i:02d}": (i // 2 + 1) * (1 if i % 2 else -1) for i in range(12)}
    transfers = settle(balances)
    assert_settles(balances, transfers)
    assert len(transfers) == 6


def test_nonzero_sum_is_rejected():
    with pytest.raises(ValueError, match="sum to 0"):
        settle({"Anna": 100, "Bert": -99})


def test_non_integer_balance_is_rejected():
    with pytest.raises(TypeError):
        settle({"Anna": 1.5, "Bert": -1.5})  # type: ignore[dict-item]


def test_deterministic_under_dict_order():
    balances = {"Dora": -400, "Anna": -300, "Carl": 300, "Bert": 200, "Emil": 200}
    expected = settle(balances)
    for order in (sorted(balances), sorted(balances, reverse=True), ["Carl", "Emil", "Anna"]):
        reordered = {name: balances[name] for name in order}
        reordered.update(balances)
        assert settle(reordered) == expected


def test_input_is_not_modified():
    balances = {"Anna": -300, "Bert": 300}
    settle(balances)
    assert balances == {"Anna": -300, "Bert": 300}


def test_twelve_distinct_amounts_need_eleven_transfers():
    amounts = [-1, 2, -4, 8, -16, 32, -64, 128, -256, 512, -1024]
    amounts.append(-sum(amounts))
    assert len(set(amounts)) == 12
    balances = {f"P{i:02d}": cents for i, cents in enumerate(amounts)}
    transfers = settle(balances)
    assert_settles(balances, transfers)
    assert len(transfers) == 11  # powers of two: no zero-sum subgroup


def test_beyond_the_exact_limit_settles_greedily():
    amounts = [(-1) ** i * (i + 1) * 10 for i in range(EXACT_LIMIT + 3)]
    amounts.append(-sum(amounts))
    balances = {f"P{i:02d}": cents for i, cents in enumerate(amounts)}
    transfers = settle(balances)
    assert_settles(balances, transfers)
    assert len(transfers) == greedy_everyone(balances)


# --- share_pot -----------------------------------------------------------------------------


def test_share_pot_divides_evenly():
    balances = {"Anna": -100, "Bert": -100, "Carl": -100}
    assert share_pot(balances, 300, ["Anna", "Bert", "Carl"]) == {
        "Anna": 0,
        "Bert": 0,
        "Carl": 0,
    }


def test_share_pot_remainder_goes_in_seat_order():
    balances = {"Anna": 0, "Bert": 0, "Carl": 0, "Dora": 0}
    shared = share_pot(balances, 10, ["Carl", "Anna", "Dora", "Bert"])
    assert shared == {"Carl": 3, "Anna": 3, "Dora": 2, "Bert": 2}
    shared = share_pot(balances, 11, ["Carl", "Anna", "Dora", "Bert"])
    assert shared == {"Carl": 3, "Anna": 3, "Dora": 3, "Bert": 2}


def test_share_pot_less_than_one_cent_each():
    balances = {"Anna": -1, "Bert": -1, "Carl": 0}
    assert share_pot(balances, 2, ["Bert", "Carl", "Anna"]) == {"Anna": -1, "Bert": 0, "Carl": 1}


def test_share_pot_zero_pot_changes_nothing_and_copies():
    balances = {"Anna": 50, "Bert": -50}
    shared = share_pot(balances, 0, ["Anna", "Bert"])
    assert shared == balances
    assert shared is not balances


def test_share_pot_does_not_modify_input():
    balances = {"Anna": -150, "Bert": -150}
    share_pot(balances, 300, ["Anna", "Bert"])
    assert balances == {"Anna": -150, "Bert": -150}


def test_share_pot_then_settle():
    # Three players paid a 100-cent stake each; the pot paid Anna 120; 180 are left.
    balances = {"Anna": 20, "Bert": -100, "Carl": -100}
    shared = share_pot(balances, 180, ["Bert", "Carl", "Anna"])
    assert shared == {"Anna": 80, "Bert": -40, "Carl": -40}
    assert settle(shared) == [Transfer("Bert", "Anna", 40), Transfer("Carl", "Anna", 40)]


def test_share_pot_rejects_bad_input():
    with pytest.raises(ValueError):
        share_pot({"Anna": 0}, -5, ["Anna"])
    with pytest.raises(ValueError):
        share_pot({"Anna": 0}, 5, [])
    with pytest.raises(ValueError):
        share_pot({"Anna": 0, "Bert": 0}, 5, ["Anna", "Anna"])


# --- properties ----------------------------------------------------------------------------


def zero_sum_balances(min_players: int, max_players: int, low: int, high: int):
    """Dicts of player name → cents that sum to 0 (the last player takes up the rest)."""

    @st.composite
    def build(draw):
        n = draw(st.integers(min_players, max_players))
        amounts = draw(st.lists(st.integers(low, high), min_size=n - 1, max_size=n - 1))
        amounts.append(-sum(amounts))
        names = draw(
            st.lists(
                st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyzäöüß", min_size=1),
                min_size=n,
                max_size=n,
                unique=True,
            )
        )
        return dict(zip(names, amounts, strict=True))

    return build()


@settings(max_examples=200, deadline=None)
@given(zero_sum_balances(2, 12, -50_000, 50_000))
def test_property_settles_exactly(balances):
    transfers = settle(balances)
    assert_settles(balances, transfers)
    nonzero = sum(1 for v in balances.values() if v)
    assert len(transfers) <= max(nonzero - 1, 0)


@settings(max_examples=300, deadline=None)
@given(zero_sum_balances(2, 7, -20, 20))
def test_property_fewest_transfers(balances):
    transfers = settle(balances)
    assert_settles(balances, transfers)
    assert len(transfers) == brute_force_minimum(balances)


@settings(max_examples=100, deadline=None)
@given(zero_sum_balances(2, 9, -20, 20), st.randoms(use_true_random=False))
def test_property_deterministic_under_dict_order(balances, rnd):
    items = list(balances.items())
    rnd.shuffle(items)
    assert settle(dict(items)) == settle(balances)


@settings(max_examples=50, deadline=None)
@given(zero_sum_balances(EXACT_LIMIT + 1, 40, -100_000, 100_000))
def test_property_beyond_exact_limit_settles_exactly(balances):
    transfers = settle(balances)
    assert_settles(balances, transfers)
    nonzero = sum(1 for v in balances.values() if v)
    assert len(transfers) <= max(nonzero - 1, 0)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(-10_000, 10_000), min_size=1, max_size=8),
    st.integers(0, 10_000),
)
def test_property_share_pot(amounts, pot):
    seats = [f"P{i}" for i in range(len(amounts))]
    balances = dict(zip(seats, amounts, strict=True))
    shared = share_pot(balances, pot, seats)
    gains = [shared[s] - balances[s] for s in seats]
    assert sum(gains) == pot
    assert max(gains) - min(gains) <= 1
    assert gains == sorted(gains, reverse=True)  # the extra cents go to the first seats
