"""REST client on the standard library (urllib): typed answers, problem errors, rate limits, 429 retries."""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any, Callable, Dict, Optional, Union
from urllib.parse import urlencode

from ._generated import _Operations
from ._model import ApiResponse, RateLimit, _Model, _plain

__all__ = ["MeridianClient", "MeridianProblemError", "RetryPolicy", "parse_rate_limit"]

_PARAM = re.compile(r"(?:^|;)\s*([a-z]+)=(\d+)")


def parse_rate_limit(headers: Dict[str, str], now: Optional[float] = None) -> Optional[RateLimit]:
    """Reads `RateLimit: "account";r=118;t=1` and `RateLimit-Policy: "account";q=120;w=60`."""
    state = headers.get("ratelimit")
    policy = headers.get("ratelimit-policy")
    if not state or not policy:
        return None
    s = dict(_PARAM.findall(state))
    p = dict(_PARAM.findall(policy))
    if "r" not in s or "t" not in s or "q" not in p:
        return None
    reset = int(s["t"])
    return RateLimit(
        limit=int(p["q"]),
        remaining=int(s["r"]),
        reset_seconds=reset,
        reset_at=(time.time() if now is None else now) + reset,
        window_seconds=int(p["w"]) if "w" in p else None,
    )


class MeridianProblemError(Exception):
    """An `application/problem+json` answer (every 4xx/5xx the API sends), with its fields."""

    def __init__(self, status: int, problem: Dict[str, Any], headers: Dict[str, str]):
        self.status = status
        self.problem = problem
        self.type: str = problem.get("type", "about:blank")
        self.title: str = problem.get("title", "")
        self.detail: Optional[str] = problem.get("detail")
        self.code: Optional[str] = problem.get("code")
        self.errors = problem.get("errors")
        self.request_id: Optional[str] = problem.get("requestId") or headers.get("x-request-id")
        self.rate_limit = parse_rate_limit(headers)
        retry_after = headers.get("retry-after")
        self.retry_after_seconds: Optional[int] = int(retry_after) if retry_after and retry_after.isdigit() else None
        super().__init__(f"{status} {self.code or self.title}: {self.detail or self.title}")


@dataclass(frozen=True)
class RetryPolicy:
    """Opt-in: on 429 wait for `Retry-After` (else the rate-limit reset) and try again."""

    max_retries: int = 3
    max_wait_seconds: float = 60.0


def _query_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(_query_value(v) for v in value)
    return str(value)


class MeridianClient(_Operations):
    """Every API operation as a method (generated from the OpenAPI document), e.g.

    >>> client = MeridianClient("http://127.0.0.1:8080", token="mrd_…")
    >>> client.get_market_data(symbols="BTCUSDT").data.data[0].price
    """

    def __init__(
        self,
        base_url: str,
        token: Optional[str] = None,
        *,
        timeout: float = 30.0,
        retry_on_429: Union[bool, RetryPolicy] = False,
        user_agent: str = "meridian-client-python",
        sleep: Callable[[float], None] = time.sleep,
    ):
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.timeout = timeout
        self.retry = RetryPolicy() if retry_on_429 is True else (retry_on_429 or None)
        self.user_agent = user_agent
        self._sleep = sleep
        self.last_rate_limit: Optional[RateLimit] = None

    def _call(
        self,
        method: str,
        path: str,
        query: Dict[str, Any],
        body: Any,
        convert: Callable[[Any], Any],
        headers: Optional[Dict[str, str]],
        csv_body: bool,
    ) -> ApiResponse[Any]:
        params = {k: _query_value(v) for k, v in query.items() if v is not None}
        url = self.base_url + path + ("?" + urlencode(params) if params else "")
        request_headers = {"accept": "application/json", "user-agent": self.user_agent}
        if self.token:
            request_headers["authorization"] = f"Bearer {self.token}"
        data: Optional[bytes] = None
        if body is not None:
            if csv_body and isinstance(body, str):
                data, request_headers["content-type"] = body.encode(), "text/csv"
            else:
                payload = body.to_dict() if isinstance(body, _Model) else _plain(body)
                data, request_headers["content-type"] = json.dumps(payload).encode(), "application/json"
        request_headers.update(headers or {})
        attempt = 0
        while True:
            try:
                return self._send(method, url, data, request_headers, convert)
            except MeridianProblemError as problem:
                wait = self._retry_wait(problem, attempt)
                if wait is None:
                    raise
                attempt += 1
                self._sleep(wait)

    def _retry_wait(self, problem: MeridianProblemError, attempt: int) -> Optional[float]:
        if problem.status != 429 or not self.retry or attempt >= self.retry.max_retries:
            return None
        wait = problem.retry_after_seconds
        if wait is None and problem.rate_limit:
            wait = problem.rate_limit.reset_seconds
        if wait is None or wait > self.retry.max_wait_seconds:
            return None
        return float(wait)

    def _send(
        self, method: str, url: str, data: Optional[bytes], headers: Dict[str, str], convert: Callable[[Any], Any]
    ) -> ApiResponse[Any]:
        request = urllib.request.Request(url, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                status, raw, answer_headers = response.status, response.read(), _lower(response.headers)
        except urllib.error.HTTPError as error:
            status, raw, answer_headers = error.code, error.read(), _lower(error.headers)
            self.last_rate_limit = parse_rate_limit(answer_headers) or self.last_rate_limit
            try:
                problem = json.loads(raw) if raw else {}
            except ValueError:
                problem = {"title": raw.decode(errors="replace")[:200]}
            raise MeridianProblemError(status, problem if isinstance(problem, dict) else {}, answer_headers) from None
        rate_limit = parse_rate_limit(answer_headers)
        self.last_rate_limit = rate_limit or self.last_rate_limit
        body = json.loads(raw) if raw else None
        return ApiResponse(data=convert(body), status=status, headers=answer_headers, rate_limit=rate_limit)


def _lower(headers: Any) -> Dict[str, str]:
    return {k.lower(): v for k, v in headers.items()} if headers else {}
