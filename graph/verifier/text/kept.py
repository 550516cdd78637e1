"""`kept_property`: a property computed on first access and then kept on the instance."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, Self, TypeVar, overload

Value = TypeVar("Value")


class kept_property(Generic[Value]):
    """`functools.cached_property` without its lock: on Python 3.11 each first access
    takes a lock shared by every instance of the class, which costs more than most of
    the verifier's properties compute. For objects of one verification (one thread);
    the value lands in the instance's `__dict__`, which later accesses read directly."""

    def __init__(self, compute: Callable[[Any], Value]) -> None:
        self.compute = compute
        self.name = compute.__name__
        self.__doc__ = compute.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> Self: ...

    @overload
    def __get__(self, instance: object, owner: type | None = None) -> Value: ...

    def __get__(self, instance: object | None, owner: type | None = None) -> Self | Value:
        if instance is None:
            return self
        value = self.compute(instance)
        instance.__dict__[self.name] = value
        return value
