"""The root-cause step by key as a plain API: steps with produces/consumes."""

from __future__ import annotations

from hintline import clean
from hintline.agent import AgentGuard, Step, Steps


def plan() -> Steps:
    return Steps([
        Step("create_user", produces={"user_id"}),
        ("create_cart", {"cart_id"}, {"user_id"}),
        {"name": "create_order", "produces": ["order_id"], "consumes": ["user_id", "cart_id"]},
        Step("create_user", produces={"user_id"}),
        Step("ship", consumes={"order_id"}),
    ])


def test_the_producer_of_the_key() -> None:
    cause = plan().root_cause("create_order", "cart_id")
    assert cause is not None
    assert cause.producer == "create_cart"
    assert cause.text == (
        "create_order failed: no cart 'cart_id'; the step that produces it, create_cart, did not "
        "run or returned nothing."
    )


def test_ran_or_not() -> None:
    steps = plan()
    assert steps.root_cause("ship", "order_id", ran=set()).text.endswith("create_order, did not run.")  # type: ignore[union-attr]
    assert "ran: check that its 'order_id' was passed on" in steps.root_cause("ship", "order_id", ran={"create_order"}).text  # type: ignore[union-attr]


def test_a_hint_key_and_its_entity() -> None:
    """A foreign-key hint about 'users' finds the step that produces 'users'."""
    steps = Steps([Step("import_users", produces={"users"}), Step("create_order")])
    hint = clean(
        'insert or update on table "orders" violates foreign key constraint "orders_user_id_fkey"\n'
        'DETAIL:  Key (user_id)=(42) is not present in table "users".'
    )
    assert hint.key == "user_id"
    cause = steps.root_cause("create_order", hint)
    assert cause is not None
    assert cause.producer == "import_users"


def test_nothing_to_say() -> None:
    steps = plan()
    assert steps.root_cause("create_order", "coupon") is None
    assert steps.root_cause("create_order", None) is None
    assert steps.root_cause("create_user", "user_id") is None  # a step is not its own cause


def test_the_guard_says_it_in_the_result_and_knows_what_ran() -> None:
    guard = AgentGuard(steps=Steps([Step("create_user", produces={"user_id"}), Step("create_order")]))

    def order() -> str:
        raise KeyError("user_id")

    first = guard.call("create_order", {"item": "book"}, order)
    assert first.failure is not None
    assert first.failure.content.endswith("the step that produces it, create_user, did not run.")
    guard.call("create_user", {"name": "ann"}, lambda: {"user_id": 1})
    again = guard.call("create_order", {"item": "book"}, order)
    assert again.failure is not None
    assert "create_user, ran: check that its 'user_id' was passed on" in again.failure.content
