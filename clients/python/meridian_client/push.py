"""Push channels (`/market`, `/predictions`, `/events`) as async iterators that reconnect by themselves.

Needs the `websockets` package (Debian: `python3-websockets`); the REST client does not.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any, AsyncIterator, Callable, Dict, List, Optional, Union
from urllib.parse import urlencode

try:
    import websockets
    from websockets.exceptions import ConnectionClosed, InvalidStatusCode
except ImportError:  # pragma: no cover - exercised only where the package is missing
    websockets = None  # type: ignore[assignment]

__all__ = ["PushClient", "PushClosedError"]


class PushClosedError(Exception):
    """The server ended the stream for good (4401: the credentials ended); reconnecting would not help."""

    def __init__(self, code: int, reason: str):
        self.code = code
        self.reason = reason
        super().__init__(f"push channel closed {code}: {reason}")


def _as_list(value: Union[None, str, List[str]]) -> Optional[List[str]]:
    if value is None:
        return None
    return [value] if isinstance(value, str) else list(value)


class PushClient:
    """Reconnects with exponential backoff and full jitter; re-sends the subscription on each connection."""

    def __init__(
        self,
        base_url: str,
        token: str,
        *,
        initial_delay: float = 0.25,
        max_delay: float = 30.0,
        on_status: Optional[Callable[[str, int], None]] = None,
    ):
        if websockets is None:
            raise ImportError("the push client needs the 'websockets' package (Debian: python3-websockets)")
        self.ws_url = base_url.rstrip("/").replace("https://", "wss://", 1).replace("http://", "ws://", 1)
        self.token = token
        self.initial_delay = initial_delay
        self.max_delay = max_delay
        self.on_status = on_status or (lambda state, reconnects: None)

    def market(self, symbols: Union[None, str, List[str]] = None, quote: Optional[str] = None) -> AsyncIterator[Dict[str, Any]]:
        """Each `/market` snapshot (`type`, `at`, `source`, `asOf`, `stale`, `data`), on connect and after each change."""
        listed = _as_list(symbols)
        query = {"symbols": ",".join(listed) if listed else None, "quote": quote}
        return self._stream("/market", lambda: query, None, lambda m: m if m.get("type") == "snapshot" else None)

    def predictions(
        self, symbol: Union[None, str, List[str]] = None, horizon: Union[None, str, List[str]] = None
    ) -> AsyncIterator[Dict[str, Any]]:
        """Each refresh `{ "data": [datapoints] }` within the subscription (live only: read REST after a gap)."""
        subscribe = {"type": "subscribe", "id": "sdk", "symbols": _as_list(symbol), "horizons": _as_list(horizon)}
        subscribe = {k: v for k, v in subscribe.items() if v is not None}
        return self._stream(
            "/predictions", lambda: {}, subscribe, lambda m: m if isinstance(m.get("data"), list) else None
        )

    def events(self, after: Optional[str] = None) -> AsyncIterator[Dict[str, Any]]:
        """Each account event; a reconnect resumes after the last one received."""
        position = {"after": after}

        def accept(message: Dict[str, Any]) -> Optional[Dict[str, Any]]:
            if isinstance(message.get("id"), str) and isinstance(message.get("type"), str):
                position["after"] = message["id"]
                return message
            return None

        return self._stream("/events", lambda: dict(position), None, accept)

    async def _stream(
        self,
        path: str,
        query: Callable[[], Dict[str, Any]],
        on_open: Optional[Dict[str, Any]],
        accept: Callable[[Dict[str, Any]], Optional[Dict[str, Any]]],
    ) -> AsyncIterator[Dict[str, Any]]:
        reconnects = 0
        delay = self.initial_delay
        while True:
            params = {k: v for k, v in query().items() if v is not None}
            url = self.ws_url + path + ("?" + urlencode(params) if params else "")
            try:
                async with _connect(url, {"Authorization": f"Bearer {self.token}"}) as socket:
                    self.on_status("open", reconnects)
                    delay = self.initial_delay
                    if on_open is not None:
                        await socket.send(json.dumps(on_open))
                    async for frame in socket:
                        if not isinstance(frame, str):
                            continue
                        message = json.loads(frame)
                        item = accept(message) if isinstance(message, dict) else None
                        if item is not None:
                            yield item
            except ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd else 1006
                if code == 4401:
                    raise PushClosedError(code, closed.rcvd.reason if closed.rcvd else "") from None
            except InvalidStatusCode as refused:
                if refused.status_code in (400, 401, 403):
                    raise PushClosedError(refused.status_code, "handshake refused") from None
            except OSError:
                pass
            reconnects += 1
            self.on_status("reconnecting", reconnects)
            await asyncio.sleep(random.uniform(0, delay))
            delay = min(self.max_delay, delay * 2)


def _connect(url: str, headers: Dict[str, str]) -> Any:
    # websockets 14 renamed `extra_headers` to `additional_headers`; Debian 12 ships 10.4.
    major = int(str(getattr(websockets, "__version__", "0")).split(".")[0] or 0)
    key = "additional_headers" if major >= 14 else "extra_headers"
    return websockets.connect(url, max_size=2**22, **{key: headers})
