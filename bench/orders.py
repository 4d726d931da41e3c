"""The nested benchmark payload: orders with a customer object and a list of items, seeded.

``make_orders()`` returns plain Python data; the model classes below declare
the same shape once as msgspec Structs and once as Pydantic models (through
the ``eson`` base classes, so ``to_toon()`` / ``from_toon()`` are there too).

As TOON the orders are list items (a list of items rules the table form
out), each with a nested ``customer:`` object and an ``items[N]{...}:`` table::

    orders[500]:
      - id: 1
        status: paid
        customer:
          id: 5445
          name: Cleo Lovelace
          email: cleo.lovelace5445@example.com
        items[3]{sku,qty,price}:
          SKU-04906,2,145.27
          ...
        total: 1535.23
"""

from __future__ import annotations

import random
from typing import Any, Literal

import eson
import eson.msgspec

Status = Literal["pending", "paid", "shipped", "delivered", "cancelled"]
STATUSES: tuple[Status, ...] = ("pending", "paid", "shipped", "delivered", "cancelled")
_FIRST = "Ada Bob Cleo Dan Eve Finn Gus Hana Ivan Juno".split()
_LAST = "Lovelace Smith Okafor Tanaka Garcia Novak Rossi Kim".split()


def make_orders(n: int = 500, seed: int = 20261130) -> dict[str, Any]:
    """Build ``n`` orders: id, status, a customer (id, name, email), 1-5 items, total."""
    rng = random.Random(seed)
    orders = []
    for index in range(n):
        first, last = rng.choice(_FIRST), rng.choice(_LAST)
        customer = rng.randrange(1, 10_000)
        items = [
            {
                "sku": f"SKU-{rng.randrange(10_000):05d}",
                "qty": rng.randrange(1, 10),
                "price": round(rng.uniform(0.5, 200.0), 2),
            }
            for _ in range(rng.randrange(1, 6))
        ]
        orders.append(
            {
                "id": index + 1,
                "status": rng.choice(STATUSES),
                "customer": {
                    "id": customer,
                    "name": f"{first} {last}",
                    "email": f"{first.lower()}.{last.lower()}{customer}@example.com",
                },
                "items": items,
                "total": round(sum(item["qty"] * item["price"] for item in items), 2),
            }
        )
    return {"kind": "orders", "orders": orders}


# -- msgspec ------------------------------------------------------------------------


class MCustomer(eson.msgspec.Record):
    id: int
    name: str
    email: str


class MItem(eson.msgspec.Record):
    sku: str
    qty: int
    price: float


class MOrder(eson.msgspec.Record):
    id: int
    status: Status
    customer: MCustomer
    items: list[MItem]
    total: float


class MOrders(eson.msgspec.Message):
    kind: str
    orders: list[MOrder]


# -- Pydantic -----------------------------------------------------------------------


class PCustomer(eson.Record):
    id: int
    name: str
    email: str


class PItem(eson.Record):
    sku: str
    qty: int
    price: float


class POrder(eson.Record):
    id: int
    status: Status
    customer: PCustomer
    items: list[PItem]
    total: float


class POrders(eson.Message):
    kind: str
    orders: list[POrder]
