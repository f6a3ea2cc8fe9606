"""What every model of the wire builds on: frozen models that refuse unknown fields, the
configuration of models the server sends whole, card codes, and the slot in which a model
may carry a derived form along (the server keeps its game engine's form of a state or a
view there, so that reading it twice converts nothing)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Generic, Self, TypeVar

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

CARD_PATTERN = r"^(?:[A2-9TJQK][CDHS]|JK)$"
# A card: rank A 2-9 T J Q K and suit C D H S, or JK for a joker (docs/api.md).
CardCode = Annotated[str, Field(pattern=CARD_PATTERN, examples=["7H", "TD", "JK"])]

T = TypeVar("T")
_set = object.__setattr__


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# For models the server sends: every field is in every one it sends, defaults included,
# so their JSON Schema (serialization mode: OpenAPI's responses) lists every field required.
SENT_WHOLE = ConfigDict(
    json_schema_serialization_defaults_required=True,
    # A model sent whole is also read back whole (a record or log posted to /api/replays):
    # one schema for both directions, so OpenAPI has one component, not -Input and -Output.
    json_schema_mode_override="serialization",
)


class FastForm(Generic[T]):
    """A slot for a derived form of the model holding it (None until someone fills it).

    Derived data, never part of the model's value: it is not dumped, two models with
    different forms (or one without) compare equal, a deep copy or a pickle leaves it
    behind. Whoever reads a form must not change it."""

    __slots__ = ("value",)

    def __init__(self, value: T | None = None) -> None:
        self.value = value

    def __eq__(self, other: object) -> bool:
        # A cache never makes two models unequal.
        return isinstance(other, FastForm)

    __hash__ = None  # type: ignore[assignment]

    def __copy__(self) -> FastForm[T]:
        return FastForm(self.value)

    def __deepcopy__(self, memo: dict[int, Any]) -> FastForm[T]:
        return FastForm()

    def __reduce__(self) -> tuple[type[FastForm[T]], tuple[()]]:
        return (FastForm, ())

    def __repr__(self) -> str:
        return "FastForm()" if self.value is None else "FastForm(...)"


class Carrier(Frozen):
    """A frozen model that may carry a derived form (`FastForm`) along; `model_copy` with
    new field values drops it (they no longer match it)."""

    _fast: FastForm[Any] = PrivateAttr(default_factory=FastForm)

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        copied = super().model_copy(update=update, deep=deep)
        if update:
            _set(copied, "__pydantic_private__", {"_fast": FastForm()})
        return copied
