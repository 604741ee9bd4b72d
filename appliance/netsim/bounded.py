"""What the simulator's doubles keep, bounded: a double runs for as long as a sandbox does, on a
server that may be reached by anyone, and every list it keeps grew with every call (a 1 MB body
kept forever; 534 MB after one 20 MB call). The oldest entries go once a store holds more than
its count or its bytes (each entry's size as the JSON it would be shown as, or as given)."""

from __future__ import annotations

import json
from collections import OrderedDict, deque
from typing import Any, Callable, Iterator


def json_size(value: Any) -> int:
    try:
        return len(json.dumps(value, default=str, separators=(",", ":")))
    except (TypeError, ValueError, RecursionError):
        return len(repr(value))


class BoundedLog:
    """A list of what happened (calls, sends, deliveries), newest last; `total` counts every entry
    ever added, also those that went. Callers hold their store's lock."""

    def __init__(self, *, max_items: int, max_bytes: int, size: Callable[[Any], int] = json_size):
        self.max_items, self.max_bytes, self._size = max_items, max_bytes, size
        self._items: deque = deque()
        self._sizes: deque = deque()
        self.bytes = 0
        self.total = 0

    def append(self, item: Any) -> None:
        size = self._size(item)
        self._items.append(item)
        self._sizes.append(size)
        self.bytes += size
        self.total += 1
        while len(self._items) > self.max_items or (self.bytes > self.max_bytes and len(self._items) > 1):
            self._items.popleft()
            self.bytes -= self._sizes.popleft()

    def clear(self) -> None:
        self._items.clear()
        self._sizes.clear()
        self.bytes = 0

    def __iter__(self) -> Iterator:
        return iter(list(self._items))  # a copy: the log may move while a reader walks it

    def __len__(self) -> int:
        return len(self._items)

    def __getitem__(self, index: int):
        return self._items[index]


class BoundedDict(OrderedDict):
    """A mapping that forgets its oldest keys beyond `max_items` entries or `max_bytes` of values."""

    def __init__(self, *, max_items: int, max_bytes: int | None = None, size: Callable[[Any], int] = json_size):
        super().__init__()
        self.max_items, self.max_bytes, self._size = max_items, max_bytes, size
        self._sizes: dict = {}
        self.bytes = 0

    def __setitem__(self, key, value) -> None:
        if key in self:
            self.pop(key)
        super().__setitem__(key, value)
        if self.max_bytes is not None:
            self._sizes[key] = self._size(value)
            self.bytes += self._sizes[key]
        while len(self) > self.max_items or (self.max_bytes is not None and self.bytes > self.max_bytes and len(self) > 1):
            self.popitem(last=False)

    def __delitem__(self, key) -> None:
        super().__delitem__(key)
        self.bytes -= self._sizes.pop(key, 0)

    def pop(self, key, *default):
        if key in self:
            value = super().pop(key)
            self.bytes -= self._sizes.pop(key, 0)
            return value
        if default:
            return default[0]
        raise KeyError(key)

    def popitem(self, last: bool = True):
        key, value = super().popitem(last=last)
        self.bytes -= self._sizes.pop(key, 0)
        return key, value

    def clear(self) -> None:
        super().clear()
        self._sizes.clear()
        self.bytes = 0
