"""Base of the generated models: JSON → dataclass conversion that keeps unknown fields instead of failing."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Dict, Generic, List, Optional, Tuple, TypeVar
from urllib.parse import quote

T = TypeVar("T")
M = TypeVar("M", bound="_Model")


@dataclass(frozen=True)
class RateLimit:
    """The `RateLimit` / `RateLimit-Policy` headers of an answer."""

    limit: int
    remaining: int
    reset_seconds: int
    reset_at: float  # seconds since the epoch
    window_seconds: Optional[int]


@dataclass(frozen=True)
class ApiResponse(Generic[T]):
    """A successful answer: the typed body, its status, headers (lower-case names) and rate-limit reading."""

    data: T
    status: int
    headers: Dict[str, str]
    rate_limit: Optional[RateLimit]


class _Model:
    """A generated dataclass; `from_dict` builds one from the JSON object, `to_dict` gives the JSON back."""

    _FIELDS: Tuple[Tuple[str, str, Callable[[Any], Any]], ...] = ()
    _registry: ClassVar[Dict[str, type]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _Model._registry[cls.__name__] = cls

    @classmethod
    def from_dict(cls: type[M], value: Dict[str, Any]) -> M:
        known = {json_name for _, json_name, _ in cls._FIELDS}
        kwargs = {py: convert(value[json]) for py, json, convert in cls._FIELDS if json in value}
        # Fields a newer server adds are kept, not dropped and not an error.
        kwargs["_extra"] = {k: v for k, v in value.items() if k not in known}
        return cls(**kwargs)

    def to_dict(self) -> Dict[str, Any]:
        out = dict(getattr(self, "_extra", {}))
        for py, json_name, _ in self._FIELDS:
            value = getattr(self, py)
            if value is not None:
                out[json_name] = _plain(value)
        return out


def _plain(value: Any) -> Any:
    if isinstance(value, _Model):
        return value.to_dict()
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _any(value: Any) -> Any:
    return value


def _none(_value: Any) -> None:
    return None


def _num(value: Any) -> Any:
    # JSON integers where the schema says number: keep them floats, as the type says.
    return float(value) if isinstance(value, int) and not isinstance(value, bool) else value


def _obj(name: str) -> Callable[[Any], Any]:
    # By name: a model may refer to one defined further down the generated module.
    def convert(value: Any) -> Any:
        return _Model._registry[name].from_dict(value) if isinstance(value, dict) else value

    return convert


def _list(convert: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda value: [convert(v) for v in value] if isinstance(value, list) else value


def _map(convert: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda value: {k: convert(v) for k, v in value.items()} if isinstance(value, dict) else value


def _opt(convert: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda value: None if value is None else convert(value)


def _path(template: str, values: Dict[str, str]) -> str:
    for name, value in values.items():
        template = template.replace("{" + name + "}", quote(str(value), safe=""))
    return template


def model_fields(model: type[_Model]) -> List[str]:
    """The Python attribute names of a generated model, in declaration order."""
    return [f.name for f in dataclasses.fields(model) if not f.name.startswith("_")]
