"""A frozen model's engine form kept with it, and building models from trusted engine data.

A `GameState` the rules made carries the `Game` it was made from, and a seat view the list of
engine moves its `legal` came from, in the private attribute ``_fast`` (a `FastForm`, the
slot the wire's models keep for it: rummy_wire.base `Carrier`): the next `apply`,
`seat_view` or `legal_moves` converts nothing. The form is derived data, never part of the
model's value: it is not dumped, two models with different forms (or one without) compare
equal, a deep copy or a pickle leaves it behind, and `model_copy(update=...)` drops it (the
new field values no longer match it). Whoever reads a form must not change it.

Validation stays at the boundary (client JSON, stored JSON, a `Game` from outside): what the
engine produces is valid by construction, so `trusted` builds models from it as they are.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeVar

from pydantic import BaseModel

from rummy_wire.base import Carrier, FastForm

M = TypeVar("M", bound=BaseModel)
_set = object.__setattr__

__all__ = ["Carrier", "FastForm", "form_of", "trusted"]


def form_of(model: Carrier) -> FastForm[Any] | None:
    """The form slot of `model`; None for a model built without its private attributes."""
    private = model.__pydantic_private__
    return private.get("_fast") if private else None


def trusted(
    cls: type[M],
    fields: dict[str, Any],
    fast: object = None,
    fields_set: Iterable[str] | None = None,
) -> M:
    """A `cls` holding `fields` (every field, already of its type) without validating them.

    `fields_set` is what validation would record as given (default: every key), so that
    ``model_dump(exclude_unset=True)`` reads the same as for a validated model. `fast`, for a
    `Carrier`, is its engine form.
    """
    m = cls.__new__(cls)
    _set(m, "__dict__", fields)
    if fields_set is not None:
        names = set(fields_set)
    else:
        names = _EVERY.get(cls) or _every(cls, fields)
        if len(names) != len(fields):
            names = set(fields)  # not every field after all
    _set(m, "__pydantic_fields_set__", names)
    _set(m, "__pydantic_extra__", None)
    _set(
        m, "__pydantic_private__", {"_fast": FastForm(fast)} if cls.__private_attributes__ else None
    )
    return m


# The fields-set of each frozen class's trusted models given every field: a frozen model
# never changes its own, and pydantic copies it before `model_copy(update=...)` adds to it,
# so they may share one. Building a set of some 30 names for every state and view was a
# third of what `trusted` cost.
_EVERY: dict[type[BaseModel], set[str]] = {}


def _every(cls: type[BaseModel], fields: dict[str, Any]) -> set[str]:
    names = set(fields)
    if cls.model_config.get("frozen") and names == set(cls.model_fields):
        _EVERY[cls] = names
    return names
