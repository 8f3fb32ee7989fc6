# Generated from docs/openapi.json by scripts/python-client.ts (npm run sdk:python). Do not edit.
# fmt: off
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Dict, List, Literal, Optional, Tuple, Union

from ._model import ApiResponse, _Model, _any, _list, _map, _none, _num, _obj, _opt, _path, _plain


@dataclass
class AcceptInvitationRequest(_Model):
    """AcceptInvitationRequest"""

    token: str
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("token", "token", _any),
    )


@dataclass
class AccountOrganization(_Model):
    """The organization these credentials act in, and the role there"""

    id: str
    role: Union[Literal["owner"], Literal["admin"], Literal["member"], Literal["viewer"]]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("id", "id", _any),
        ("role", "role", _any),
    )


@dataclass
class AccountLimits(_Model):
    """AccountLimits"""

    requests_per_minute: int
    ws_connections: int
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("requests_per_minute", "requestsPerMinute", _any),
        ("ws_connections", "wsConnections", _any),
    )


@dataclass
class Account(_Model):
    """Account"""

    id: str
    email: str
    role: Union[Literal["viewer"], Literal["member"], Literal["admin"]]  # The account's server-wide role: it caps what the account may do in any organization
    organization: AccountOrganization  # The organization these credentials act in, and the role there
    plan: Union[Literal["standard"], Literal["pro"]]
    limits: AccountLimits
    permissions: List[Literal["market:read", "onchain:read", "onchain:write", "predictions:read", "alerts:read", "alerts:write", "portfolio:read", "portfolio:write", "account:read", "users:manage"]]
    authenticated_with: Union[Literal["token"], Literal["session"]]
    created_at: str
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("id", "id", _any),
        ("email", "email", _any),
        ("role", "role", _any),
        ("organization", "organization", _obj("AccountOrganization")),
        ("plan", "plan", _any),
        ("limits", "limits", _obj("AccountLimits")),
        ("permissions", "permissions", _list(_any)),
        ("authenticated_with", "authenticatedWith", _any),
        ("created_at", "createdAt", _any),
    )


@dataclass
class AccountUsageQuota(_Model):
    """The account's rate limit now (a sliding 60-second window shared by its tokens and sessions)"""

    limit: int  # Requests per window (the plan or a per-account override)
    window_seconds: int
    used: int
    remaining: int
    reset_at: str  # When the oldest request in the window leaves it (one more becomes available); now when none is count
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("limit", "limit", _any),
        ("window_seconds", "windowSeconds", _any),
        ("used", "used", _any),
        ("remaining", "remaining", _any),
        ("reset_at", "resetAt", _any),
    )


@dataclass
class AccountUsageCurrentWindowByEndpointItem(_Model):
    """AccountUsageCurrentWindowByEndpointItem"""

    endpoint: str
    requests: int
    rate_limited: int
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("endpoint", "endpoint", _any),
        ("requests", "requests", _any),
        ("rate_limited", "rateLimited", _any),
    )


@dataclass
class AccountUsageCurrentWindowByClientItemOauthClient(_Model):
    """AccountUsageCurrentWindowByClientItemOauthClient"""

    id: str
    name: str
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("id", "id", _any),
        ("name", "name", _any),
    )


@dataclass
class AccountUsageCurrentWindowByClientItem(_Model):
    """AccountUsageCurrentWindowByClientItem"""

    client: Union[Literal["console"], Literal["token"], Literal["oauth"], Literal["other"]]  # console: the web console (a session); token: one of the account's API tokens; oauth: an OAuth client
    token_id: Optional[str]
    token_name: Optional[str]  # The token's name (null once deleted)
    oauth_client: Optional[AccountUsageCurrentWindowByClientItemOauthClient]  # For oauth: the OAuth client (application) the account authorized
    requests: int
    rate_limited: int
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("client", "client", _any),
        ("token_id", "tokenId", _opt(_any)),
        ("token_name", "tokenName", _opt(_any)),
        ("oauth_client", "oauthClient", _opt(_obj("AccountUsageCurrentWindowByClientItemOauthClient"))),
        ("requests", "requests", _any),
        ("rate_limited", "rateLimited", _any),
    )


@dataclass
class AccountUsageCurrentWindow(_Model):
    """Requests and 429s in the rate limit's current 60-second window, counted per second over every API replica: this process's own requests at once, other replicas' within flushIntervalMs"""

    from_: str  # Start of the oldest second counted: the seconds overlapping the sliding window (at most one second m
    to: str
    requests: int
    rate_limited: int  # Requests answered 429
    by_endpoint: List[AccountUsageCurrentWindowByEndpointItem]
    by_client: List[AccountUsageCurrentWindowByClientItem]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("from_", "from", _any),
        ("to", "to", _any),
        ("requests", "requests", _any),
        ("rate_limited", "rateLimited", _any),
        ("by_endpoint", "byEndpoint", _list(_obj("AccountUsageCurrentWindowByEndpointItem"))),
        ("by_client", "byClient", _list(_obj("AccountUsageCurrentWindowByClientItem"))),
    )


@dataclass
class AccountUsageLast24hByEndpointItem(_Model):
    """AccountUsageLast24hByEndpointItem"""

    endpoint: str
    requests: int
    rate_limited: int
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("endpoint", "endpoint", _any),
        ("requests", "requests", _any),
        ("rate_limited", "rateLimited", _any),
    )


@dataclass
class AccountUsageLast24hByClientItemOauthClient(_Model):
    """AccountUsageLast24hByClientItemOauthClient"""

    id: str
    name: str
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("id", "id", _any),
        ("name", "name", _any),
    )


@dataclass
class AccountUsageLast24hByClientItem(_Model):
    """AccountUsageLast24hByClientItem"""

    client: Union[Literal["console"], Literal["token"], Literal["oauth"], Literal["other"]]  # console: the web console (a session); token: one of the account's API tokens; oauth: an OAuth client
    token_id: Optional[str]
    token_name: Optional[str]  # The token's name (null once deleted)
    oauth_client: Optional[AccountUsageLast24hByClientItemOauthClient]  # For oauth: the OAuth client (application) the account authorized
    requests: int
    rate_limited: int
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("client", "client", _any),
        ("token_id", "tokenId", _opt(_any)),
        ("token_name", "tokenName", _opt(_any)),
        ("oauth_client", "oauthClient", _opt(_obj("AccountUsageLast24hByClientItemOauthClient"))),
        ("requests", "requests", _any),
        ("rate_limited", "rateLimited", _any),
    )


@dataclass
class AccountUsageLast24h(_Model):
    """The last 24 hours"""

    from_: str  # Start of the oldest 10-minute bucket counted
    to: str
    requests: int
    rate_limited: int  # Requests answered 429
    by_endpoint: List[AccountUsageLast24hByEndpointItem]
    by_client: List[AccountUsageLast24hByClientItem]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("from_", "from", _any),
        ("to", "to", _any),
        ("requests", "requests", _any),
        ("rate_limited", "rateLimited", _any),
        ("by_endpoint", "byEndpoint", _list(_obj("AccountUsageLast24hByEndpointItem"))),
        ("by_client", "byClient", _list(_obj("AccountUsageLast24hByClientItem"))),
    )


@dataclass
class AccountUsageLast30dByEndpointItem(_Model):
    """AccountUsageLast30dByEndpointItem"""

    endpoint: str
    requests: int
    rate_limited: int
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("endpoint", "endpoint", _any),
        ("requests", "requests", _any),
        ("rate_limited", "rateLimited", _any),
    )


@dataclass
class AccountUsageLast30dByClientItemOauthClient(_Model):
    """AccountUsageLast30dByClientItemOauthClient"""

    id: str
    name: str
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("id", "id", _any),
        ("name", "name", _any),
    )


@dataclass
class AccountUsageLast30dByClientItem(_Model):
    """AccountUsageLast30dByClientItem"""

    client: Union[Literal["console"], Literal["token"], Literal["oauth"], Literal["other"]]  # console: the web console (a session); token: one of the account's API tokens; oauth: an OAuth client
    token_id: Optional[str]
    token_name: Optional[str]  # The token's name (null once deleted)
    oauth_client: Optional[AccountUsageLast30dByClientItemOauthClient]  # For oauth: the OAuth client (application) the account authorized
    requests: int
    rate_limited: int
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("client", "client", _any),
        ("token_id", "tokenId", _opt(_any)),
        ("token_name", "tokenName", _opt(_any)),
        ("oauth_client", "oauthClient", _opt(_obj("AccountUsageLast30dByClientItemOauthClient"))),
        ("requests", "requests", _any),
        ("rate_limited", "rateLimited", _any),
    )


@dataclass
class AccountUsageLast30d(_Model):
    """The last 30 UTC days, today included"""

    from_: str  # Start of the oldest UTC day counted
    to: str
    requests: int
    rate_limited: int  # Requests answered 429
    by_endpoint: List[AccountUsageLast30dByEndpointItem]
    by_client: List[AccountUsageLast30dByClientItem]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("from_", "from", _any),
        ("to", "to", _any),
        ("requests", "requests", _any),
        ("rate_limited", "rateLimited", _any),
        ("by_endpoint", "byEndpoint", _list(_obj("AccountUsageLast30dByEndpointItem"))),
        ("by_client", "byClient", _list(_obj("AccountUsageLast30dByClientItem"))),
    )


@dataclass
class AccountUsage(_Model):
    """AccountUsage"""

    generated_at: str
    plan: str
    quota: AccountUsageQuota  # The account's rate limit now (a sliding 60-second window shared by its tokens and sessions)
    current_window: AccountUsageCurrentWindow  # Requests and 429s in the rate limit's current 60-second window, counted per second over every API re
    last24h: AccountUsageLast24h  # The last 24 hours
    last30d: AccountUsageLast30d  # The last 30 UTC days, today included
    flush_interval_ms: int  # Other replicas' requests appear within this long
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("generated_at", "generatedAt", _any),
        ("plan", "plan", _any),
        ("quota", "quota", _obj("AccountUsageQuota")),
        ("current_window", "currentWindow", _obj("AccountUsageCurrentWindow")),
        ("last24h", "last24h", _obj("AccountUsageLast24h")),
        ("last30d", "last30d", _obj("AccountUsageLast30d")),
        ("flush_interval_ms", "flushIntervalMs", _any),
    )


@dataclass
class AddressFlowAlertRuleInputCondition(_Model):
    """AddressFlowAlertRuleInputCondition"""

    direction: Literal["in", "out", "any"]  # in: into the exchange or address; out: out of it; any: either
    min_usd: float  # USD: a single transfer, or the windowed sum, of at least this
    exchange: Optional[str] = None  # binance, okx, … (aliases)
    address: Optional[str] = None  # A 0x address (either party of a flow)
    label: Optional[str] = None  # Id of one of the account's private labels (POST /api/labels): the rule watches its address
    asset: Optional[str] = None  # ETH, USDT, … (absent: any)
    window: Optional[Literal["5m", "15m", "1h", "24h"]] = None  # Absent: each single transfer; present: the sum over the window
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("direction", "direction", _any),
        ("min_usd", "minUsd", _num),
        ("exchange", "exchange", _any),
        ("address", "address", _any),
        ("label", "label", _any),
        ("asset", "asset", _any),
        ("window", "window", _any),
    )


@dataclass
class AddressFlowAlertRuleInputTrigger(_Model):
    """AddressFlowAlertRuleInputTrigger"""

    mode: Optional[Literal["once", "every"]] = None  # once (default): fire once, then triggered; every: each time
    cooldown_sec: Optional[int] = None  # every: quiet time after a firing (default 300)
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("mode", "mode", _any),
        ("cooldown_sec", "cooldownSec", _any),
    )


@dataclass
class AddressFlowAlertRuleInputChannels(_Model):
    """AddressFlowAlertRuleInputChannels"""

    webhook_ids: Optional[List[str]] = None  # Endpoints to deliver to; empty: every endpoint of the account subscribed to the event type
    channel_ids: Optional[List[str]] = None  # Alert channels (email, Telegram, Discord, Slack) that receive its messages
    events: Optional[bool] = None  # Carry the events on the /events stream (default true)
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("webhook_ids", "webhookIds", _list(_any)),
        ("channel_ids", "channelIds", _list(_any)),
        ("events", "events", _any),
    )


@dataclass
class AddressFlowAlertRuleInput(_Model):
    """AddressFlowAlertRuleInput"""

    type: Literal["address_flow"]
    condition: AddressFlowAlertRuleInputCondition
    name: Optional[str] = None
    trigger: Optional[AddressFlowAlertRuleInputTrigger] = None
    expires_at: Optional[Optional[str]] = None
    channels: Optional[AddressFlowAlertRuleInputChannels] = None
    template: Optional[Optional[str]] = None
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("type", "type", _any),
        ("condition", "condition", _obj("AddressFlowAlertRuleInputCondition")),
        ("name", "name", _any),
        ("trigger", "trigger", _obj("AddressFlowAlertRuleInputTrigger")),
        ("expires_at", "expiresAt", _opt(_any)),
        ("channels", "channels", _obj("AddressFlowAlertRuleInputChannels")),
        ("template", "template", _opt(_any)),
    )


@dataclass
class AlertBacktestRuleCondition1(_Model):
    """AlertBacktestRuleCondition1"""

    op: Literal["crosses_above", "crosses_below", "above", "below", "change_pct"]
    value: float  # A price in quote currency; for change_pct a percent (negative = a fall of more than it)
    window: Optional[Literal["5m", "15m", "1h", "24h"]] = None  # change_pct only: the window the change is measured over
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("op", "op", _any),
        ("value", "value", _num),
        ("window", "window", _any),
    )


@dataclass
class AlertBacktestRuleCondition2(_Model):
    """AlertBacktestRuleCondition2"""

    op: Literal["above"]
    value: float  # Quote volume (USD) over the window
    window: Literal["5m", "15m", "1h", "24h"]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("op", "op", _any),
        ("value", "value", _num),
        ("window", "window", _any),
    )


@dataclass
class AlertBacktestRuleCondition3(_Model):
    """AlertBacktestRuleCondition3"""

    direction: Literal["in", "out", "any"]  # in: into the exchange or address; out: out of it; any: either
    min_usd: float  # USD: a single transfer, or the windowed sum, of at least this
    exchange: Optional[str] = None  # binance, okx, … (aliases)
    address: Optional[str] = None  # A 0x address (either party of a flow)
    label: Optional[str] = None  # Id of one of the account's private labels (POST /api/labels): the rule watches its address
    asset: Optional[str] = None  # ETH, USDT, … (absent: any)
    window: Optional[Literal["5m", "15m", "1h", "24h"]] = None  # Absent: each single transfer; present: the sum over the window
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("direction", "direction", _any),
        ("min_usd", "minUsd", _num),
        ("exchange", "exchange", _any),
        ("address", "address", _any),
        ("label", "label", _any),
        ("asset", "asset", _any),
        ("window", "window", _any),
    )


@dataclass
class AlertBacktestRuleTrigger(_Model):
    """AlertBacktestRuleTrigger"""

    mode: Literal["once", "every"]
    cooldown_sec: int
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("mode", "mode", _any),
        ("cooldown_sec", "cooldownSec", _any),
    )


@dataclass
class AlertBacktestRule(_Model):
    """The rule as evaluated (normalized), not saved"""

    type: Literal["price", "volume", "address_flow", "funding", "open_interest", "liquidations", "probability"]
    condition: Union[AlertBacktestRuleCondition1, AlertBacktestRuleCondition2, AlertBacktestRuleCondition3]
    trigger: AlertBacktestRuleTrigger
    symbol: Optional[str] = None
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("type", "type", _any),
        ("condition", "condition", _any),
        ("trigger", "trigger", _obj("AlertBacktestRuleTrigger")),
        ("symbol", "symbol", _any),
    )


@dataclass
class AlertBacktestWindow(_Model):
    """AlertBacktestWindow"""

    from_: str
    to: str
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("from_", "from", _any),
        ("to", "to", _any),
    )


@dataclass
class AlertBacktestFiringsItem(_Model):
    """AlertBacktestFiringsItem"""

    at: str  # When it would have fired
    value: float  # The value its condition compared (price, %, USD)
    flow_id: Optional[str] = None  # Flow rules: the flow behind the firing
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("at", "at", _any),
        ("value", "value", _num),
        ("flow_id", "flowId", _any),
    )


@dataclass
class AlertBacktestTotalsPerDayItem(_Model):
    """AlertBacktestTotalsPerDayItem"""

    day: str
    firings: int
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("day", "day", _any),
        ("firings", "firings", _any),
    )


@dataclass
class AlertBacktestTotals(_Model):
    """AlertBacktestTotals"""

    firings: int
    first: Optional[str]
    last: Optional[str]
    per_day: List[AlertBacktestTotalsPerDayItem]  # Per UTC day of the window, days without a firing included
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("firings", "firings", _any),
        ("first", "first", _opt(_any)),
        ("last", "last", _opt(_any)),
        ("per_day", "perDay", _list(_obj("AlertBacktestTotalsPerDayItem"))),
    )


@dataclass
class AlertBacktestData(_Model):
    """What was replayed: say what the firings rest on"""

    source: str  # simulated, replay or ccxt:<venues> (flows: the chain source)
    simulated: bool  # true when the data replayed was made up by a simulator
    candles: Optional[int] = None  # Price and volume rules: stored 1m candles replayed
    missing_minutes: Optional[int] = None  # Minutes of the window without a candle
    backfilling: Optional[bool] = None  # Storage is still being filled: the window may gain candles
    available_from: Optional[str] = None  # Where stored history of the symbol starts
    flows: Optional[int] = None  # Flow rules: stored flows read
    complete: Optional[bool] = None  # Flow rules: false when the read stopped before the window start
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("source", "source", _any),
        ("simulated", "simulated", _any),
        ("candles", "candles", _any),
        ("missing_minutes", "missingMinutes", _any),
        ("backfilling", "backfilling", _any),
        ("available_from", "availableFrom", _any),
        ("flows", "flows", _any),
        ("complete", "complete", _any),
    )


@dataclass
class AlertBacktestNormalizedItem(_Model):
    """AlertBacktestNormalizedItem"""

    field: str
    requested: str
    used: str
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("field", "field", _any),
        ("requested", "requested", _any),
        ("used", "used", _any),
    )


@dataclass
class AlertBacktest(_Model):
    """AlertBacktest"""

    rule: AlertBacktestRule  # The rule as evaluated (normalized), not saved
    window: AlertBacktestWindow
    firings: List[AlertBacktestFiringsItem]  # Oldest first; the first 1000 (totals count all)
    firings_listed: int
    totals: AlertBacktestTotals
    data: AlertBacktestData  # What was replayed: say what the firings rest on
    normalized: List[AlertBacktestNormalizedItem]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("rule", "rule", _obj("AlertBacktestRule")),
        ("window", "window", _obj("AlertBacktestWindow")),
        ("firings", "firings", _list(_obj("AlertBacktestFiringsItem"))),
        ("firings_listed", "firingsListed", _any),
        ("totals", "totals", _obj("AlertBacktestTotals")),
        ("data", "data", _obj("AlertBacktestData")),
        ("normalized", "normalized", _list(_obj("AlertBacktestNormalizedItem"))),
    )


@dataclass
class AlertCappedEventDataRuleCondition1(_Model):
    """AlertCappedEventDataRuleCondition1"""

    horizon: Literal["15m", "1h", "6h"]  # The forecast horizon whose datapoints are read
    level: float  # The price level (quote currency)
    kind: Literal["end_above", "touch"]  # end_above: the price ends above level at the horizon; touch: it reaches level before the horizon
    op: Literal["above", "below"]  # above: the probability is above value; below: under it
    value: float  # The probability threshold, 0–1, compared with each newly published datapoint of the symbol at the ho
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("horizon", "horizon", _any),
        ("level", "level", _num),
        ("kind", "kind", _any),
        ("op", "op", _any),
        ("value", "value", _num),
    )


@dataclass
class AlertCappedEventDataRuleCondition2(_Model):
    """AlertCappedEventDataRuleCondition2"""

    op: Literal["crosses_above", "crosses_below", "above", "below", "change_pct"]
    value: float  # A price in quote currency; for change_pct a percent (negative = a fall of more than it)
    window: Optional[Literal["5m", "15m", "1h", "24h"]] = None  # change_pct only: the window the change is measured over
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("op", "op", _any),
        ("value", "value", _num),
        ("window", "window", _any),
    )


@dataclass
class AlertCappedEventDataRuleCondition3(_Model):
    """AlertCappedEventDataRuleCondition3"""

    op: Literal["above"]
    value: float  # Quote volume (USD) over the window
    window: Literal["5m", "15m", "1h", "24h"]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("op", "op", _any),
        ("value", "value", _num),
        ("window", "window", _any),
    )


@dataclass
class AlertCappedEventDataRuleCondition4(_Model):
    """AlertCappedEventDataRuleCondition4"""

    direction: Literal["in", "out", "any"]  # in: into the exchange or address; out: out of it; any: either
    min_usd: float  # USD: a single transfer, or the windowed sum, of at least this
    exchange: Optional[str] = None  # binance, okx, … (aliases)
    address: Optional[str] = None  # A 0x address (either party of a flow)
    label: Optional[str] = None  # Id of one of the account's private labels (POST /api/labels): the rule watches its address
    asset: Optional[str] = None  # ETH, USDT, … (absent: any)
    window: Optional[Literal["5m", "15m", "1h", "24h"]] = None  # Absent: each single transfer; present: the sum over the window
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("direction", "direction", _any),
        ("min_usd", "minUsd", _num),
        ("exchange", "exchange", _any),
        ("address", "address", _any),
        ("label", "label", _any),
        ("asset", "asset", _any),
        ("window", "window", _any),
    )


@dataclass
class AlertCappedEventDataRuleCondition5(_Model):
    """AlertCappedEventDataRuleCondition5"""

    op: Literal["above", "below"]  # above: the rate is above value; below: under it
    value: float  # Annualized percent, simple: rate × (8760 / intervalHours) × 100 (10.95 = 0.01 % per 8 h); negative: 
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("op", "op", _any),
        ("value", "value", _num),
    )


@dataclass
class AlertCappedEventDataRuleCondition6(_Model):
    """AlertCappedEventDataRuleCondition6"""

    op: Literal["above", "below"]  # above: the change is above value; below: under it
    value: float  # Percent change of open interest (USD) over the window; negative = a fall
    window: Literal["1h", "4h", "24h"]  # The change is measured against the value this long ago
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("op", "op", _any),
        ("value", "value", _num),
        ("window", "window", _any),
    )


@dataclass
class AlertCappedEventDataRuleCondition7(_Model):
    """AlertCappedEventDataRuleCondition7"""

    op: Literal["above"]
    value: float  # USD liquidated over the window
    side: Literal["long", "short", "any"]  # long: longs closed (a fall); short: shorts closed (a rise); any: both
    window: Literal["1h", "4h", "24h"]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("op", "op", _any),
        ("value", "value", _num),
        ("side", "side", _any),
        ("window", "window", _any),
    )


@dataclass
class AlertCappedEventDataRuleTrigger(_Model):
    """AlertCappedEventDataRuleTrigger"""

    mode: Literal["once", "every"]
    cooldown_sec: int
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("mode", "mode", _any),
        ("cooldown_sec", "cooldownSec", _any),
    )


@dataclass
class AlertCappedEventDataRuleChannels(_Model):
    """AlertCappedEventDataRuleChannels"""

    webhook_ids: List[str]
    events: bool
    channel_ids: Optional[List[str]] = None
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("webhook_ids", "webhookIds", _list(_any)),
        ("events", "events", _any),
        ("channel_ids", "channelIds", _list(_any)),
    )


@dataclass
class AlertCappedEventDataRule(_Model):
    """AlertCappedEventDataRule"""

    id: str
    name: str
    type: Literal["price", "volume", "address_flow", "funding", "open_interest", "liquidations", "probability"]
    condition: Union[AlertCappedEventDataRuleCondition1, AlertCappedEventDataRuleCondition2, AlertCappedEventDataRuleCondition3, AlertCappedEventDataRuleCondition4, AlertCappedEventDataRuleCondition5, AlertCappedEventDataRuleCondition6, AlertCappedEventDataRuleCondition7]
    trigger: AlertCappedEventDataRuleTrigger
    channels: AlertCappedEventDataRuleChannels
    symbol: Optional[str] = None
    template: Optional[Optional[str]] = None
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("id", "id", _any),
        ("name", "name", _any),
        ("type", "type", _any),
        ("condition", "condition", _any),
        ("trigger", "trigger", _obj("AlertCappedEventDataRuleTrigger")),
        ("channels", "channels", _obj("AlertCappedEventDataRuleChannels")),
        ("symbol", "symbol", _any),
        ("template", "template", _opt(_any)),
    )


@dataclass
class AlertCappedEventData(_Model):
    """AlertCappedEventData"""

    rule: AlertCappedEventDataRule
    capped_until: str  # Until when its messages are recorded as capped (listed in its deliveries), not sent
    note: str
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("rule", "rule", _obj("AlertCappedEventDataRule")),
        ("capped_until", "cappedUntil", _any),
        ("note", "note", _any),
    )


@dataclass
class AlertCappedEvent(_Model):
    """A rule reached its hourly message cap: one event per episode (event type alert.capped)"""

    id: str  # evt_… — also the webhook-id header
    type: Literal["alert.capped"]
    version: Literal[1]
    timestamp: str
    test: bool  # true for POST /api/alerts/:id/test
    data: AlertCappedEventData
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("id", "id", _any),
        ("type", "type", _any),
        ("version", "version", _any),
        ("timestamp", "timestamp", _any),
        ("test", "test", _any),
        ("data", "data", _obj("AlertCappedEventData")),
    )


@dataclass
class AlertChannel(_Model):
    """AlertChannel"""

    id: str  # ch_…
    type: Union[Literal["email"], Literal["telegram"], Literal["discord"], Literal["slack"]]
    name: Optional[str]
    target: str  # Where it sends (the address, the chat, the webhook without its token)
    status: Union[Literal["enabled"], Literal["disabled"], Literal["unverified"]]  # unverified: an email address that has not confirmed its code; nothing is sent to it
    disabled_reason: Optional[str]
    created_at: str
    updated_at: str
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("id", "id", _any),
        ("type", "type", _any),
        ("name", "name", _opt(_any)),
        ("target", "target", _any),
        ("status", "status", _any),
        ("disabled_reason", "disabledReason", _opt(_any)),
        ("created_at", "createdAt", _any),
        ("updated_at", "updatedAt", _any),
    )


@dataclass
class AlertRuleCondition1(_Model):
    """AlertRuleCondition1"""

    horizon: Literal["15m", "1h", "6h"]  # The forecast horizon whose datapoints are read
    level: float  # The price level (quote currency)
    kind: Literal["end_above", "touch"]  # end_above: the price ends above level at the horizon; touch: it reaches level before the horizon
    op: Literal["above", "below"]  # above: the probability is above value; below: under it
    value: float  # The probability threshold, 0–1, compared with each newly published datapoint of the symbol at the ho
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("horizon", "horizon", _any),
        ("level", "level", _num),
        ("kind", "kind", _any),
        ("op", "op", _any),
        ("value", "value", _num),
    )


@dataclass
class AlertRuleCondition2(_Model):
    """AlertRuleCondition2"""

    op: Literal["crosses_above", "crosses_below", "above", "below", "change_pct"]
    value: float  # A price in quote currency; for change_pct a percent (negative = a fall of more than it)
    window: Optional[Literal["5m", "15m", "1h", "24h"]] = None  # change_pct only: the window the change is measured over
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("op", "op", _any),
        ("value", "value", _num),
        ("window", "window", _any),
    )


@dataclass
class AlertRuleCondition3(_Model):
    """AlertRuleCondition3"""

    op: Literal["above"]
    value: float  # Quote volume (USD) over the window
    window: Literal["5m", "15m", "1h", "24h"]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("op", "op", _any),
        ("value", "value", _num),
        ("window", "window", _any),
    )


@dataclass
class AlertRuleCondition4(_Model):
    """AlertRuleCondition4"""

    direction: Literal["in", "out", "any"]  # in: into the exchange or address; out: out of it; any: either
    min_usd: float  # USD: a single transfer, or the windowed sum, of at least this
    exchange: Optional[str] = None  # binance, okx, … (aliases)
    address: Optional[str] = None  # A 0x address (either party of a flow)
    label: Optional[str] = None  # Id of one of the account's private labels (POST /api/labels): the rule watches its address
    asset: Optional[str] = None  # ETH, USDT, … (absent: any)
    window: Optional[Literal["5m", "15m", "1h", "24h"]] = None  # Absent: each single transfer; present: the sum over the window
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("direction", "direction", _any),
        ("min_usd", "minUsd", _num),
        ("exchange", "exchange", _any),
        ("address", "address", _any),
        ("label", "label", _any),
        ("asset", "asset", _any),
        ("window", "window", _any),
    )


@dataclass
class AlertRuleCondition5(_Model):
    """AlertRuleCondition5"""

    op: Literal["above", "below"]  # above: the rate is above value; below: under it
    value: float  # Annualized percent, simple: rate × (8760 / intervalHours) × 100 (10.95 = 0.01 % per 8 h); negative: 
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("op", "op", _any),
        ("value", "value", _num),
    )


@dataclass
class AlertRuleCondition6(_Model):
    """AlertRuleCondition6"""

    op: Literal["above", "below"]  # above: the change is above value; below: under it
    value: float  # Percent change of open interest (USD) over the window; negative = a fall
    window: Literal["1h", "4h", "24h"]  # The change is measured against the value this long ago
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("op", "op", _any),
        ("value", "value", _num),
        ("window", "window", _any),
    )


@dataclass
class AlertRuleCondition7(_Model):
    """AlertRuleCondition7"""

    op: Literal["above"]
    value: float  # USD liquidated over the window
    side: Literal["long", "short", "any"]  # long: longs closed (a fall); short: shorts closed (a rise); any: both
    window: Literal["1h", "4h", "24h"]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("op", "op", _any),
        ("value", "value", _num),
        ("side", "side", _any),
        ("window", "window", _any),
    )


@dataclass
class AlertRuleTrigger(_Model):
    """AlertRuleTrigger"""

    mode: Literal["once", "every"]
    cooldown_sec: int
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("mode", "mode", _any),
        ("cooldown_sec", "cooldownSec", _any),
    )


@dataclass
class AlertRuleChannels(_Model):
    """AlertRuleChannels"""

    webhook_ids: List[str]
    channel_ids: List[str]
    events: bool
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("webhook_ids", "webhookIds", _list(_any)),
        ("channel_ids", "channelIds", _list(_any)),
        ("events", "events", _any),
    )


@dataclass
class AlertRuleNormalizedItem(_Model):
    """AlertRuleNormalizedItem"""

    field: str
    requested: str
    used: str
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("field", "field", _any),
        ("requested", "requested", _any),
        ("used", "used", _any),
    )


@dataclass
class AlertRule(_Model):
    """AlertRule"""

    id: str  # alr_…
    name: str
    type: Literal["price", "volume", "address_flow", "funding", "open_interest", "liquidations", "probability"]
    condition: Union[AlertRuleCondition1, AlertRuleCondition2, AlertRuleCondition3, AlertRuleCondition4, AlertRuleCondition5, AlertRuleCondition6, AlertRuleCondition7]
    trigger: AlertRuleTrigger
    expires_at: Optional[str]
    channels: AlertRuleChannels
    template: Optional[str]  # Null: the default of its type
    state: Literal["active", "paused", "triggered", "expired", "failing", "capped"]
    capped_until: Optional[str]  # State capped: its hourly message cap holds until then (messages recorded as capped)
    normalized: List[AlertRuleNormalizedItem]  # Fields the server changed on the way in, e.g. symbol btc → BTCUSDT
    created_at: str
    updated_at: str
    last_triggered_at: Optional[str]
    trigger_count: int
    symbol: Optional[str] = None  # Every rule type but address_flow: the canonical symbol used
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("id", "id", _any),
        ("name", "name", _any),
        ("type", "type", _any),
        ("condition", "condition", _any),
        ("trigger", "trigger", _obj("AlertRuleTrigger")),
        ("expires_at", "expiresAt", _opt(_any)),
        ("channels", "channels", _obj("AlertRuleChannels")),
        ("template", "template", _opt(_any)),
        ("state", "state", _any),
        ("capped_until", "cappedUntil", _opt(_any)),
        ("normalized", "normalized", _list(_obj("AlertRuleNormalizedItem"))),
        ("created_at", "createdAt", _any),
        ("updated_at", "updatedAt", _any),
        ("last_triggered_at", "lastTriggeredAt", _opt(_any)),
        ("trigger_count", "triggerCount", _any),
        ("symbol", "symbol", _any),
    )


@dataclass
class AlertTemplatePreviewValues(_Model):
    """The values filled in: made up from the rule (it fires at its own level, now)"""

    symbol: str
    price: str
    condition: str
    value: str
    exchange: str
    asset: str
    amount_usd: str
    time: str
    rule_name: str
    console_url: str
    probability: str
    level: str
    horizon: str
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("symbol", "symbol", _any),
        ("price", "price", _any),
        ("condition", "condition", _any),
        ("value", "value", _any),
        ("exchange", "exchange", _any),
        ("asset", "asset", _any),
        ("amount_usd", "amount_usd", _any),
        ("time", "time", _any),
        ("rule_name", "rule_name", _any),
        ("console_url", "console_url", _any),
        ("probability", "probability", _any),
        ("level", "level", _any),
        ("horizon", "horizon", _any),
    )


@dataclass
class AlertTemplatePreviewEmail(_Model):
    """AlertTemplatePreviewEmail"""

    subject: str
    text: str
    html: str
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("subject", "subject", _any),
        ("text", "text", _any),
        ("html", "html", _any),
    )


@dataclass
class AlertTemplatePreview(_Model):
    """AlertTemplatePreview"""

    template: str  # The template rendered (the default when none was given)
    unknown_variables: List[str]  # Placeholders that name no variable: saving a rule with them is refused (400)
    values: AlertTemplatePreviewValues  # The values filled in: made up from the rule (it fires at its own level, now)
    text: str  # The message as plain text
    telegram: str  # The `text` of the Telegram sendMessage call (MarkdownV2, escaped)
    discord: str  # The Discord webhook `content` (markdown escaped)
    slack: str  # The Slack incoming-webhook `text` (mrkdwn escaped)
    email: AlertTemplatePreviewEmail
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("template", "template", _any),
        ("unknown_variables", "unknownVariables", _list(_any)),
        ("values", "values", _obj("AlertTemplatePreviewValues")),
        ("text", "text", _any),
        ("telegram", "telegram", _any),
        ("discord", "discord", _any),
        ("slack", "slack", _any),
        ("email", "email", _obj("AlertTemplatePreviewEmail")),
    )


@dataclass
class AlertTriggeredEventDataRuleCondition1(_Model):
    """AlertTriggeredEventDataRuleCondition1"""

    horizon: Literal["15m", "1h", "6h"]  # The forecast horizon whose datapoints are read
    level: float  # The price level (quote currency)
    kind: Literal["end_above", "touch"]  # end_above: the price ends above level at the horizon; touch: it reaches level before the horizon
    op: Literal["above", "below"]  # above: the probability is above value; below: under it
    value: float  # The probability threshold, 0–1, compared with each newly published datapoint of the symbol at the ho
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("horizon", "horizon", _any),
        ("level", "level", _num),
        ("kind", "kind", _any),
        ("op", "op", _any),
        ("value", "value", _num),
    )


@dataclass
class AlertTriggeredEventDataRuleCondition2(_Model):
    """AlertTriggeredEventDataRuleCondition2"""

    op: Literal["crosses_above", "crosses_below", "above", "below", "change_pct"]
    value: float  # A price in quote currency; for change_pct a percent (negative = a fall of more than it)
    window: Optional[Literal["5m", "15m", "1h", "24h"]] = None  # change_pct only: the window the change is measured over
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("op", "op", _any),
        ("value", "value", _num),
        ("window", "window", _any),
    )


@dataclass
class AlertTriggeredEventDataRuleCondition3(_Model):
    """AlertTriggeredEventDataRuleCondition3"""

    op: Literal["above"]
    value: float  # Quote volume (USD) over the window
    window: Literal["5m", "15m", "1h", "24h"]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("op", "op", _any),
        ("value", "value", _num),
        ("window", "window", _any),
    )


@dataclass
class AlertTriggeredEventDataRuleCondition4(_Model):
    """AlertTriggeredEventDataRuleCondition4"""

    direction: Literal["in", "out", "any"]  # in: into the exchange or address; out: out of it; any: either
    min_usd: float  # USD: a single transfer, or the windowed sum, of at least this
    exchange: Optional[str] = None  # binance, okx, … (aliases)
    address: Optional[str] = None  # A 0x address (either party of a flow)
    label: Optional[str] = None  # Id of one of the account's private labels (POST /api/labels): the rule watches its address
    asset: Optional[str] = None  # ETH, USDT, … (absent: any)
    window: Optional[Literal["5m", "15m", "1h", "24h"]] = None  # Absent: each single transfer; present: the sum over the window
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("direction", "direction", _any),
        ("min_usd", "minUsd", _num),
        ("exchange", "exchange", _any),
        ("address", "address", _any),
        ("label", "label", _any),
        ("asset", "asset", _any),
        ("window", "window", _any),
    )


@dataclass
class AlertTriggeredEventDataRuleCondition5(_Model):
    """AlertTriggeredEventDataRuleCondition5"""

    op: Literal["above", "below"]  # above: the rate is above value; below: under it
    value: float  # Annualized percent, simple: rate × (8760 / intervalHours) × 100 (10.95 = 0.01 % per 8 h); negative: 
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("op", "op", _any),
        ("value", "value", _num),
    )


@dataclass
class AlertTriggeredEventDataRuleCondition6(_Model):
    """AlertTriggeredEventDataRuleCondition6"""

    op: Literal["above", "below"]  # above: the change is above value; below: under it
    value: float  # Percent change of open interest (USD) over the window; negative = a fall
    window: Literal["1h", "4h", "24h"]  # The change is measured against the value this long ago
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("op", "op", _any),
        ("value", "value", _num),
        ("window", "window", _any),
    )


@dataclass
class AlertTriggeredEventDataRuleCondition7(_Model):
    """AlertTriggeredEventDataRuleCondition7"""

    op: Literal["above"]
    value: float  # USD liquidated over the window
    side: Literal["long", "short", "any"]  # long: longs closed (a fall); short: shorts closed (a rise); any: both
    window: Literal["1h", "4h", "24h"]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("op", "op", _any),
        ("value", "value", _num),
        ("side", "side", _any),
        ("window", "window", _any),
    )


@dataclass
class AlertTriggeredEventDataRuleTrigger(_Model):
    """AlertTriggeredEventDataRuleTrigger"""

    mode: Literal["once", "every"]
    cooldown_sec: int
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("mode", "mode", _any),
        ("cooldown_sec", "cooldownSec", _any),
    )


@dataclass
class AlertTriggeredEventDataRuleChannels(_Model):
    """AlertTriggeredEventDataRuleChannels"""

    webhook_ids: List[str]
    events: bool
    channel_ids: Optional[List[str]] = None
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("webhook_ids", "webhookIds", _list(_any)),
        ("events", "events", _any),
        ("channel_ids", "channelIds", _list(_any)),
    )


@dataclass
class AlertTriggeredEventDataRule(_Model):
    """AlertTriggeredEventDataRule"""

    id: str
    name: str
    type: Literal["price", "volume", "address_flow", "funding", "open_interest", "liquidations", "probability"]
    condition: Union[AlertTriggeredEventDataRuleCondition1, AlertTriggeredEventDataRuleCondition2, AlertTriggeredEventDataRuleCondition3, AlertTriggeredEventDataRuleCondition4, AlertTriggeredEventDataRuleCondition5, AlertTriggeredEventDataRuleCondition6, AlertTriggeredEventDataRuleCondition7]
    trigger: AlertTriggeredEventDataRuleTrigger
    channels: AlertTriggeredEventDataRuleChannels
    symbol: Optional[str] = None
    template: Optional[Optional[str]] = None
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("id", "id", _any),
        ("name", "name", _any),
        ("type", "type", _any),
        ("condition", "condition", _any),
        ("trigger", "trigger", _obj("AlertTriggeredEventDataRuleTrigger")),
        ("channels", "channels", _obj("AlertTriggeredEventDataRuleChannels")),
        ("symbol", "symbol", _any),
        ("template", "template", _opt(_any)),
    )


@dataclass
class AlertTriggeredEventDataTrigger(_Model):
    """AlertTriggeredEventDataTrigger"""

    id: str  # trg_…
    fired_at: str  # When the evaluator fired
    event_at: Optional[str] = None  # Time of the market or chain event
    key: Optional[str] = None  # The event key: unique per rule (exactly once)
    value: Optional[float] = None  # The observed value: price, change %, quote volume, USD, probability
    test: Optional[bool] = None
    replaces_trigger: Optional[str] = None
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("id", "id", _any),
        ("fired_at", "firedAt", _any),
        ("event_at", "eventAt", _any),
        ("key", "key", _any),
        ("value", "value", _num),
        ("test", "test", _any),
        ("replaces_trigger", "replacesTrigger", _any),
    )


@dataclass
class AlertTriggeredEventDataMarket(_Model):
    """AlertTriggeredEventDataMarket"""

    symbol: str
    price: float  # Merged mid
    at: str
    window: Optional[Literal["5m", "15m", "1h", "24h"]] = None
    change_pct: Optional[float] = None
    quote_volume: Optional[float] = None
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("symbol", "symbol", _any),
        ("price", "price", _num),
        ("at", "at", _any),
        ("window", "window", _any),
        ("change_pct", "changePct", _num),
        ("quote_volume", "quoteVolume", _num),
    )


@dataclass
class AlertTriggeredEventDataDerivatives(_Model):
    """AlertTriggeredEventDataDerivatives"""

    symbol: str
    metric: Literal["funding", "open_interest", "liquidations"]
    source: str  # The derivatives source (simulated, replay:…, ccxt:…)
    simulated: bool  # true: made-up data (the simulated market)
    at: str  # The derivatives refresh that fired it
    funding_annualized_pct: Optional[float] = None  # funding: percent a year
    funding_rate: Optional[float] = None  # funding: the rate per funding period
    window: Optional[Literal["1h", "4h", "24h"]] = None
    open_interest_usd: Optional[float] = None
    change_pct: Optional[float] = None  # open_interest: change over the window
    side: Optional[Literal["long", "short", "any"]] = None
    liquidated_usd: Optional[float] = None  # liquidations: USD over the window
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("symbol", "symbol", _any),
        ("metric", "metric", _any),
        ("source", "source", _any),
        ("simulated", "simulated", _any),
        ("at", "at", _any),
        ("funding_annualized_pct", "fundingAnnualizedPct", _num),
        ("funding_rate", "fundingRate", _num),
        ("window", "window", _any),
        ("open_interest_usd", "openInterestUsd", _num),
        ("change_pct", "changePct", _num),
        ("side", "side", _any),
        ("liquidated_usd", "liquidatedUsd", _num),
    )


@dataclass
class AlertTriggeredEventDataPrediction(_Model):
    """AlertTriggeredEventDataPrediction"""

    symbol: str
    horizon: Literal["15m", "1h", "6h"]
    level: float  # The price level
    kind: Literal["end_above", "touch"]
    probability: float  # The probability the rule compared (0–1)
    generated_at: str  # The published forecast datapoint that fired it
    baseline: float  # The datapoint's baseline price
    prediction: float  # The datapoint's predicted price
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("symbol", "symbol", _any),
        ("horizon", "horizon", _any),
        ("level", "level", _num),
        ("kind", "kind", _any),
        ("probability", "probability", _num),
        ("generated_at", "generatedAt", _any),
        ("baseline", "baseline", _num),
        ("prediction", "prediction", _num),
    )


@dataclass
class AlertTriggeredEventData(_Model):
    """AlertTriggeredEventData"""

    rule: AlertTriggeredEventDataRule
    trigger: AlertTriggeredEventDataTrigger
    market: Optional[AlertTriggeredEventDataMarket] = None
    derivatives: Optional[AlertTriggeredEventDataDerivatives] = None
    prediction: Optional[AlertTriggeredEventDataPrediction] = None
    note: Optional[str] = None
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("rule", "rule", _obj("AlertTriggeredEventDataRule")),
        ("trigger", "trigger", _obj("AlertTriggeredEventDataTrigger")),
        ("market", "market", _obj("AlertTriggeredEventDataMarket")),
        ("derivatives", "derivatives", _obj("AlertTriggeredEventDataDerivatives")),
        ("prediction", "prediction", _obj("AlertTriggeredEventDataPrediction")),
        ("note", "note", _any),
    )


@dataclass
class AlertTriggeredEvent(_Model):
    """A price, volume, funding, open_interest, liquidations or probability rule fired (event type alert.triggered)"""

    id: str  # evt_… — also the webhook-id header
    type: Literal["alert.triggered"]
    version: Literal[1]
    timestamp: str
    test: bool  # true for POST /api/alerts/:id/test
    data: AlertTriggeredEventData
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("id", "id", _any),
        ("type", "type", _any),
        ("version", "version", _any),
        ("timestamp", "timestamp", _any),
        ("test", "test", _any),
        ("data", "data", _obj("AlertTriggeredEventData")),
    )


@dataclass
class Candle(_Model):
    """Candle"""

    timestamp: str  # Interval open time (UTC)
    open_time: int  # Interval open time, ms since the epoch
    open: float
    high: float
    low: float
    close: float
    volume: float  # Base volume
    quote_volume: float  # Quote (USD) volume
    closed: bool  # false only for the bar still in progress
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("timestamp", "timestamp", _any),
        ("open_time", "openTime", _any),
        ("open", "open", _num),
        ("high", "high", _num),
        ("low", "low", _num),
        ("close", "close", _num),
        ("volume", "volume", _num),
        ("quote_volume", "quoteVolume", _num),
        ("closed", "closed", _any),
    )


@dataclass
class ChangeOrganizationMemberRoleRequest(_Model):
    """ChangeOrganizationMemberRoleRequest"""

    role: Union[Literal["owner"], Literal["admin"], Literal["member"], Literal["viewer"]]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("role", "role", _any),
    )


@dataclass
class ChangeOrganizationMemberRoleResponse(_Model):
    """ChangeOrganizationMemberRoleResponse"""

    user_id: str
    role: Union[Literal["owner"], Literal["admin"], Literal["member"], Literal["viewer"]]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("user_id", "userId", _any),
        ("role", "role", _any),
    )


@dataclass
class ConfirmTwoFactorRequest(_Model):
    """ConfirmTwoFactorRequest"""

    code: str  # A TOTP code (or, to turn off, a recovery code)
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("code", "code", _any),
    )


@dataclass
class ConfirmTwoFactorResponse(_Model):
    """ConfirmTwoFactorResponse"""

    recovery_codes: List[str]  # Ten recovery codes, each usable once instead of a TOTP code. Shown once, never again.
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("recovery_codes", "recoveryCodes", _list(_any)),
    )


@dataclass
class CreateInvitationRequest(_Model):
    """CreateInvitationRequest"""

    role: Union[Literal["admin"], Literal["member"], Literal["viewer"]]
    email: Optional[str] = None  # Only this address may accept; the link is emailed to it
    expires_in: Optional[str] = None  # Lifetime such as 7d (default) or 48h; at most 30d
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("role", "role", _any),
        ("email", "email", _any),
        ("expires_in", "expiresIn", _any),
    )


@dataclass
class CreateInvitationResponse201(_Model):
    """CreateInvitationResponse201"""

    token: str  # The invitation secret. Shown once, never again.
    link: Optional[str]  # The console link carrying the secret (null: MERIDIAN_CONSOLE_URL is not set)
    emailed: bool  # The link was handed to the SMTP server (MERIDIAN_SMTP_URL)
    details: Invitation
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("token", "token", _any),
        ("link", "link", _opt(_any)),
        ("emailed", "emailed", _any),
        ("details", "details", _obj("Invitation")),
    )


@dataclass
class CreateOAuthClientRequest(_Model):
    """CreateOAuthClientRequest"""

    name: str
    redirect_uris: List[str]
    confidential: Optional[bool] = None  # true: the client gets a secret (a server-side app); default false (public)
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("name", "name", _any),
        ("redirect_uris", "redirectUris", _list(_any)),
        ("confidential", "confidential", _any),
    )


@dataclass
class CreateOAuthClientResponse201(_Model):
    """CreateOAuthClientResponse201"""

    client: OAuthClient
    secret: Optional[str]  # The client secret of a confidential client. Shown once, never again: store it now.
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("client", "client", _obj("OAuthClient")),
        ("secret", "secret", _opt(_any)),
    )


@dataclass
class CreateOrganizationRequest(_Model):
    """CreateOrganizationRequest"""

    name: str
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("name", "name", _any),
    )


@dataclass
class CreateTokenRequest(_Model):
    """CreateTokenRequest"""

    name: str
    expires_in: Optional[str] = None  # Lifetime such as 30d, 12h, 2w
    expires_at: Optional[str] = None
    permissions: Optional[List[Literal["market:read", "onchain:read", "onchain:write", "predictions:read", "alerts:read", "alerts:write", "portfolio:read", "portfolio:write", "account:read", "users:manage"]]] = None
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("name", "name", _any),
        ("expires_in", "expiresIn", _any),
        ("expires_at", "expiresAt", _any),
        ("permissions", "permissions", _list(_any)),
    )


@dataclass
class CreateTokenResponse201(_Model):
    """CreateTokenResponse201"""

    token: str  # The secret. Shown once, never again: store it now.
    details: Token
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("token", "token", _any),
        ("details", "details", _obj("Token")),
    )


@dataclass
class CreateWebhookRequest(_Model):
    """CreateWebhookRequest"""

    url: str  # https:// URL of the receiver; it must resolve to public addresses (see docs/webhooks.md)
    events: List[Literal["alert.triggered", "onchain.flow", "alert.capped"]]
    description: Optional[str] = None
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("url", "url", _any),
        ("events", "events", _list(_any)),
        ("description", "description", _any),
    )


@dataclass
class CreateWebhookResponse201(_Model):
    """CreateWebhookResponse201"""

    id: str  # wh_…
    url: str
    events: List[Literal["alert.triggered", "onchain.flow", "alert.capped"]]
    description: Optional[str]
    status: Union[Literal["enabled"], Literal["disabled"]]  # disabled: the receiver answered 410 Gone; nothing more is sent to it
    disabled_reason: Optional[str]
    previous_secret_expires_at: Optional[str]  # After a rotation: until when the previous secret still signs (a second signature)
    created_at: str
    updated_at: str
    secret: str  # The signing secret (whsec_…). Shown in this answer only, never again: store it now.
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("id", "id", _any),
        ("url", "url", _any),
        ("events", "events", _list(_any)),
        ("description", "description", _opt(_any)),
        ("status", "status", _any),
        ("disabled_reason", "disabledReason", _opt(_any)),
        ("previous_secret_expires_at", "previousSecretExpiresAt", _opt(_any)),
        ("created_at", "createdAt", _any),
        ("updated_at", "updatedAt", _any),
        ("secret", "secret", _any),
    )


@dataclass
class DashboardAnalyticsPortfolioAllocationItem(_Model):
    """DashboardAnalyticsPortfolioAllocationItem"""

    asset: str
    value_usd: Optional[str]
    allocation_pct: Optional[float]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("asset", "asset", _any),
        ("value_usd", "valueUsd", _opt(_any)),
        ("allocation_pct", "allocationPct", _opt(_num)),
    )


@dataclass
class DashboardAnalyticsPortfolio(_Model):
    """DashboardAnalyticsPortfolio"""

    value_usd: str  # Sum over priced holdings
    cost_basis_usd: str  # Over holdings with a price and a full cost basis
    unrealized_pnl_usd: str
    unrealized_pnl_pct: Optional[float]
    change24h_usd: str
    change24h_pct: Optional[float]
    unpriced_assets: List[str]  # Held but not valued (never counted as 0)
    assets_without_cost: List[str]
    allocation: List[DashboardAnalyticsPortfolioAllocationItem]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("value_usd", "valueUsd", _any),
        ("cost_basis_usd", "costBasisUsd", _any),
        ("unrealized_pnl_usd", "unrealizedPnlUsd", _any),
        ("unrealized_pnl_pct", "unrealizedPnlPct", _opt(_num)),
        ("change24h_usd", "change24hUsd", _any),
        ("change24h_pct", "change24hPct", _opt(_num)),
        ("unpriced_assets", "unpricedAssets", _list(_any)),
        ("assets_without_cost", "assetsWithoutCost", _list(_any)),
        ("allocation", "allocation", _list(_obj("DashboardAnalyticsPortfolioAllocationItem"))),
    )


@dataclass
class DashboardAnalyticsAlertsByState(_Model):
    """DashboardAnalyticsAlertsByState"""

    active: int
    paused: int
    triggered: int
    expired: int
    failing: int
    capped: int  # Active rules whose hourly message cap holds now
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("active", "active", _any),
        ("paused", "paused", _any),
        ("triggered", "triggered", _any),
        ("expired", "expired", _any),
        ("failing", "failing", _any),
        ("capped", "capped", _any),
    )


@dataclass
class DashboardAnalyticsAlertsRecentTriggersItem(_Model):
    """DashboardAnalyticsAlertsRecentTriggersItem"""

    trigger_id: str
    rule_id: str
    rule_name: Optional[str]
    type: Union[Literal["price"], Literal["volume"], Literal["address_flow"], Literal["funding"], Literal["open_interest"], Literal["liquidations"], Literal["probability"]]
    fired_at: str
    event_id: str
    test: bool
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("trigger_id", "triggerId", _any),
        ("rule_id", "ruleId", _any),
        ("rule_name", "ruleName", _opt(_any)),
        ("type", "type", _any),
        ("fired_at", "firedAt", _any),
        ("event_id", "eventId", _any),
        ("test", "test", _any),
    )


@dataclass
class DashboardAnalyticsAlerts(_Model):
    """DashboardAnalyticsAlerts"""

    by_state: DashboardAnalyticsAlertsByState
    recent_triggers: List[DashboardAnalyticsAlertsRecentTriggersItem]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("by_state", "byState", _obj("DashboardAnalyticsAlertsByState")),
        ("recent_triggers", "recentTriggers", _list(_obj("DashboardAnalyticsAlertsRecentTriggersItem"))),
    )


@dataclass
class DashboardAnalyticsUsageWindow(_Model):
    """DashboardAnalyticsUsageWindow"""

    from_: str
    to: str
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("from_", "from", _any),
        ("to", "to", _any),
    )


@dataclass
class DashboardAnalyticsUsageByEndpointItem(_Model):
    """DashboardAnalyticsUsageByEndpointItem"""

    endpoint: str
    requests: int
    rate_limited: int
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("endpoint", "endpoint", _any),
        ("requests", "requests", _any),
        ("rate_limited", "rateLimited", _any),
    )


@dataclass
class DashboardAnalyticsUsageLimit(_Model):
    """DashboardAnalyticsUsageLimit"""

    requests: int
    window_seconds: int
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("requests", "requests", _any),
        ("window_seconds", "windowSeconds", _any),
    )


@dataclass
class DashboardAnalyticsUsageTokensItemsItem(_Model):
    """DashboardAnalyticsUsageTokensItemsItem"""

    id: str
    name: str
    start: str
    last_used_at: Optional[str]
    expires_at: Optional[str]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("id", "id", _any),
        ("name", "name", _any),
        ("start", "start", _any),
        ("last_used_at", "lastUsedAt", _opt(_any)),
        ("expires_at", "expiresAt", _opt(_any)),
    )


@dataclass
class DashboardAnalyticsUsageTokens(_Model):
    """DashboardAnalyticsUsageTokens"""

    active: int
    items: List[DashboardAnalyticsUsageTokensItemsItem]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("active", "active", _any),
        ("items", "items", _list(_obj("DashboardAnalyticsUsageTokensItemsItem"))),
    )


@dataclass
class DashboardAnalyticsUsage(_Model):
    """DashboardAnalyticsUsage"""

    window: DashboardAnalyticsUsageWindow
    requests: int
    rate_limited: int  # Requests answered 429
    by_endpoint: List[DashboardAnalyticsUsageByEndpointItem]
    flush_interval_ms: int  # Other replicas' requests appear within this long
    plan: str
    limit: DashboardAnalyticsUsageLimit
    remaining: int  # Requests left in the current rate-limit window
    tokens: DashboardAnalyticsUsageTokens
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("window", "window", _obj("DashboardAnalyticsUsageWindow")),
        ("requests", "requests", _any),
        ("rate_limited", "rateLimited", _any),
        ("by_endpoint", "byEndpoint", _list(_obj("DashboardAnalyticsUsageByEndpointItem"))),
        ("flush_interval_ms", "flushIntervalMs", _any),
        ("plan", "plan", _any),
        ("limit", "limit", _obj("DashboardAnalyticsUsageLimit")),
        ("remaining", "remaining", _any),
        ("tokens", "tokens", _obj("DashboardAnalyticsUsageTokens")),
    )


@dataclass
class DashboardAnalyticsForecastsHorizonsItem(_Model):
    """DashboardAnalyticsForecastsHorizonsItem"""

    horizon: str
    scored: int
    symbols: int
    hit_rate: float
    calibration_error: float  # Expected calibration error of the confidence
    crps_skill: float  # CRPS skill versus a random walk (> 0 is better)
    brier: float
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("horizon", "horizon", _any),
        ("scored", "scored", _any),
        ("symbols", "symbols", _any),
        ("hit_rate", "hitRate", _num),
        ("calibration_error", "calibrationError", _num),
        ("crps_skill", "crpsSkill", _num),
        ("brier", "brier", _num),
    )


@dataclass
class DashboardAnalyticsForecasts(_Model):
    """DashboardAnalyticsForecasts"""

    horizons: List[DashboardAnalyticsForecastsHorizonsItem]
    model_version: str
    as_of: str
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("horizons", "horizons", _list(_obj("DashboardAnalyticsForecastsHorizonsItem"))),
        ("model_version", "modelVersion", _any),
        ("as_of", "asOf", _any),
    )


@dataclass
class DashboardAnalytics(_Model):
    """DashboardAnalytics"""

    generated_at: str  # ISO 8601 UTC with milliseconds: when this answer was computed
    portfolio: DashboardAnalyticsPortfolio
    alerts: DashboardAnalyticsAlerts
    usage: DashboardAnalyticsUsage
    forecasts: DashboardAnalyticsForecasts
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("generated_at", "generatedAt", _any),
        ("portfolio", "portfolio", _obj("DashboardAnalyticsPortfolio")),
        ("alerts", "alerts", _obj("DashboardAnalyticsAlerts")),
        ("usage", "usage", _obj("DashboardAnalyticsUsage")),
        ("forecasts", "forecasts", _obj("DashboardAnalyticsForecasts")),
    )


@dataclass
class DecideOAuthAuthorizationRequest(_Model):
    """DecideOAuthAuthorizationRequest"""

    decision: Union[Literal["allow"], Literal["deny"]]
    response_type: Optional[str] = None  # Must be `code`
    client_id: Optional[str] = None  # The registered client id (`oac_…`)
    redirect_uri: Optional[str] = None  # One of the client’s registered redirect URIs, exactly
    scope: Optional[str] = None  # Permissions, space-separated, e.g. `market:read predictions:read`
    state: Optional[str] = None  # Opaque value passed back on the redirect
    code_challenge: Optional[str] = None  # PKCE: BASE64URL(SHA-256(code_verifier))
    code_challenge_method: Optional[str] = None  # Must be `S256` (`plain` is refused)
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("decision", "decision", _any),
        ("response_type", "response_type", _any),
        ("client_id", "client_id", _any),
        ("redirect_uri", "redirect_uri", _any),
        ("scope", "scope", _any),
        ("state", "state", _any),
        ("code_challenge", "code_challenge", _any),
        ("code_challenge_method", "code_challenge_method", _any),
    )


@dataclass
class DecideOAuthAuthorizationResponse(_Model):
    """DecideOAuthAuthorizationResponse"""

    redirect_to: str  # Where the browser goes next
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("redirect_to", "redirectTo", _any),
    )


@dataclass
class DeletePortfolioResponse(_Model):
    """DeletePortfolioResponse"""

    deleted: int
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("deleted", "deleted", _any),
    )


@dataclass
class DerivativesFunding(_Model):
    """DerivativesFunding"""

    rate: float  # Funding rate accruing now, settled at nextFundingTime: a fraction per funding period (0.0001 = 0.01 
    annualized_pct: float  # rate × periods per year × 100 (simple, not compounded)
    predicted_rate: Optional[float]  # The venues’ predicted rate for the period after next (weighted over the venues that publish one); nu
    next_funding_time: Optional[str]  # The next settlement (earliest over included venues)
    interval_hours: float  # Hours between settlements
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("rate", "rate", _num),
        ("annualized_pct", "annualizedPct", _num),
        ("predicted_rate", "predictedRate", _opt(_num)),
        ("next_funding_time", "nextFundingTime", _opt(_any)),
        ("interval_hours", "intervalHours", _num),
    )


@dataclass
class DerivativesOpenInterest(_Model):
    """DerivativesOpenInterest"""

    contracts: Optional[float]  # Open contracts summed over included venues; null when no venue reports them
    usd: Optional[float]  # Open interest in USD summed over included venues; null when no venue reports it
    change24h_pct: Optional[float]  # Percent change of the USD figure against 24 h ago; null without that history
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("contracts", "contracts", _opt(_num)),
        ("usd", "usd", _opt(_num)),
        ("change24h_pct", "change24hPct", _opt(_num)),
    )


@dataclass
class DerivativesBasis(_Model):
    """DerivativesBasis"""

    bps: float  # Perpetual mark over index price, bps (positive: perp above spot)
    annualized_pct: float  # The premium as if paid every funding period for a year: bps / 10000 × periods per year × 100
    mark_price: float  # Weighted mark price of the venues reporting mark and index
    index_price: float  # Weighted index (spot) price of the same venues
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("bps", "bps", _num),
        ("annualized_pct", "annualizedPct", _num),
        ("mark_price", "markPrice", _num),
        ("index_price", "indexPrice", _num),
    )


@dataclass
class DerivativesLiquidationsH1(_Model):
    """Liquidations over the last hour, from the venues that stream them"""

    long_usd: float  # USD of long positions liquidated in the last hour
    short_usd: float  # USD of short positions liquidated in the last hour
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("long_usd", "longUsd", _num),
        ("short_usd", "shortUsd", _num),
    )


@dataclass
class DerivativesLiquidationsH24(_Model):
    """Liquidations over the last 24 hours, from the venues that stream them"""

    long_usd: float  # USD of long positions liquidated in the last 24 hours
    short_usd: float  # USD of short positions liquidated in the last 24 hours
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("long_usd", "longUsd", _num),
        ("short_usd", "shortUsd", _num),
    )


@dataclass
class DerivativesLiquidations(_Model):
    """DerivativesLiquidations"""

    h1: DerivativesLiquidationsH1  # Liquidations over the last hour, from the venues that stream them
    h24: DerivativesLiquidationsH24  # Liquidations over the last 24 hours, from the venues that stream them
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("h1", "h1", _obj("DerivativesLiquidationsH1")),
        ("h24", "h24", _obj("DerivativesLiquidationsH24")),
    )


@dataclass
class DerivativesVenuesItem(_Model):
    """DerivativesVenuesItem"""

    venue: str  # ccxt id of the venue
    weight: float  # Share in the merged figures (by open interest in USD, else equal); 0 when excluded
    stale: bool  # No reading for MERIDIAN_DERIVATIVES_STALE_MS: excluded
    outlier: bool  # Mark price further than MERIDIAN_MARKET_OUTLIER_BPS from the median of 3+ fresh venues: excluded
    funding_rate: Optional[float]  # This venue’s current funding rate; null when it publishes none
    predicted_funding_rate: Optional[float]  # This venue’s predicted next rate; null when it publishes none
    next_funding_time: Optional[str]  # This venue’s next settlement
    open_interest_contracts: Optional[float]  # This venue’s open contracts
    open_interest_usd: Optional[float]  # This venue’s open interest, USD
    mark_price: Optional[float]  # This venue’s mark price
    index_price: Optional[float]  # This venue’s index price
    basis_bps: Optional[float]  # This venue’s mark over index, bps; null without both
    liquidations: bool  # Whether this venue’s liquidations are counted
    updated_at: str  # Time of this venue’s reading (venue time)
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("venue", "venue", _any),
        ("weight", "weight", _num),
        ("stale", "stale", _any),
        ("outlier", "outlier", _any),
        ("funding_rate", "fundingRate", _opt(_num)),
        ("predicted_funding_rate", "predictedFundingRate", _opt(_num)),
        ("next_funding_time", "nextFundingTime", _opt(_any)),
        ("open_interest_contracts", "openInterestContracts", _opt(_num)),
        ("open_interest_usd", "openInterestUsd", _opt(_num)),
        ("mark_price", "markPrice", _opt(_num)),
        ("index_price", "indexPrice", _opt(_num)),
        ("basis_bps", "basisBps", _opt(_num)),
        ("liquidations", "liquidations", _any),
        ("updated_at", "updatedAt", _any),
    )


@dataclass
class Derivatives(_Model):
    """Derivatives"""

    symbol: str  # Canonical symbol (BASEQUOTE)
    funding: Optional[DerivativesFunding]  # null when no included venue publishes funding for the symbol
    open_interest: Optional[DerivativesOpenInterest]  # null when no included venue publishes open interest
    basis: Optional[DerivativesBasis]  # null when no included venue publishes both mark and index prices
    liquidations: Optional[DerivativesLiquidations]  # null when no venue of the source streams liquidations
    venues: List[DerivativesVenuesItem]  # Per-venue breakdown, in configured order
    stale: bool  # true when no venue is fresh: the figures are the last known
    updated_at: Optional[str]  # Newest reading merged (venue time)
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("symbol", "symbol", _any),
        ("funding", "funding", _opt(_obj("DerivativesFunding"))),
        ("open_interest", "openInterest", _opt(_obj("DerivativesOpenInterest"))),
        ("basis", "basis", _opt(_obj("DerivativesBasis"))),
        ("liquidations", "liquidations", _opt(_obj("DerivativesLiquidations"))),
        ("venues", "venues", _list(_obj("DerivativesVenuesItem"))),
        ("stale", "stale", _any),
        ("updated_at", "updatedAt", _opt(_any)),
    )


@dataclass
class DisableTwoFactorRequest(_Model):
    """DisableTwoFactorRequest"""

    code: str  # A TOTP code (or, to turn off, a recovery code)
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("code", "code", _any),
    )


@dataclass
class FundingAlertRuleInputCondition(_Model):
    """FundingAlertRuleInputCondition"""

    op: Literal["above", "below"]  # above: the rate is above value; below: under it
    value: float  # Annualized percent, simple: rate × (8760 / intervalHours) × 100 (10.95 = 0.01 % per 8 h); negative: 
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("op", "op", _any),
        ("value", "value", _num),
    )


@dataclass
class FundingAlertRuleInputTrigger(_Model):
    """FundingAlertRuleInputTrigger"""

    mode: Optional[Literal["once", "every"]] = None  # once (default): fire once, then triggered; every: each time
    cooldown_sec: Optional[int] = None  # every: quiet time after a firing (default 300)
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("mode", "mode", _any),
        ("cooldown_sec", "cooldownSec", _any),
    )


@dataclass
class FundingAlertRuleInputChannels(_Model):
    """FundingAlertRuleInputChannels"""

    webhook_ids: Optional[List[str]] = None  # Endpoints to deliver to; empty: every endpoint of the account subscribed to the event type
    channel_ids: Optional[List[str]] = None  # Alert channels (email, Telegram, Discord, Slack) that receive its messages
    events: Optional[bool] = None  # Carry the events on the /events stream (default true)
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("webhook_ids", "webhookIds", _list(_any)),
        ("channel_ids", "channelIds", _list(_any)),
        ("events", "events", _any),
    )


@dataclass
class FundingAlertRuleInput(_Model):
    """FundingAlertRuleInput"""

    type: Literal["funding"]
    symbol: str  # Any accepted spelling: btc, BTC/USDT, …
    condition: FundingAlertRuleInputCondition
    name: Optional[str] = None
    trigger: Optional[FundingAlertRuleInputTrigger] = None
    expires_at: Optional[Optional[str]] = None
    channels: Optional[FundingAlertRuleInputChannels] = None
    template: Optional[Optional[str]] = None
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("type", "type", _any),
        ("symbol", "symbol", _any),
        ("condition", "condition", _obj("FundingAlertRuleInputCondition")),
        ("name", "name", _any),
        ("trigger", "trigger", _obj("FundingAlertRuleInputTrigger")),
        ("expires_at", "expiresAt", _opt(_any)),
        ("channels", "channels", _obj("FundingAlertRuleInputChannels")),
        ("template", "template", _opt(_any)),
    )


@dataclass
class GetDerivativesHistoryResponseDataItem(_Model):
    """GetDerivativesHistoryResponseDataItem"""

    timestamp: str  # Start of the interval (UTC)
    time: int  # Start of the interval, ms since the epoch
    at: int  # Time of the point shown (the newest in the interval), ms since the epoch; for funding the settlement
    rate: Optional[float] = None  # funding: the settled rate, fraction per period
    annualized_pct: Optional[float] = None  # funding: the settled rate × 3 periods a day × 365 × 100
    open_interest_usd: Optional[float] = None  # open_interest: USD, summed over venues (absent when unknown)
    open_interest_contracts: Optional[float] = None  # open_interest: contracts (absent when unknown)
    bps: Optional[float] = None  # basis: mark over index, bps
    long_usd: Optional[float] = None  # liquidations: USD of long positions liquidated in the interval
    short_usd: Optional[float] = None  # liquidations: USD of short positions liquidated in the interval
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("timestamp", "timestamp", _any),
        ("time", "time", _any),
        ("at", "at", _any),
        ("rate", "rate", _num),
        ("annualized_pct", "annualizedPct", _num),
        ("open_interest_usd", "openInterestUsd", _num),
        ("open_interest_contracts", "openInterestContracts", _num),
        ("bps", "bps", _num),
        ("long_usd", "longUsd", _num),
        ("short_usd", "shortUsd", _num),
    )


@dataclass
class GetDerivativesHistoryResponseHistory(_Model):
    """How complete the history behind this page is"""

    backfilling: bool  # true while history is still being backfilled after a start (also `Meridian-Backfilling: true`)
    available_from: str  # Where backfilled history starts (MERIDIAN_DERIVATIVES_HISTORY_DAYS back, 00:00 UTC)
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("backfilling", "backfilling", _any),
        ("available_from", "availableFrom", _any),
    )


@dataclass
class GetDerivativesHistoryResponse(_Model):
    """GetDerivativesHistoryResponse"""

    symbol: str
    metric: str
    interval: str
    data: List[GetDerivativesHistoryResponseDataItem]  # Intervals holding data, oldest first; an interval without data is left out
    next_cursor: Optional[str]  # Pass as `cursor` for the next page; null at the end
    history: GetDerivativesHistoryResponseHistory  # How complete the history behind this page is
    source: str  # What the data comes from: simulated, replay or ccxt:<venues> (also Meridian-Source)
    simulated: bool  # true when the figures are made up by the simulated market, not read from a venue
    as_of: Optional[str]  # Newest reading of any symbol (also Meridian-As-Of)
    stale: bool  # true when that is older than MERIDIAN_DERIVATIVES_STALE_MS (also Meridian-Stale)
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("symbol", "symbol", _any),
        ("metric", "metric", _any),
        ("interval", "interval", _any),
        ("data", "data", _list(_obj("GetDerivativesHistoryResponseDataItem"))),
        ("next_cursor", "nextCursor", _opt(_any)),
        ("history", "history", _obj("GetDerivativesHistoryResponseHistory")),
        ("source", "source", _any),
        ("simulated", "simulated", _any),
        ("as_of", "asOf", _opt(_any)),
        ("stale", "stale", _any),
    )

    def to_records(self) -> List[Dict[str, Any]]:
        """The `data` rows as plain dicts with the JSON field names (`pandas.DataFrame.from_records`)."""
        return [_plain(row) for row in self.data]


@dataclass
class GetDerivativesResponse(_Model):
    """GetDerivativesResponse"""

    data: List[Derivatives]  # One item per selected symbol that has perpetual data yet (others are left out)
    source: str  # What the data comes from: simulated, replay or ccxt:<venues> (also Meridian-Source)
    simulated: bool  # true when the figures are made up by the simulated market, not read from a venue
    as_of: Optional[str]  # Newest reading of any symbol (also Meridian-As-Of)
    stale: bool  # true when that is older than MERIDIAN_DERIVATIVES_STALE_MS (also Meridian-Stale)
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("data", "data", _list(_obj("Derivatives"))),
        ("source", "source", _any),
        ("simulated", "simulated", _any),
        ("as_of", "asOf", _opt(_any)),
        ("stale", "stale", _any),
    )

    def to_records(self) -> List[Dict[str, Any]]:
        """The `data` rows as plain dicts with the JSON field names (`pandas.DataFrame.from_records`)."""
        return [_plain(row) for row in self.data]


@dataclass
class GetMarketDataResponse(_Model):
    """GetMarketDataResponse"""

    data: List[MarketData]
    next_cursor: Optional[str]  # Pass as `cursor` (with the same symbols, quote and notional) for the next page; null on the last
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("data", "data", _list(_obj("MarketData"))),
        ("next_cursor", "nextCursor", _opt(_any)),
    )

    def to_records(self) -> List[Dict[str, Any]]:
        """The `data` rows as plain dicts with the JSON field names (`pandas.DataFrame.from_records`)."""
        return [_plain(row) for row in self.data]


@dataclass
class GetMarketHistoryResponseHistory(_Model):
    """How complete the history behind this page is"""

    backfilling: bool  # true while this symbol's history is still being filled after a start: bars may be missing from the p
    available_from: str  # Where offered history starts (MERIDIAN_MARKET_HISTORY_DAYS back, at 00:00 UTC)
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("backfilling", "backfilling", _any),
        ("available_from", "availableFrom", _any),
    )


@dataclass
class GetMarketHistoryResponse(_Model):
    """GetMarketHistoryResponse"""

    symbol: str
    interval: str
    data: List[Candle]
    next_cursor: Optional[str]  # Pass as `cursor` for the next page; null at the end
    history: GetMarketHistoryResponseHistory  # How complete the history behind this page is
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("symbol", "symbol", _any),
        ("interval", "interval", _any),
        ("data", "data", _list(_obj("Candle"))),
        ("next_cursor", "nextCursor", _opt(_any)),
        ("history", "history", _obj("GetMarketHistoryResponseHistory")),
    )

    def to_records(self) -> List[Dict[str, Any]]:
        """The `data` rows as plain dicts with the JSON field names (`pandas.DataFrame.from_records`)."""
        return [_plain(row) for row in self.data]


@dataclass
class GetOAuthServerMetadataResponse(_Model):
    """GetOAuthServerMetadataResponse"""

    issuer: str
    authorization_endpoint: str
    token_endpoint: str
    revocation_endpoint: str
    response_types_supported: List[str]
    grant_types_supported: List[str]
    code_challenge_methods_supported: List[str]
    token_endpoint_auth_methods_supported: List[str]
    revocation_endpoint_auth_methods_supported: List[str]
    scopes_supported: List[str]
    authorization_response_iss_parameter_supported: bool
    service_documentation: str
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("issuer", "issuer", _any),
        ("authorization_endpoint", "authorization_endpoint", _any),
        ("token_endpoint", "token_endpoint", _any),
        ("revocation_endpoint", "revocation_endpoint", _any),
        ("response_types_supported", "response_types_supported", _list(_any)),
        ("grant_types_supported", "grant_types_supported", _list(_any)),
        ("code_challenge_methods_supported", "code_challenge_methods_supported", _list(_any)),
        ("token_endpoint_auth_methods_supported", "token_endpoint_auth_methods_supported", _list(_any)),
        ("revocation_endpoint_auth_methods_supported", "revocation_endpoint_auth_methods_supported", _list(_any)),
        ("scopes_supported", "scopes_supported", _list(_any)),
        ("authorization_response_iss_parameter_supported", "authorization_response_iss_parameter_supported", _any),
        ("service_documentation", "service_documentation", _any),
    )


@dataclass
class GetOnchainNetflowResponseDataItem(_Model):
    """GetOnchainNetflowResponseDataItem"""

    time: str  # Bucket start
    timestamp: int  # Bucket start in epoch milliseconds
    inflow: Optional[str]  # Deposits in asset units (exact decimal); null without an asset filter
    outflow: Optional[str]  # Withdrawals in asset units
    netflow: Optional[str]  # inflow − outflow in asset units
    inflow_usd: float
    outflow_usd: float
    netflow_usd: float
    flows: int  # Deposits and withdrawals in the bucket
    unpriced: int  # Flows without a USD value (left out of the USD sums)
    gap: bool  # True when the stored flows do not cover the whole bucket (before the first indexed block, or past th
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("time", "time", _any),
        ("timestamp", "timestamp", _any),
        ("inflow", "inflow", _opt(_any)),
        ("outflow", "outflow", _opt(_any)),
        ("netflow", "netflow", _opt(_any)),
        ("inflow_usd", "inflowUsd", _num),
        ("outflow_usd", "outflowUsd", _num),
        ("netflow_usd", "netflowUsd", _num),
        ("flows", "flows", _any),
        ("unpriced", "unpriced", _any),
        ("gap", "gap", _any),
    )


@dataclass
class GetOnchainNetflowResponseCoverageItem(_Model):
    """GetOnchainNetflowResponseCoverageItem"""

    chain: str
    from_: Optional[str]
    through: Optional[str]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("chain", "chain", _any),
        ("from_", "from", _opt(_any)),
        ("through", "through", _opt(_any)),
    )


@dataclass
class GetOnchainNetflowResponseLabels(_Model):
    """GetOnchainNetflowResponseLabels"""

    version: str
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("version", "version", _any),
    )


@dataclass
class GetOnchainNetflowResponse(_Model):
    """GetOnchainNetflowResponse"""

    exchange: Optional[str]
    asset: Optional[str]
    chain: Optional[str]
    interval: Union[Literal["1h"], Literal["1d"]]
    from_: str
    to: str  # End of the last bucket (exclusive)
    data: List[GetOnchainNetflowResponseDataItem]
    coverage: List[GetOnchainNetflowResponseCoverageItem]
    labels: GetOnchainNetflowResponseLabels
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("exchange", "exchange", _opt(_any)),
        ("asset", "asset", _opt(_any)),
        ("chain", "chain", _opt(_any)),
        ("interval", "interval", _any),
        ("from_", "from", _any),
        ("to", "to", _any),
        ("data", "data", _list(_obj("GetOnchainNetflowResponseDataItem"))),
        ("coverage", "coverage", _list(_obj("GetOnchainNetflowResponseCoverageItem"))),
        ("labels", "labels", _obj("GetOnchainNetflowResponseLabels")),
    )

    def to_records(self) -> List[Dict[str, Any]]:
        """The `data` rows as plain dicts with the JSON field names (`pandas.DataFrame.from_records`)."""
        return [_plain(row) for row in self.data]


@dataclass
class GetPredictionPerformanceResponseDataItemBrierDecomposition(_Model):
    """Murphy decomposition on the equal-mass bins: Brier ≈ reliability − resolution + uncertainty"""

    reliability: float
    resolution: float
    uncertainty: float
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("reliability", "reliability", _num),
        ("resolution", "resolution", _num),
        ("uncertainty", "uncertainty", _num),
    )


@dataclass
class GetPredictionPerformanceResponseDataItemCalibrationItem(_Model):
    """GetPredictionPerformanceResponseDataItemCalibrationItem"""

    lower: Optional[float]
    upper: Optional[float]
    count: int
    mean_confidence: Optional[float]
    hit_rate: Optional[float]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("lower", "lower", _opt(_num)),
        ("upper", "upper", _opt(_num)),
        ("count", "count", _any),
        ("mean_confidence", "meanConfidence", _opt(_num)),
        ("hit_rate", "hitRate", _opt(_num)),
    )


@dataclass
class GetPredictionPerformanceResponseDataItemCalibrationEqualMassItem(_Model):
    """GetPredictionPerformanceResponseDataItemCalibrationEqualMassItem"""

    lower: Optional[float]
    upper: Optional[float]
    count: int
    mean_confidence: Optional[float]
    hit_rate: Optional[float]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("lower", "lower", _opt(_num)),
        ("upper", "upper", _opt(_num)),
        ("count", "count", _any),
        ("mean_confidence", "meanConfidence", _opt(_num)),
        ("hit_rate", "hitRate", _opt(_num)),
    )


@dataclass
class GetPredictionPerformanceResponseDataItemConfidence(_Model):
    """Spread of confidence (sharpness)"""

    sd: Optional[float]
    min: Optional[float]
    max: Optional[float]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("sd", "sd", _opt(_num)),
        ("min", "min", _opt(_num)),
        ("max", "max", _opt(_num)),
    )


@dataclass
class GetPredictionPerformanceResponseDataItemDieboldMarianoVsReference(_Model):
    """GetPredictionPerformanceResponseDataItemDieboldMarianoVsReference"""

    statistic: Optional[float]
    p_value: Optional[float]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("statistic", "statistic", _opt(_num)),
        ("p_value", "pValue", _opt(_num)),
    )


@dataclass
class GetPredictionPerformanceResponseDataItemReferencesGarchDieboldMariano(_Model):
    """Diebold–Mariano on CRPS − CRPS of GARCH(1,1) (negative: the forecast's is smaller), HAC variance with lag ≥ the horizon's overlap − 1"""

    statistic: Optional[float]
    p_value: Optional[float]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("statistic", "statistic", _opt(_num)),
        ("p_value", "pValue", _opt(_num)),
    )


@dataclass
class GetPredictionPerformanceResponseDataItemReferencesGarch(_Model):
    """The forecasts against GARCH(1,1), fitted live on the same bars"""

    available: bool  # The figures are shown: at least minSample scored datapoints carry this reference’s CRPS
    count: int  # Scored live datapoints that carry a GARCH(1,1) forecast (made after its first fit): the pairs compar
    crps_skill: Optional[float] = None  # 1 − CRPS / CRPS of GARCH(1,1) over those datapoints, both on the 19 published quantiles
    diebold_mariano: Optional[GetPredictionPerformanceResponseDataItemReferencesGarchDieboldMariano] = None  # Diebold–Mariano on CRPS − CRPS of GARCH(1,1) (negative: the forecast's is smaller), HAC variance wit
    reason: Optional[str] = None  # Why the figures are absent (no fit yet, or too few scored datapoints)
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("available", "available", _any),
        ("count", "count", _any),
        ("crps_skill", "crpsSkill", _num),
        ("diebold_mariano", "dieboldMariano", _obj("GetPredictionPerformanceResponseDataItemReferencesGarchDieboldMariano")),
        ("reason", "reason", _any),
    )


@dataclass
class GetPredictionPerformanceResponseDataItemReferencesHarRvDieboldMariano(_Model):
    """Diebold–Mariano on CRPS − CRPS of HAR-RV (negative: the forecast's is smaller), HAC variance with lag ≥ the horizon's overlap − 1"""

    statistic: Optional[float]
    p_value: Optional[float]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("statistic", "statistic", _opt(_num)),
        ("p_value", "pValue", _opt(_num)),
    )


@dataclass
class GetPredictionPerformanceResponseDataItemReferencesHarRv(_Model):
    """The forecasts against HAR-RV, fitted live on the same bars"""

    available: bool  # The figures are shown: at least minSample scored datapoints carry this reference’s CRPS
    count: int  # Scored live datapoints that carry a HAR-RV forecast (made after its first fit): the pairs compared
    crps_skill: Optional[float] = None  # 1 − CRPS / CRPS of HAR-RV over those datapoints, both on the 19 published quantiles
    diebold_mariano: Optional[GetPredictionPerformanceResponseDataItemReferencesHarRvDieboldMariano] = None  # Diebold–Mariano on CRPS − CRPS of HAR-RV (negative: the forecast's is smaller), HAC variance with la
    reason: Optional[str] = None  # Why the figures are absent (no fit yet, or too few scored datapoints)
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("available", "available", _any),
        ("count", "count", _any),
        ("crps_skill", "crpsSkill", _num),
        ("diebold_mariano", "dieboldMariano", _obj("GetPredictionPerformanceResponseDataItemReferencesHarRvDieboldMariano")),
        ("reason", "reason", _any),
    )


@dataclass
class GetPredictionPerformanceResponseDataItemReferences(_Model):
    """The fitted volatility references, scored on the same outcomes; shown per reference once enough datapoints carry it"""

    garch: GetPredictionPerformanceResponseDataItemReferencesGarch  # The forecasts against GARCH(1,1), fitted live on the same bars
    har_rv: GetPredictionPerformanceResponseDataItemReferencesHarRv  # The forecasts against HAR-RV, fitted live on the same bars
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("garch", "garch", _obj("GetPredictionPerformanceResponseDataItemReferencesGarch")),
        ("har_rv", "har_rv", _obj("GetPredictionPerformanceResponseDataItemReferencesHarRv")),
    )


@dataclass
class GetPredictionPerformanceResponseDataItem(_Model):
    """GetPredictionPerformanceResponseDataItem"""

    symbol: str
    horizon: str
    count: int  # Scored live datapoints in the record (backfilled ones are not counted)
    min_sample: int  # Datapoints needed before figures are shown: 30 independent outcomes, i.e. 30 × the horizon ÷ the ref
    sample: Union[Literal["sufficient"], Literal["insufficient"]]  # insufficient: count < minSample, and the figures below are left out rather than shown
    references: GetPredictionPerformanceResponseDataItemReferences  # The fitted volatility references, scored on the same outcomes; shown per reference once enough datap
    from_: str
    to: str
    hit_rate: Optional[float] = None
    hit_rate_se: Optional[Optional[float]] = None  # HAC (Newey–West) standard error of the hit rate; overlapping horizons correlate outcomes
    brier: Optional[float] = None
    brier_decomposition: Optional[GetPredictionPerformanceResponseDataItemBrierDecomposition] = None  # Murphy decomposition on the equal-mass bins: Brier ≈ reliability − resolution + uncertainty
    ece: Optional[float] = None  # Expected calibration error, ten equal-width bins of confidence
    ece_equal_mass: Optional[float] = None  # Expected calibration error, ten equal-mass bins (deciles)
    calibration: Optional[List[GetPredictionPerformanceResponseDataItemCalibrationItem]] = None
    calibration_equal_mass: Optional[List[GetPredictionPerformanceResponseDataItemCalibrationEqualMassItem]] = None
    confidence: Optional[GetPredictionPerformanceResponseDataItemConfidence] = None  # Spread of confidence (sharpness)
    share_flat: Optional[float] = None  # Share of datapoints with prediction = baseline
    crps_skill_vs_reference: Optional[float] = None  # 1 − CRPS / CRPS of the calibrated zero-mean reference (19 published quantiles)
    diebold_mariano_vs_reference: Optional[GetPredictionPerformanceResponseDataItemDieboldMarianoVsReference] = None
    crps_skill_vs_random_walk: Optional[float] = None
    coverage80: Optional[float] = None
    coverage90: Optional[float] = None
    coverage80_by_sigma_tercile: Optional[List[Optional[float]]] = None  # 80 % coverage in the low, middle and high tercile of the predictive σ
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("symbol", "symbol", _any),
        ("horizon", "horizon", _any),
        ("count", "count", _any),
        ("min_sample", "minSample", _any),
        ("sample", "sample", _any),
        ("references", "references", _obj("GetPredictionPerformanceResponseDataItemReferences")),
        ("from_", "from", _any),
        ("to", "to", _any),
        ("hit_rate", "hitRate", _num),
        ("hit_rate_se", "hitRateSE", _opt(_num)),
        ("brier", "brier", _num),
        ("brier_decomposition", "brierDecomposition", _obj("GetPredictionPerformanceResponseDataItemBrierDecomposition")),
        ("ece", "ece", _num),
        ("ece_equal_mass", "eceEqualMass", _num),
        ("calibration", "calibration", _list(_obj("GetPredictionPerformanceResponseDataItemCalibrationItem"))),
        ("calibration_equal_mass", "calibrationEqualMass", _list(_obj("GetPredictionPerformanceResponseDataItemCalibrationEqualMassItem"))),
        ("confidence", "confidence", _obj("GetPredictionPerformanceResponseDataItemConfidence")),
        ("share_flat", "shareFlat", _num),
        ("crps_skill_vs_reference", "crpsSkillVsReference", _num),
        ("diebold_mariano_vs_reference", "dieboldMarianoVsReference", _obj("GetPredictionPerformanceResponseDataItemDieboldMarianoVsReference")),
        ("crps_skill_vs_random_walk", "crpsSkillVsRandomWalk", _num),
        ("coverage80", "coverage80", _num),
        ("coverage90", "coverage90", _num),
        ("coverage80_by_sigma_tercile", "coverage80BySigmaTercile", _list(_opt(_num))),
    )


@dataclass
class GetPredictionPerformanceResponseReferences(_Model):
    """How each fitted reference is made"""

    garch: str
    har_rv: str
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("garch", "garch", _any),
        ("har_rv", "har_rv", _any),
    )


@dataclass
class GetPredictionPerformanceResponseGapsItem(_Model):
    """GetPredictionPerformanceResponseGapsItem"""

    from_: str  # The last refresh before the outage.
    to: str  # The first refresh after it.
    missed_points: int  # Refresh points with no datapoint in between.
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("from_", "from", _any),
        ("to", "to", _any),
        ("missed_points", "missedPoints", _any),
    )


@dataclass
class GetPredictionPerformanceResponse(_Model):
    """GetPredictionPerformanceResponse"""

    data: List[GetPredictionPerformanceResponseDataItem]
    random_walk: str
    reference: str
    references: GetPredictionPerformanceResponseReferences  # How each fitted reference is made
    model_version: str
    generated_at: str
    gaps: List[GetPredictionPerformanceResponseGapsItem]  # Outages of the model refresh in the last 30 days: the record has no datapoints there.
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("data", "data", _list(_obj("GetPredictionPerformanceResponseDataItem"))),
        ("random_walk", "randomWalk", _any),
        ("reference", "reference", _any),
        ("references", "references", _obj("GetPredictionPerformanceResponseReferences")),
        ("model_version", "modelVersion", _any),
        ("generated_at", "generatedAt", _any),
        ("gaps", "gaps", _list(_obj("GetPredictionPerformanceResponseGapsItem"))),
    )

    def to_records(self) -> List[Dict[str, Any]]:
        """The `data` rows as plain dicts with the JSON field names (`pandas.DataFrame.from_records`)."""
        return [_plain(row) for row in self.data]


@dataclass
class GetSignInMethodsResponseSso(_Model):
    """GetSignInMethodsResponseSso"""

    name: str  # The provider, for the "Sign in with …" button.
    available: bool  # False while the provider's discovery document could not be read (see /readyz).
    start_url: str  # Where the browser goes to sign in (GET, a redirect).
    message: Optional[str] = None  # Why it is not available, for people.
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("name", "name", _any),
        ("available", "available", _any),
        ("start_url", "startUrl", _any),
        ("message", "message", _any),
    )


@dataclass
class GetSignInMethodsResponse(_Model):
    """GetSignInMethodsResponse"""

    password: bool  # Whether POST /auth/login accepts an email and password.
    sso: Optional[GetSignInMethodsResponseSso]  # Single sign-on with an OpenID Connect provider; null when not configured.
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("password", "password", _any),
        ("sso", "sso", _opt(_obj("GetSignInMethodsResponseSso"))),
    )


@dataclass
class ImportPortfolioRequestRowsItem(_Model):
    """ImportPortfolioRequestRowsItem"""

    asset: str  # Ticker or name: BTC, XBT, bitcoin, ETH, …
    quantity: str  # Exact decimal: a JSON number or a decimal string; stored exactly (no float rounding)
    cost_basis: Optional[Optional[str]] = None  # Total cost of the row (not per unit), in costCurrency
    cost_currency: Optional[Optional[str]] = None  # USD (default); USDT, USDC, … count as USD
    acquired_at: Optional[Optional[str]] = None  # ISO 8601 (UTC unless an offset is given) or epoch seconds / milliseconds
    venue: Optional[Optional[str]] = None
    note: Optional[Optional[str]] = None
    external_id: Optional[Optional[str]] = None  # Your id for the row: importing it again updates the row instead of adding one
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("asset", "asset", _any),
        ("quantity", "quantity", _any),
        ("cost_basis", "costBasis", _opt(_any)),
        ("cost_currency", "costCurrency", _opt(_any)),
        ("acquired_at", "acquiredAt", _opt(_any)),
        ("venue", "venue", _opt(_any)),
        ("note", "note", _opt(_any)),
        ("external_id", "externalId", _opt(_any)),
    )


@dataclass
class ImportPortfolioRequest(_Model):
    """ImportPortfolioRequest"""

    rows: List[ImportPortfolioRequestRowsItem]  # At most 200 rows
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("rows", "rows", _list(_obj("ImportPortfolioRequestRowsItem"))),
    )


@dataclass
class Invitation(_Model):
    """Invitation"""

    id: str
    organization_id: str
    role: Union[Literal["owner"], Literal["admin"], Literal["member"], Literal["viewer"]]
    email: Optional[str]  # null: anyone with the link may accept
    created_by: str
    created_at: str
    expires_at: str
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("id", "id", _any),
        ("organization_id", "organizationId", _any),
        ("role", "role", _any),
        ("email", "email", _opt(_any)),
        ("created_by", "createdBy", _any),
        ("created_at", "createdAt", _any),
        ("expires_at", "expiresAt", _any),
    )


@dataclass
class LedgerEntryOutcome(_Model):
    """LedgerEntryOutcome"""

    realized: float
    hit: bool
    covered80: bool
    covered90: bool
    scored_at: str
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("realized", "realized", _num),
        ("hit", "hit", _any),
        ("covered80", "covered80", _any),
        ("covered90", "covered90", _any),
        ("scored_at", "scoredAt", _any),
    )


@dataclass
class LedgerEntry(_Model):
    """LedgerEntry"""

    sequence: int  # Position in the chain, from 1, without gaps
    time: str  # When the entry was appended (recordedAtMs)
    recorded_at_ms: int  # When the entry was appended, ms since the epoch (hashed)
    symbol: str
    horizon: Literal["15m", "1h", "6h"]
    generated_at: str
    backfilled: bool  # Made after the fact by the walk-forward backfill, not live (also in the payload)
    payload: str  # The datapoint as published, in canonical JSON (RFC 8785: sorted keys, no whitespace): the exact byte
    prev_hash: str  # The previous entry’s hash; 64 zeros for entry 1
    hash: str  # SHA-256 (lower-case hex) of the UTF-8 text `<prevHash>\n<sequence>\n<recordedAtMs>\n<payload>`
    outcome: Optional[LedgerEntryOutcome]  # The scored outcome, once the horizon has passed (not hashed: it comes after the entry); null until t
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("sequence", "sequence", _any),
        ("time", "time", _any),
        ("recorded_at_ms", "recordedAtMs", _any),
        ("symbol", "symbol", _any),
        ("horizon", "horizon", _any),
        ("generated_at", "generatedAt", _any),
        ("backfilled", "backfilled", _any),
        ("payload", "payload", _any),
        ("prev_hash", "prevHash", _any),
        ("hash", "hash", _any),
        ("outcome", "outcome", _opt(_obj("LedgerEntryOutcome"))),
    )


@dataclass
class LevelProbabilitiesDatapointQuantiles(_Model):
    """p05…p95 of the forecast price: the distribution the probabilities are read from"""

    p05: float
    p10: float
    p15: float
    p20: float
    p25: float
    p30: float
    p35: float
    p40: float
    p45: float
    p50: float
    p55: float
    p60: float
    p65: float
    p70: float
    p75: float
    p80: float
    p85: float
    p90: float
    p95: float
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("p05", "p05", _num),
        ("p10", "p10", _num),
        ("p15", "p15", _num),
        ("p20", "p20", _num),
        ("p25", "p25", _num),
        ("p30", "p30", _num),
        ("p35", "p35", _num),
        ("p40", "p40", _num),
        ("p45", "p45", _num),
        ("p50", "p50", _num),
        ("p55", "p55", _num),
        ("p60", "p60", _num),
        ("p65", "p65", _num),
        ("p70", "p70", _num),
        ("p75", "p75", _num),
        ("p80", "p80", _num),
        ("p85", "p85", _num),
        ("p90", "p90", _num),
        ("p95", "p95", _num),
    )


@dataclass
class LevelProbabilitiesDatapoint(_Model):
    """The newest datapoint of this symbol and horizon, which the probabilities come from"""

    generated_at: str  # When the forecast was made
    horizon: Literal["15m", "1h", "6h"]
    baseline: float  # Merged mid price at generatedAt
    prediction: float  # Median forecast price at generatedAt + horizon
    quantiles: LevelProbabilitiesDatapointQuantiles  # p05…p95 of the forecast price: the distribution the probabilities are read from
    model_version: str
    backfilled: bool  # The datapoint was made after the fact over stored candles (warm-up), not live
    source: str  # What the forecasts are made from: simulated, replay or ccxt:<venues>
    stale: bool  # generatedAt is older than 2.5 refresh periods now
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("generated_at", "generatedAt", _any),
        ("horizon", "horizon", _any),
        ("baseline", "baseline", _num),
        ("prediction", "prediction", _num),
        ("quantiles", "quantiles", _obj("LevelProbabilitiesDatapointQuantiles")),
        ("model_version", "modelVersion", _any),
        ("backfilled", "backfilled", _any),
        ("source", "source", _any),
        ("stale", "stale", _any),
    )


@dataclass
class LevelProbabilitiesLevelsItem(_Model):
    """LevelProbabilitiesLevelsItem"""

    level: float  # The price asked about
    end_above: float  # Calibrated probability that the price at generatedAt + horizon is above the level
    touch: float  # Probability that the price reaches the level before generatedAt + horizon (1 at the baseline); see t
    touch_method: Union[Literal["empirical"], Literal["reflection"]]  # empirical: learned walk-forward from how far past paths went; reflection: the reflection principle o
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("level", "level", _num),
        ("end_above", "endAbove", _num),
        ("touch", "touch", _num),
        ("touch_method", "touchMethod", _any),
    )


@dataclass
class LevelProbabilities(_Model):
    """LevelProbabilities"""

    symbol: str
    horizon: Literal["15m", "1h", "6h"]
    datapoint: LevelProbabilitiesDatapoint  # The newest datapoint of this symbol and horizon, which the probabilities come from
    levels: List[LevelProbabilitiesLevelsItem]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("symbol", "symbol", _any),
        ("horizon", "horizon", _any),
        ("datapoint", "datapoint", _obj("LevelProbabilitiesDatapoint")),
        ("levels", "levels", _list(_obj("LevelProbabilitiesLevelsItem"))),
    )


@dataclass
class LiquidationsAlertRuleInputCondition(_Model):
    """LiquidationsAlertRuleInputCondition"""

    op: Literal["above"]
    value: float  # USD liquidated over the window
    side: Literal["long", "short", "any"]  # long: longs closed (a fall); short: shorts closed (a rise); any: both
    window: Literal["1h", "4h", "24h"]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("op", "op", _any),
        ("value", "value", _num),
        ("side", "side", _any),
        ("window", "window", _any),
    )


@dataclass
class LiquidationsAlertRuleInputTrigger(_Model):
    """LiquidationsAlertRuleInputTrigger"""

    mode: Optional[Literal["once", "every"]] = None  # once (default): fire once, then triggered; every: each time
    cooldown_sec: Optional[int] = None  # every: quiet time after a firing (default 300)
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("mode", "mode", _any),
        ("cooldown_sec", "cooldownSec", _any),
    )


@dataclass
class LiquidationsAlertRuleInputChannels(_Model):
    """LiquidationsAlertRuleInputChannels"""

    webhook_ids: Optional[List[str]] = None  # Endpoints to deliver to; empty: every endpoint of the account subscribed to the event type
    channel_ids: Optional[List[str]] = None  # Alert channels (email, Telegram, Discord, Slack) that receive its messages
    events: Optional[bool] = None  # Carry the events on the /events stream (default true)
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("webhook_ids", "webhookIds", _list(_any)),
        ("channel_ids", "channelIds", _list(_any)),
        ("events", "events", _any),
    )


@dataclass
class LiquidationsAlertRuleInput(_Model):
    """LiquidationsAlertRuleInput"""

    type: Literal["liquidations"]
    symbol: str  # Any accepted spelling: btc, BTC/USDT, …
    condition: LiquidationsAlertRuleInputCondition
    name: Optional[str] = None
    trigger: Optional[LiquidationsAlertRuleInputTrigger] = None
    expires_at: Optional[Optional[str]] = None
    channels: Optional[LiquidationsAlertRuleInputChannels] = None
    template: Optional[Optional[str]] = None
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("type", "type", _any),
        ("symbol", "symbol", _any),
        ("condition", "condition", _obj("LiquidationsAlertRuleInputCondition")),
        ("name", "name", _any),
        ("trigger", "trigger", _obj("LiquidationsAlertRuleInputTrigger")),
        ("expires_at", "expiresAt", _opt(_any)),
        ("channels", "channels", _obj("LiquidationsAlertRuleInputChannels")),
        ("template", "template", _opt(_any)),
    )


@dataclass
class ListAlertChannelDeliveriesResponse(_Model):
    """ListAlertChannelDeliveriesResponse"""

    data: List[WebhookDelivery]
    next_cursor: Optional[str]  # Pass as cursor for older deliveries
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("data", "data", _list(_obj("WebhookDelivery"))),
        ("next_cursor", "nextCursor", _opt(_any)),
    )

    def to_records(self) -> List[Dict[str, Any]]:
        """The `data` rows as plain dicts with the JSON field names (`pandas.DataFrame.from_records`)."""
        return [_plain(row) for row in self.data]


@dataclass
class ListAlertChannelsResponse(_Model):
    """ListAlertChannelsResponse"""

    data: List[AlertChannel]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("data", "data", _list(_obj("AlertChannel"))),
    )

    def to_records(self) -> List[Dict[str, Any]]:
        """The `data` rows as plain dicts with the JSON field names (`pandas.DataFrame.from_records`)."""
        return [_plain(row) for row in self.data]


@dataclass
class ListAlertDeliveriesResponse(_Model):
    """ListAlertDeliveriesResponse"""

    data: List[WebhookDelivery]
    next_cursor: Optional[str]  # Pass as cursor for older deliveries
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("data", "data", _list(_obj("WebhookDelivery"))),
        ("next_cursor", "nextCursor", _opt(_any)),
    )

    def to_records(self) -> List[Dict[str, Any]]:
        """The `data` rows as plain dicts with the JSON field names (`pandas.DataFrame.from_records`)."""
        return [_plain(row) for row in self.data]


@dataclass
class ListAlertRulesResponseApplied(_Model):
    """ListAlertRulesResponseApplied"""

    limit: int
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("limit", "limit", _any),
    )


@dataclass
class ListAlertRulesResponse(_Model):
    """ListAlertRulesResponse"""

    data: List[AlertRule]
    next_cursor: Optional[str]  # Pass as cursor for the next page
    applied: ListAlertRulesResponseApplied
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("data", "data", _list(_obj("AlertRule"))),
        ("next_cursor", "nextCursor", _opt(_any)),
        ("applied", "applied", _obj("ListAlertRulesResponseApplied")),
    )

    def to_records(self) -> List[Dict[str, Any]]:
        """The `data` rows as plain dicts with the JSON field names (`pandas.DataFrame.from_records`)."""
        return [_plain(row) for row in self.data]


@dataclass
class ListAuditLogResponseDataItem(_Model):
    """ListAuditLogResponseDataItem"""

    id: str
    at: str
    action: Literal["auth.sign_in", "auth.sign_out", "auth.two_factor", "token.create", "token.rotate", "token.revoke", "user.create", "user.role_change", "user.plan_change", "two_factor.enrol", "two_factor.disable", "two_factor.recovery_code_use", "webhook.create", "webhook.rotate", "webhook.delete", "channel.create", "channel.verify", "channel.test", "channel.delete", "alert_rule.delete", "label.delete", "portfolio.import", "portfolio.row_delete", "portfolio.delete", "oauth.client_create", "oauth.client_delete", "oauth.grant", "oauth.grant_revoke", "organization.create", "organization.update", "organization.plan_change", "organization.invite", "organization.invitation_revoke", "organization.join", "organization.member_role_change", "organization.member_remove", "organization.leave", "organization.transfer"]
    outcome: Union[Literal["success"], Literal["failure"]]
    actor_id: Optional[str]  # The user who acted; null when unknown
    credential: Literal["session", "token", "password", "sso", "operator", "none"]  # How the actor authenticated: session, token, password (sign-in), sso (single sign-on), operator (CLI
    address: Optional[str]  # The client address (null: not over HTTP)
    target: Optional[str]  # What the action concerned, as kind:id
    detail: Optional[Dict[str, Optional[Union[str, float, bool]]]]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("id", "id", _any),
        ("at", "at", _any),
        ("action", "action", _any),
        ("outcome", "outcome", _any),
        ("actor_id", "actorId", _opt(_any)),
        ("credential", "credential", _any),
        ("address", "address", _opt(_any)),
        ("target", "target", _opt(_any)),
        ("detail", "detail", _opt(_map(_any))),
    )


@dataclass
class ListAuditLogResponseApplied(_Model):
    """ListAuditLogResponseApplied"""

    limit: int
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("limit", "limit", _any),
    )


@dataclass
class ListAuditLogResponse(_Model):
    """ListAuditLogResponse"""

    data: List[ListAuditLogResponseDataItem]
    next_cursor: Optional[str]  # Pass as cursor for the next (older) page
    applied: ListAuditLogResponseApplied
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("data", "data", _list(_obj("ListAuditLogResponseDataItem"))),
        ("next_cursor", "nextCursor", _opt(_any)),
        ("applied", "applied", _obj("ListAuditLogResponseApplied")),
    )

    def to_records(self) -> List[Dict[str, Any]]:
        """The `data` rows as plain dicts with the JSON field names (`pandas.DataFrame.from_records`)."""
        return [_plain(row) for row in self.data]


@dataclass
class ListInvitationsResponse(_Model):
    """ListInvitationsResponse"""

    data: List[Invitation]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("data", "data", _list(_obj("Invitation"))),
    )

    def to_records(self) -> List[Dict[str, Any]]:
        """The `data` rows as plain dicts with the JSON field names (`pandas.DataFrame.from_records`)."""
        return [_plain(row) for row in self.data]


@dataclass
class ListLabelsResponseDataItem(_Model):
    """ListLabelsResponseDataItem"""

    id: str
    kind: Literal["exchange", "fund", "wallet"]  # exchange: an exchange wallet; fund: a fund’s wallet; wallet: a wallet the account watches
    chain: str
    address: str  # Lower case
    name: str
    created_at: str
    updated_at: str
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("id", "id", _any),
        ("kind", "kind", _any),
        ("chain", "chain", _any),
        ("address", "address", _any),
        ("name", "name", _any),
        ("created_at", "createdAt", _any),
        ("updated_at", "updatedAt", _any),
    )


@dataclass
class ListLabelsResponse(_Model):
    """ListLabelsResponse"""

    data: List[ListLabelsResponseDataItem]
    next_cursor: Optional[str]  # Pass as cursor for older labels
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("data", "data", _list(_obj("ListLabelsResponseDataItem"))),
        ("next_cursor", "nextCursor", _opt(_any)),
    )

    def to_records(self) -> List[Dict[str, Any]]:
        """The `data` rows as plain dicts with the JSON field names (`pandas.DataFrame.from_records`)."""
        return [_plain(row) for row in self.data]


@dataclass
class ListOAuthClientsResponse(_Model):
    """ListOAuthClientsResponse"""

    data: List[OAuthClient]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("data", "data", _list(_obj("OAuthClient"))),
    )

    def to_records(self) -> List[Dict[str, Any]]:
        """The `data` rows as plain dicts with the JSON field names (`pandas.DataFrame.from_records`)."""
        return [_plain(row) for row in self.data]


@dataclass
class ListOAuthGrantsResponse(_Model):
    """ListOAuthGrantsResponse"""

    data: List[OAuthGrant]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("data", "data", _list(_obj("OAuthGrant"))),
    )

    def to_records(self) -> List[Dict[str, Any]]:
        """The `data` rows as plain dicts with the JSON field names (`pandas.DataFrame.from_records`)."""
        return [_plain(row) for row in self.data]


@dataclass
class ListOnchainExchangesResponseDataItemChainsItem(_Model):
    """ListOnchainExchangesResponseDataItemChainsItem"""

    chain: str
    addresses: int
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("chain", "chain", _any),
        ("addresses", "addresses", _any),
    )


@dataclass
class ListOnchainExchangesResponseDataItem(_Model):
    """ListOnchainExchangesResponseDataItem"""

    exchange: str  # Canonical name (okex → okx, huobi → htx)
    known: bool  # One of the exchanges the service knows by name (also a market venue)
    addresses: int
    chains: List[ListOnchainExchangesResponseDataItemChainsItem]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("exchange", "exchange", _any),
        ("known", "known", _any),
        ("addresses", "addresses", _any),
        ("chains", "chains", _list(_obj("ListOnchainExchangesResponseDataItemChainsItem"))),
    )


@dataclass
class ListOnchainExchangesResponseChainsItem(_Model):
    """ListOnchainExchangesResponseChainsItem"""

    chain: str
    addresses: int
    exchanges: int
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("chain", "chain", _any),
        ("addresses", "addresses", _any),
        ("exchanges", "exchanges", _any),
    )


@dataclass
class ListOnchainExchangesResponseLabelsSourcesItem(_Model):
    """ListOnchainExchangesResponseLabelsSourcesItem"""

    file: str  # File name, in the order applied (later files override)
    version: str  # Declared version, <commit>@<date> of its SOURCE file, or a hash
    labels: int
    ignored: int  # Entries that are not exchange wallets (explorer exports)
    problems: int  # Rows not used (logged at start with file and line)
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("file", "file", _any),
        ("version", "version", _any),
        ("labels", "labels", _any),
        ("ignored", "ignored", _any),
        ("problems", "problems", _any),
    )


@dataclass
class ListOnchainExchangesResponseLabels(_Model):
    """ListOnchainExchangesResponseLabels"""

    version: str  # Content hash of the merged labels (flows carry it)
    addresses: int
    sources: List[ListOnchainExchangesResponseLabelsSourcesItem]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("version", "version", _any),
        ("addresses", "addresses", _any),
        ("sources", "sources", _list(_obj("ListOnchainExchangesResponseLabelsSourcesItem"))),
    )


@dataclass
class ListOnchainExchangesResponse(_Model):
    """ListOnchainExchangesResponse"""

    data: List[ListOnchainExchangesResponseDataItem]
    chains: List[ListOnchainExchangesResponseChainsItem]
    labels: ListOnchainExchangesResponseLabels
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("data", "data", _list(_obj("ListOnchainExchangesResponseDataItem"))),
        ("chains", "chains", _list(_obj("ListOnchainExchangesResponseChainsItem"))),
        ("labels", "labels", _obj("ListOnchainExchangesResponseLabels")),
    )

    def to_records(self) -> List[Dict[str, Any]]:
        """The `data` rows as plain dicts with the JSON field names (`pandas.DataFrame.from_records`)."""
        return [_plain(row) for row in self.data]


@dataclass
class ListOnchainFlowsResponseSummary1h(_Model):
    """ListOnchainFlowsResponseSummary1h"""

    inflow_usd: float
    outflow_usd: float
    netflow_usd: float
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("inflow_usd", "inflowUsd", _num),
        ("outflow_usd", "outflowUsd", _num),
        ("netflow_usd", "netflowUsd", _num),
    )


@dataclass
class ListOnchainFlowsResponseSummary24h(_Model):
    """ListOnchainFlowsResponseSummary24h"""

    inflow_usd: float
    outflow_usd: float
    netflow_usd: float
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("inflow_usd", "inflowUsd", _num),
        ("outflow_usd", "outflowUsd", _num),
        ("netflow_usd", "netflowUsd", _num),
    )


@dataclass
class ListOnchainFlowsResponseSummary(_Model):
    """ListOnchainFlowsResponseSummary"""

    as_of: str
    exchange: Optional[str]
    asset: Optional[str]
    chain: Optional[str]
    n_1h: ListOnchainFlowsResponseSummary1h
    n_24h: ListOnchainFlowsResponseSummary24h
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("as_of", "asOf", _any),
        ("exchange", "exchange", _opt(_any)),
        ("asset", "asset", _opt(_any)),
        ("chain", "chain", _opt(_any)),
        ("n_1h", "1h", _obj("ListOnchainFlowsResponseSummary1h")),
        ("n_24h", "24h", _obj("ListOnchainFlowsResponseSummary24h")),
    )


@dataclass
class ListOnchainFlowsResponseApplied(_Model):
    """ListOnchainFlowsResponseApplied"""

    limit: int
    exchange: Optional[str]
    asset: Optional[str]
    direction: Optional[str]
    chain: Optional[str]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("limit", "limit", _any),
        ("exchange", "exchange", _opt(_any)),
        ("asset", "asset", _opt(_any)),
        ("direction", "direction", _opt(_any)),
        ("chain", "chain", _opt(_any)),
    )


@dataclass
class ListOnchainFlowsResponseLabels(_Model):
    """ListOnchainFlowsResponseLabels"""

    version: str
    addresses: int
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("version", "version", _any),
        ("addresses", "addresses", _any),
    )


@dataclass
class ListOnchainFlowsResponse(_Model):
    """ListOnchainFlowsResponse"""

    data: List[OnchainFlow]
    summary: ListOnchainFlowsResponseSummary
    next_cursor: Optional[str]  # Pass as cursor for older flows
    applied: ListOnchainFlowsResponseApplied
    labels: ListOnchainFlowsResponseLabels
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("data", "data", _list(_obj("OnchainFlow"))),
        ("summary", "summary", _obj("ListOnchainFlowsResponseSummary")),
        ("next_cursor", "nextCursor", _opt(_any)),
        ("applied", "applied", _obj("ListOnchainFlowsResponseApplied")),
        ("labels", "labels", _obj("ListOnchainFlowsResponseLabels")),
    )

    def to_records(self) -> List[Dict[str, Any]]:
        """The `data` rows as plain dicts with the JSON field names (`pandas.DataFrame.from_records`)."""
        return [_plain(row) for row in self.data]


@dataclass
class ListOrganizationMembersResponse(_Model):
    """ListOrganizationMembersResponse"""

    data: List[OrganizationMember]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("data", "data", _list(_obj("OrganizationMember"))),
    )

    def to_records(self) -> List[Dict[str, Any]]:
        """The `data` rows as plain dicts with the JSON field names (`pandas.DataFrame.from_records`)."""
        return [_plain(row) for row in self.data]


@dataclass
class ListOrganizationsResponse(_Model):
    """ListOrganizationsResponse"""

    data: List[Organization]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("data", "data", _list(_obj("Organization"))),
    )

    def to_records(self) -> List[Dict[str, Any]]:
        """The `data` rows as plain dicts with the JSON field names (`pandas.DataFrame.from_records`)."""
        return [_plain(row) for row in self.data]


@dataclass
class ListPortfolioImportsResponseDataItem(_Model):
    """ListPortfolioImportsResponseDataItem"""

    id: str
    format: str
    rows: int
    inserted: int
    updated: int
    unchanged: int
    idempotency_key: Optional[str]
    created_at: str
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("id", "id", _any),
        ("format", "format", _any),
        ("rows", "rows", _any),
        ("inserted", "inserted", _any),
        ("updated", "updated", _any),
        ("unchanged", "unchanged", _any),
        ("idempotency_key", "idempotencyKey", _opt(_any)),
        ("created_at", "createdAt", _any),
    )


@dataclass
class ListPortfolioImportsResponse(_Model):
    """ListPortfolioImportsResponse"""

    data: List[ListPortfolioImportsResponseDataItem]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("data", "data", _list(_obj("ListPortfolioImportsResponseDataItem"))),
    )

    def to_records(self) -> List[Dict[str, Any]]:
        """The `data` rows as plain dicts with the JSON field names (`pandas.DataFrame.from_records`)."""
        return [_plain(row) for row in self.data]


@dataclass
class ListPortfolioRowsResponseDataItem(_Model):
    """ListPortfolioRowsResponseDataItem"""

    id: str
    asset: str
    quantity: str
    cost_basis: Optional[str]
    cost_currency: Optional[str]
    acquired_at: Optional[str]
    venue: Optional[str]
    note: Optional[str]
    external_id: Optional[str]
    import_id: str
    created_at: str
    updated_at: str
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("id", "id", _any),
        ("asset", "asset", _any),
        ("quantity", "quantity", _any),
        ("cost_basis", "costBasis", _opt(_any)),
        ("cost_currency", "costCurrency", _opt(_any)),
        ("acquired_at", "acquiredAt", _opt(_any)),
        ("venue", "venue", _opt(_any)),
        ("note", "note", _opt(_any)),
        ("external_id", "externalId", _opt(_any)),
        ("import_id", "importId", _any),
        ("created_at", "createdAt", _any),
        ("updated_at", "updatedAt", _any),
    )


@dataclass
class ListPortfolioRowsResponse(_Model):
    """ListPortfolioRowsResponse"""

    data: List[ListPortfolioRowsResponseDataItem]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("data", "data", _list(_obj("ListPortfolioRowsResponseDataItem"))),
    )

    def to_records(self) -> List[Dict[str, Any]]:
        """The `data` rows as plain dicts with the JSON field names (`pandas.DataFrame.from_records`)."""
        return [_plain(row) for row in self.data]


@dataclass
class ListPredictionLedgerResponseHead(_Model):
    """The ledger’s newest entry now (also the `Meridian-Ledger-Head` header)"""

    sequence: int
    hash: str  # The newest entry’s hash (64 zeros while empty)
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("sequence", "sequence", _any),
        ("hash", "hash", _any),
    )


@dataclass
class ListPredictionLedgerResponse(_Model):
    """ListPredictionLedgerResponse"""

    data: List[LedgerEntry]
    next_cursor: Optional[str]  # Pass as `cursor` for the next page; null at the end
    head: ListPredictionLedgerResponseHead  # The ledger’s newest entry now (also the `Meridian-Ledger-Head` header)
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("data", "data", _list(_obj("LedgerEntry"))),
        ("next_cursor", "nextCursor", _opt(_any)),
        ("head", "head", _obj("ListPredictionLedgerResponseHead")),
    )

    def to_records(self) -> List[Dict[str, Any]]:
        """The `data` rows as plain dicts with the JSON field names (`pandas.DataFrame.from_records`)."""
        return [_plain(row) for row in self.data]


@dataclass
class ListPredictionsResponse(_Model):
    """ListPredictionsResponse"""

    data: List[PredictionDatapoint]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("data", "data", _list(_obj("PredictionDatapoint"))),
    )

    def to_records(self) -> List[Dict[str, Any]]:
        """The `data` rows as plain dicts with the JSON field names (`pandas.DataFrame.from_records`)."""
        return [_plain(row) for row in self.data]


@dataclass
class ListTokensResponseApplied(_Model):
    """ListTokensResponseApplied"""

    limit: int
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("limit", "limit", _any),
    )


@dataclass
class ListTokensResponse(_Model):
    """ListTokensResponse"""

    data: List[Token]
    next_cursor: Optional[str]  # Pass as cursor for the next page
    applied: ListTokensResponseApplied
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("data", "data", _list(_obj("Token"))),
        ("next_cursor", "nextCursor", _opt(_any)),
        ("applied", "applied", _obj("ListTokensResponseApplied")),
    )

    def to_records(self) -> List[Dict[str, Any]]:
        """The `data` rows as plain dicts with the JSON field names (`pandas.DataFrame.from_records`)."""
        return [_plain(row) for row in self.data]


@dataclass
class ListWebhookDeliveriesResponse(_Model):
    """ListWebhookDeliveriesResponse"""

    data: List[WebhookDelivery]
    next_cursor: Optional[str]  # Pass as cursor for older deliveries
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("data", "data", _list(_obj("WebhookDelivery"))),
        ("next_cursor", "nextCursor", _opt(_any)),
    )

    def to_records(self) -> List[Dict[str, Any]]:
        """The `data` rows as plain dicts with the JSON field names (`pandas.DataFrame.from_records`)."""
        return [_plain(row) for row in self.data]


@dataclass
class ListWebhooksResponse(_Model):
    """ListWebhooksResponse"""

    data: List[Webhook]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("data", "data", _list(_obj("Webhook"))),
    )

    def to_records(self) -> List[Dict[str, Any]]:
        """The `data` rows as plain dicts with the JSON field names (`pandas.DataFrame.from_records`)."""
        return [_plain(row) for row in self.data]


@dataclass
class LoginCodeRequest(_Model):
    """LoginCodeRequest"""

    challenge: str
    code: str  # The 6-digit TOTP code, or a recovery code
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("challenge", "challenge", _any),
        ("code", "code", _any),
    )


@dataclass
class LoginCodeResponse(_Model):
    """LoginCodeResponse"""

    step: Literal["done"]
    email: str
    role: str
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("step", "step", _any),
        ("email", "email", _any),
        ("role", "role", _any),
    )


@dataclass
class LoginEnrolConfirmRequest(_Model):
    """LoginEnrolConfirmRequest"""

    challenge: str
    code: str  # The 6-digit TOTP code, or a recovery code
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("challenge", "challenge", _any),
        ("code", "code", _any),
    )


@dataclass
class LoginEnrolConfirmResponse(_Model):
    """LoginEnrolConfirmResponse"""

    step: Literal["done"]
    email: str
    role: str
    recovery_codes: List[str]  # Ten recovery codes, each usable once instead of a TOTP code. Shown once, never again.
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("step", "step", _any),
        ("email", "email", _any),
        ("role", "role", _any),
        ("recovery_codes", "recoveryCodes", _list(_any)),
    )


@dataclass
class LoginEnrolRequest(_Model):
    """LoginEnrolRequest"""

    challenge: str
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("challenge", "challenge", _any),
    )


@dataclass
class LoginRequest(_Model):
    """LoginRequest"""

    email: str
    password: str
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("email", "email", _any),
        ("password", "password", _any),
    )


@dataclass
class MarketDataLiquidityDepthItem(_Model):
    """MarketDataLiquidityDepthItem"""

    band_pct: float  # 0.5, 1 or 2: within ± this percent of the merged mid
    bid_usd: float
    ask_usd: float
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("band_pct", "bandPct", _num),
        ("bid_usd", "bidUsd", _num),
        ("ask_usd", "askUsd", _num),
    )


@dataclass
class MarketDataLiquiditySlippage(_Model):
    """MarketDataLiquiditySlippage"""

    notional: float  # USD notional of the market order walked through the consolidated book
    buy_bps: Optional[float]  # null when the book is too thin
    sell_bps: Optional[float]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("notional", "notional", _num),
        ("buy_bps", "buyBps", _opt(_num)),
        ("sell_bps", "sellBps", _opt(_num)),
    )


@dataclass
class MarketDataLiquidity(_Model):
    """MarketDataLiquidity"""

    depth: List[MarketDataLiquidityDepthItem]
    slippage: MarketDataLiquiditySlippage
    book_imbalance: Optional[float]  # (bid − ask depth) / (bid + ask depth) within ±1 %, in [-1, 1]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("depth", "depth", _list(_obj("MarketDataLiquidityDepthItem"))),
        ("slippage", "slippage", _obj("MarketDataLiquiditySlippage")),
        ("book_imbalance", "bookImbalance", _opt(_num)),
    )


@dataclass
class MarketDataVenuesItem(_Model):
    """MarketDataVenuesItem"""

    venue: str
    price: Optional[float]
    spread_bps: Optional[float]
    volume24h: float
    quote_volume24h: float
    weight: float  # Share of the merged price; 0 when excluded
    stale: bool
    outlier: bool
    updated_at: Optional[str]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("venue", "venue", _any),
        ("price", "price", _opt(_num)),
        ("spread_bps", "spreadBps", _opt(_num)),
        ("volume24h", "volume24h", _num),
        ("quote_volume24h", "quoteVolume24h", _num),
        ("weight", "weight", _num),
        ("stale", "stale", _any),
        ("outlier", "outlier", _any),
        ("updated_at", "updatedAt", _opt(_any)),
    )


@dataclass
class MarketData(_Model):
    """MarketData"""

    symbol: str  # Canonical symbol used (BASEQUOTE)
    price: Optional[float]  # Merged mid across included venues
    best_bid: Optional[float]
    best_ask: Optional[float]
    spread_bps: Optional[float]
    change24h_pct: Optional[float]
    high24h: Optional[float]
    low24h: Optional[float]
    volume24h: float  # Base volume, all venues, 24 h
    quote_volume24h: float  # Quote (USD) volume, all venues, 24 h
    vwap24h: Optional[float]
    liquidity: MarketDataLiquidity
    trade_imbalance5m: Optional[float]  # (buy − sell aggressor volume) / total, last 5 minutes
    funding_rate: Optional[float]  # Perpetual funding rate per 8 h, fraction
    basis_bps: Optional[float]  # Perpetual mark vs merged mid, bps
    venues: List[MarketDataVenuesItem]
    updated_at: str
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("symbol", "symbol", _any),
        ("price", "price", _opt(_num)),
        ("best_bid", "bestBid", _opt(_num)),
        ("best_ask", "bestAsk", _opt(_num)),
        ("spread_bps", "spreadBps", _opt(_num)),
        ("change24h_pct", "change24hPct", _opt(_num)),
        ("high24h", "high24h", _opt(_num)),
        ("low24h", "low24h", _opt(_num)),
        ("volume24h", "volume24h", _num),
        ("quote_volume24h", "quoteVolume24h", _num),
        ("vwap24h", "vwap24h", _opt(_num)),
        ("liquidity", "liquidity", _obj("MarketDataLiquidity")),
        ("trade_imbalance5m", "tradeImbalance5m", _opt(_num)),
        ("funding_rate", "fundingRate", _opt(_num)),
        ("basis_bps", "basisBps", _opt(_num)),
        ("venues", "venues", _list(_obj("MarketDataVenuesItem"))),
        ("updated_at", "updatedAt", _any),
    )


@dataclass
class OAuthClient(_Model):
    """OAuthClient"""

    id: str
    name: str
    type: Union[Literal["public"], Literal["confidential"]]
    redirect_uris: List[str]
    registered_by: Union[Literal["operator"], Literal["account"]]
    created_at: str
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("id", "id", _any),
        ("name", "name", _any),
        ("type", "type", _any),
        ("redirect_uris", "redirectUris", _list(_any)),
        ("registered_by", "registeredBy", _any),
        ("created_at", "createdAt", _any),
    )


@dataclass
class OAuthErrorResponse(_Model):
    """OAuthErrorResponse"""

    error: str  # RFC 6749 §5.2 error code
    error_description: str
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("error", "error", _any),
        ("error_description", "error_description", _any),
    )


@dataclass
class OAuthGrantClient(_Model):
    """OAuthGrantClient"""

    id: str
    name: str
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("id", "id", _any),
        ("name", "name", _any),
    )


@dataclass
class OAuthGrant(_Model):
    """OAuthGrant"""

    id: str
    client: OAuthGrantClient
    scopes: List[str]
    created_at: str
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("id", "id", _any),
        ("client", "client", _obj("OAuthGrantClient")),
        ("scopes", "scopes", _list(_any)),
        ("created_at", "createdAt", _any),
    )


@dataclass
class OauthTokenResponse(_Model):
    """OauthTokenResponse"""

    access_token: str  # An API token (`mrd_…`) limited to the granted scopes
    token_type: Literal["Bearer"]
    expires_in: int  # Seconds the access token is valid
    refresh_token: str  # Single use: each refresh answers a new one (`mrr_…`)
    scope: str  # The granted permissions, space-separated
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("access_token", "access_token", _any),
        ("token_type", "token_type", _any),
        ("expires_in", "expires_in", _any),
        ("refresh_token", "refresh_token", _any),
        ("scope", "scope", _any),
    )


@dataclass
class OnchainFlowFromPrivateLabel(_Model):
    """OnchainFlowFromPrivateLabel"""

    id: str
    kind: Literal["exchange", "fund", "wallet"]  # exchange: an exchange wallet; fund: a fund’s wallet; wallet: a wallet the account watches
    name: str
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("id", "id", _any),
        ("kind", "kind", _any),
        ("name", "name", _any),
    )


@dataclass
class OnchainFlowFrom(_Model):
    """OnchainFlowFrom"""

    address: str
    exchange: Optional[str]
    label: Optional[str]
    private_label: Optional[Optional[OnchainFlowFromPrivateLabel]] = None  # The caller's own label for this address (POST /api/labels); no one else sees it
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("address", "address", _any),
        ("exchange", "exchange", _opt(_any)),
        ("label", "label", _opt(_any)),
        ("private_label", "privateLabel", _opt(_obj("OnchainFlowFromPrivateLabel"))),
    )


@dataclass
class OnchainFlowToPrivateLabel(_Model):
    """OnchainFlowToPrivateLabel"""

    id: str
    kind: Literal["exchange", "fund", "wallet"]  # exchange: an exchange wallet; fund: a fund’s wallet; wallet: a wallet the account watches
    name: str
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("id", "id", _any),
        ("kind", "kind", _any),
        ("name", "name", _any),
    )


@dataclass
class OnchainFlowTo(_Model):
    """OnchainFlowTo"""

    address: str
    exchange: Optional[str]
    label: Optional[str]
    private_label: Optional[Optional[OnchainFlowToPrivateLabel]] = None  # The caller's own label for this address (POST /api/labels); no one else sees it
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("address", "address", _any),
        ("exchange", "exchange", _opt(_any)),
        ("label", "label", _opt(_any)),
        ("private_label", "privateLabel", _opt(_obj("OnchainFlowToPrivateLabel"))),
    )


@dataclass
class OnchainFlow(_Model):
    """OnchainFlow"""

    id: str  # chain:txHash:logIndex:exchange — the idempotency key
    chain: str
    tx_hash: str
    log_index: Optional[int]  # null for a native transfer
    kind: Union[Literal["native"], Literal["token"]]
    block_number: int
    block_hash: str
    time: str
    timestamp: int  # Block time in epoch milliseconds
    exchange: str
    direction: Union[Literal["deposit"], Literal["withdrawal"], Literal["internal"]]
    asset: str
    token_address: Optional[str]
    amount: str  # Exact decimal amount, never a float
    usd_value: Optional[float]  # USD at the block time, rounded to cents
    from_: OnchainFlowFrom
    to: OnchainFlowTo
    label_version: Optional[str]  # Version hash of the label set that classified the flow (null for flows stored before versions were k
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("id", "id", _any),
        ("chain", "chain", _any),
        ("tx_hash", "txHash", _any),
        ("log_index", "logIndex", _opt(_any)),
        ("kind", "kind", _any),
        ("block_number", "blockNumber", _any),
        ("block_hash", "blockHash", _any),
        ("time", "time", _any),
        ("timestamp", "timestamp", _any),
        ("exchange", "exchange", _any),
        ("direction", "direction", _any),
        ("asset", "asset", _any),
        ("token_address", "tokenAddress", _opt(_any)),
        ("amount", "amount", _any),
        ("usd_value", "usdValue", _opt(_num)),
        ("from_", "from", _obj("OnchainFlowFrom")),
        ("to", "to", _obj("OnchainFlowTo")),
        ("label_version", "labelVersion", _opt(_any)),
    )


@dataclass
class OnchainFlowEventDataRuleCondition1(_Model):
    """OnchainFlowEventDataRuleCondition1"""

    horizon: Literal["15m", "1h", "6h"]  # The forecast horizon whose datapoints are read
    level: float  # The price level (quote currency)
    kind: Literal["end_above", "touch"]  # end_above: the price ends above level at the horizon; touch: it reaches level before the horizon
    op: Literal["above", "below"]  # above: the probability is above value; below: under it
    value: float  # The probability threshold, 0–1, compared with each newly published datapoint of the symbol at the ho
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("horizon", "horizon", _any),
        ("level", "level", _num),
        ("kind", "kind", _any),
        ("op", "op", _any),
        ("value", "value", _num),
    )


@dataclass
class OnchainFlowEventDataRuleCondition2(_Model):
    """OnchainFlowEventDataRuleCondition2"""

    op: Literal["crosses_above", "crosses_below", "above", "below", "change_pct"]
    value: float  # A price in quote currency; for change_pct a percent (negative = a fall of more than it)
    window: Optional[Literal["5m", "15m", "1h", "24h"]] = None  # change_pct only: the window the change is measured over
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("op", "op", _any),
        ("value", "value", _num),
        ("window", "window", _any),
    )


@dataclass
class OnchainFlowEventDataRuleCondition3(_Model):
    """OnchainFlowEventDataRuleCondition3"""

    op: Literal["above"]
    value: float  # Quote volume (USD) over the window
    window: Literal["5m", "15m", "1h", "24h"]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("op", "op", _any),
        ("value", "value", _num),
        ("window", "window", _any),
    )


@dataclass
class OnchainFlowEventDataRuleCondition4(_Model):
    """OnchainFlowEventDataRuleCondition4"""

    direction: Literal["in", "out", "any"]  # in: into the exchange or address; out: out of it; any: either
    min_usd: float  # USD: a single transfer, or the windowed sum, of at least this
    exchange: Optional[str] = None  # binance, okx, … (aliases)
    address: Optional[str] = None  # A 0x address (either party of a flow)
    label: Optional[str] = None  # Id of one of the account's private labels (POST /api/labels): the rule watches its address
    asset: Optional[str] = None  # ETH, USDT, … (absent: any)
    window: Optional[Literal["5m", "15m", "1h", "24h"]] = None  # Absent: each single transfer; present: the sum over the window
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("direction", "direction", _any),
        ("min_usd", "minUsd", _num),
        ("exchange", "exchange", _any),
        ("address", "address", _any),
        ("label", "label", _any),
        ("asset", "asset", _any),
        ("window", "window", _any),
    )


@dataclass
class OnchainFlowEventDataRuleCondition5(_Model):
    """OnchainFlowEventDataRuleCondition5"""

    op: Literal["above", "below"]  # above: the rate is above value; below: under it
    value: float  # Annualized percent, simple: rate × (8760 / intervalHours) × 100 (10.95 = 0.01 % per 8 h); negative: 
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("op", "op", _any),
        ("value", "value", _num),
    )


@dataclass
class OnchainFlowEventDataRuleCondition6(_Model):
    """OnchainFlowEventDataRuleCondition6"""

    op: Literal["above", "below"]  # above: the change is above value; below: under it
    value: float  # Percent change of open interest (USD) over the window; negative = a fall
    window: Literal["1h", "4h", "24h"]  # The change is measured against the value this long ago
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("op", "op", _any),
        ("value", "value", _num),
        ("window", "window", _any),
    )


@dataclass
class OnchainFlowEventDataRuleCondition7(_Model):
    """OnchainFlowEventDataRuleCondition7"""

    op: Literal["above"]
    value: float  # USD liquidated over the window
    side: Literal["long", "short", "any"]  # long: longs closed (a fall); short: shorts closed (a rise); any: both
    window: Literal["1h", "4h", "24h"]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("op", "op", _any),
        ("value", "value", _num),
        ("side", "side", _any),
        ("window", "window", _any),
    )


@dataclass
class OnchainFlowEventDataRuleTrigger(_Model):
    """OnchainFlowEventDataRuleTrigger"""

    mode: Literal["once", "every"]
    cooldown_sec: int
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("mode", "mode", _any),
        ("cooldown_sec", "cooldownSec", _any),
    )


@dataclass
class OnchainFlowEventDataRuleChannels(_Model):
    """OnchainFlowEventDataRuleChannels"""

    webhook_ids: List[str]
    events: bool
    channel_ids: Optional[List[str]] = None
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("webhook_ids", "webhookIds", _list(_any)),
        ("events", "events", _any),
        ("channel_ids", "channelIds", _list(_any)),
    )


@dataclass
class OnchainFlowEventDataRule(_Model):
    """OnchainFlowEventDataRule"""

    id: str
    name: str
    type: Literal["price", "volume", "address_flow", "funding", "open_interest", "liquidations", "probability"]
    condition: Union[OnchainFlowEventDataRuleCondition1, OnchainFlowEventDataRuleCondition2, OnchainFlowEventDataRuleCondition3, OnchainFlowEventDataRuleCondition4, OnchainFlowEventDataRuleCondition5, OnchainFlowEventDataRuleCondition6, OnchainFlowEventDataRuleCondition7]
    trigger: OnchainFlowEventDataRuleTrigger
    channels: OnchainFlowEventDataRuleChannels
    symbol: Optional[str] = None
    template: Optional[Optional[str]] = None
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("id", "id", _any),
        ("name", "name", _any),
        ("type", "type", _any),
        ("condition", "condition", _any),
        ("trigger", "trigger", _obj("OnchainFlowEventDataRuleTrigger")),
        ("channels", "channels", _obj("OnchainFlowEventDataRuleChannels")),
        ("symbol", "symbol", _any),
        ("template", "template", _opt(_any)),
    )


@dataclass
class OnchainFlowEventDataTrigger(_Model):
    """OnchainFlowEventDataTrigger"""

    id: str  # trg_…
    fired_at: str  # When the evaluator fired
    event_at: Optional[str] = None  # Time of the market or chain event
    key: Optional[str] = None  # The event key: unique per rule (exactly once)
    value: Optional[float] = None  # The observed value: price, change %, quote volume, USD, probability
    test: Optional[bool] = None
    replaces_trigger: Optional[str] = None
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("id", "id", _any),
        ("fired_at", "firedAt", _any),
        ("event_at", "eventAt", _any),
        ("key", "key", _any),
        ("value", "value", _num),
        ("test", "test", _any),
        ("replaces_trigger", "replacesTrigger", _any),
    )


@dataclass
class OnchainFlowEventDataWindow(_Model):
    """OnchainFlowEventDataWindow"""

    window: Literal["5m", "15m", "1h", "24h"]
    sum_usd: float
    flows: int
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("window", "window", _any),
        ("sum_usd", "sumUsd", _num),
        ("flows", "flows", _any),
    )


@dataclass
class OnchainFlowEventData(_Model):
    """OnchainFlowEventData"""

    status: Literal["confirmed", "removed"]  # removed: a reorg took away the flow of an earlier event
    rule: OnchainFlowEventDataRule
    trigger: OnchainFlowEventDataTrigger
    replaces: Optional[str] = None  # removed only: the evt_… id of the retracted event
    flow: Optional[Dict[str, Any]] = None  # The flow as GET /api/onchain/flows shows it
    window: Optional[OnchainFlowEventDataWindow] = None
    removed_flow_id: Optional[str] = None
    reason: Optional[str] = None
    note: Optional[str] = None
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("status", "status", _any),
        ("rule", "rule", _obj("OnchainFlowEventDataRule")),
        ("trigger", "trigger", _obj("OnchainFlowEventDataTrigger")),
        ("replaces", "replaces", _any),
        ("flow", "flow", _any),
        ("window", "window", _obj("OnchainFlowEventDataWindow")),
        ("removed_flow_id", "removedFlowId", _any),
        ("reason", "reason", _any),
        ("note", "note", _any),
    )


@dataclass
class OnchainFlowEvent(_Model):
    """An address_flow rule fired (event type onchain.flow), or its follow-up after a reorg"""

    id: str  # evt_… — also the webhook-id header
    type: Literal["onchain.flow"]
    version: Literal[1]
    timestamp: str
    test: bool  # true for POST /api/alerts/:id/test
    data: OnchainFlowEventData
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("id", "id", _any),
        ("type", "type", _any),
        ("version", "version", _any),
        ("timestamp", "timestamp", _any),
        ("test", "test", _any),
        ("data", "data", _obj("OnchainFlowEventData")),
    )


@dataclass
class OpenInterestAlertRuleInputCondition(_Model):
    """OpenInterestAlertRuleInputCondition"""

    op: Literal["above", "below"]  # above: the change is above value; below: under it
    value: float  # Percent change of open interest (USD) over the window; negative = a fall
    window: Literal["1h", "4h", "24h"]  # The change is measured against the value this long ago
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("op", "op", _any),
        ("value", "value", _num),
        ("window", "window", _any),
    )


@dataclass
class OpenInterestAlertRuleInputTrigger(_Model):
    """OpenInterestAlertRuleInputTrigger"""

    mode: Optional[Literal["once", "every"]] = None  # once (default): fire once, then triggered; every: each time
    cooldown_sec: Optional[int] = None  # every: quiet time after a firing (default 300)
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("mode", "mode", _any),
        ("cooldown_sec", "cooldownSec", _any),
    )


@dataclass
class OpenInterestAlertRuleInputChannels(_Model):
    """OpenInterestAlertRuleInputChannels"""

    webhook_ids: Optional[List[str]] = None  # Endpoints to deliver to; empty: every endpoint of the account subscribed to the event type
    channel_ids: Optional[List[str]] = None  # Alert channels (email, Telegram, Discord, Slack) that receive its messages
    events: Optional[bool] = None  # Carry the events on the /events stream (default true)
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("webhook_ids", "webhookIds", _list(_any)),
        ("channel_ids", "channelIds", _list(_any)),
        ("events", "events", _any),
    )


@dataclass
class OpenInterestAlertRuleInput(_Model):
    """OpenInterestAlertRuleInput"""

    type: Literal["open_interest"]
    symbol: str  # Any accepted spelling: btc, BTC/USDT, …
    condition: OpenInterestAlertRuleInputCondition
    name: Optional[str] = None
    trigger: Optional[OpenInterestAlertRuleInputTrigger] = None
    expires_at: Optional[Optional[str]] = None
    channels: Optional[OpenInterestAlertRuleInputChannels] = None
    template: Optional[Optional[str]] = None
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("type", "type", _any),
        ("symbol", "symbol", _any),
        ("condition", "condition", _obj("OpenInterestAlertRuleInputCondition")),
        ("name", "name", _any),
        ("trigger", "trigger", _obj("OpenInterestAlertRuleInputTrigger")),
        ("expires_at", "expiresAt", _opt(_any)),
        ("channels", "channels", _obj("OpenInterestAlertRuleInputChannels")),
        ("template", "template", _opt(_any)),
    )


@dataclass
class Organization(_Model):
    """Organization"""

    id: str
    name: str
    plan: Union[Literal["standard"], Literal["pro"]]
    personal: bool  # The user's own organization: one member, no invitations
    require_two_factor: bool  # Members must have two-factor sign-in on to act in it
    role: Union[Literal["owner"], Literal["admin"], Literal["member"], Literal["viewer"]]
    created_at: str
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("id", "id", _any),
        ("name", "name", _any),
        ("plan", "plan", _any),
        ("personal", "personal", _any),
        ("require_two_factor", "requireTwoFactor", _any),
        ("role", "role", _any),
        ("created_at", "createdAt", _any),
    )


@dataclass
class OrganizationMember(_Model):
    """OrganizationMember"""

    user_id: str
    email: str
    role: Union[Literal["owner"], Literal["admin"], Literal["member"], Literal["viewer"]]
    joined_at: str
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("user_id", "userId", _any),
        ("email", "email", _any),
        ("role", "role", _any),
        ("joined_at", "joinedAt", _any),
    )


@dataclass
class OutlookBatch(_Model):
    """symbols=…: one entry per distinct symbol, in the order given"""

    data: List[Union[OutlookEntry, OutlookEntryError]]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("data", "data", _list(_any)),
    )

    def to_records(self) -> List[Dict[str, Any]]:
        """The `data` rows as plain dicts with the JSON field names (`pandas.DataFrame.from_records`)."""
        return [_plain(row) for row in self.data]


@dataclass
class OutlookEntryOutlookHorizonsValueInterval80Pct(_Model):
    """The 80 % interval (p10…p90) as % moves from the baseline (market-wide: mean over symbols)"""

    low: float
    high: float
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("low", "low", _num),
        ("high", "high", _num),
    )


@dataclass
class OutlookEntryOutlookHorizonsValue(_Model):
    """OutlookEntryOutlookHorizonsValue"""

    bias: Literal["bullish", "bearish", "neutral"]  # bullish or bearish only where the direction passed its evidence test (directionEarned)
    score: float
    expected_move_pct: float
    confidence: float
    direction_earned: bool  # The forecast's direction passed its evidence test: its mean is non-zero only because a member's walk
    interval80_pct: OutlookEntryOutlookHorizonsValueInterval80Pct  # The 80 % interval (p10…p90) as % moves from the baseline (market-wide: mean over symbols)
    message: str  # What this horizon says, in one sentence
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("bias", "bias", _any),
        ("score", "score", _num),
        ("expected_move_pct", "expectedMovePct", _num),
        ("confidence", "confidence", _num),
        ("direction_earned", "directionEarned", _any),
        ("interval80_pct", "interval80Pct", _obj("OutlookEntryOutlookHorizonsValueInterval80Pct")),
        ("message", "message", _any),
    )


@dataclass
class OutlookEntryOutlookDriversItem(_Model):
    """OutlookEntryOutlookDriversItem"""

    factor: str
    direction: Literal["bullish", "bearish", "neutral"]
    weight: float
    reason: str  # What the factor's inputs read now, with units (funding % per 8 h, realized volatility against its me
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("factor", "factor", _any),
        ("direction", "direction", _any),
        ("weight", "weight", _num),
        ("reason", "reason", _any),
    )


@dataclass
class OutlookEntryOutlookGapsItem(_Model):
    """OutlookEntryOutlookGapsItem"""

    from_: str  # The last refresh before the outage.
    to: str  # The first refresh after it.
    missed_points: int  # Refresh points with no datapoint in between.
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("from_", "from", _any),
        ("to", "to", _any),
        ("missed_points", "missedPoints", _any),
    )


@dataclass
class OutlookEntryOutlook(_Model):
    """OutlookEntryOutlook"""

    symbol: Optional[str]
    bias: Literal["bullish", "bearish", "neutral"]
    score: float
    confidence: float
    message: str  # One sentence: the bias where the record earns a direction, else neutral with the 1h 80 % interval
    horizons: Dict[str, OutlookEntryOutlookHorizonsValue]
    drivers: List[OutlookEntryOutlookDriversItem]
    model_version: str
    generated_at: str
    gaps: List[OutlookEntryOutlookGapsItem]  # Outages of the model refresh in the last 30 days (as in the performance report)
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("symbol", "symbol", _opt(_any)),
        ("bias", "bias", _any),
        ("score", "score", _num),
        ("confidence", "confidence", _num),
        ("message", "message", _any),
        ("horizons", "horizons", _map(_obj("OutlookEntryOutlookHorizonsValue"))),
        ("drivers", "drivers", _list(_obj("OutlookEntryOutlookDriversItem"))),
        ("model_version", "modelVersion", _any),
        ("generated_at", "generatedAt", _any),
        ("gaps", "gaps", _list(_obj("OutlookEntryOutlookGapsItem"))),
    )


@dataclass
class OutlookEntry(_Model):
    """OutlookEntry"""

    requested: str  # The entry as sent
    symbol: str  # The supported symbol it was normalized to
    source: str  # What the forecasts are made from: simulated, replay or ccxt:<venues>
    as_of: Optional[str]  # The newest datapoint this outlook summarizes (the data's own clock); null before the first
    stale: bool  # asOf is older than 2.5 refresh periods now (or absent)
    backfilling: bool  # The symbol's model is still warming up
    outlook: OutlookEntryOutlook
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("requested", "requested", _any),
        ("symbol", "symbol", _any),
        ("source", "source", _any),
        ("as_of", "asOf", _opt(_any)),
        ("stale", "stale", _any),
        ("backfilling", "backfilling", _any),
        ("outlook", "outlook", _obj("OutlookEntryOutlook")),
    )


@dataclass
class OutlookEntryErrorError(_Model):
    """Why this entry has no outlook (the problem it would get on its own, with strict)"""

    status: int
    code: str
    title: str
    detail: str
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("status", "status", _any),
        ("code", "code", _any),
        ("title", "title", _any),
        ("detail", "detail", _any),
    )


@dataclass
class OutlookEntryError(_Model):
    """OutlookEntryError"""

    requested: str  # The entry as sent
    symbol: Any
    error: OutlookEntryErrorError  # Why this entry has no outlook (the problem it would get on its own, with strict)
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("requested", "requested", _any),
        ("symbol", "symbol", _any),
        ("error", "error", _obj("OutlookEntryErrorError")),
    )


@dataclass
class PortfolioHoldingsItem(_Model):
    """PortfolioHoldingsItem"""

    asset: str
    quantity: str  # Exact sum of the rows
    rows: int
    price: Optional[float]  # Merged market mid in USD; null when unpriced
    price_as_of: Optional[str]
    value_usd: Optional[str]  # USD, decimal string rounded to the cent
    cost_basis_usd: Optional[str]  # null when a row has no cost basis
    unrealized_pnl_usd: Optional[str]  # USD, decimal string rounded to the cent
    unrealized_pnl_pct: Optional[float]
    allocation_pct: Optional[float]
    change24h_pct: Optional[float]
    change24h_usd: Optional[str]  # USD, decimal string rounded to the cent
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("asset", "asset", _any),
        ("quantity", "quantity", _any),
        ("rows", "rows", _any),
        ("price", "price", _opt(_num)),
        ("price_as_of", "priceAsOf", _opt(_any)),
        ("value_usd", "valueUsd", _opt(_any)),
        ("cost_basis_usd", "costBasisUsd", _opt(_any)),
        ("unrealized_pnl_usd", "unrealizedPnlUsd", _opt(_any)),
        ("unrealized_pnl_pct", "unrealizedPnlPct", _opt(_num)),
        ("allocation_pct", "allocationPct", _opt(_num)),
        ("change24h_pct", "change24hPct", _opt(_num)),
        ("change24h_usd", "change24hUsd", _opt(_any)),
    )


@dataclass
class PortfolioTotals(_Model):
    """PortfolioTotals"""

    value_usd: str  # Sum over priced holdings
    cost_basis_usd: str  # Over holdings with a price and a full cost basis
    unrealized_pnl_usd: str
    unrealized_pnl_pct: Optional[float]
    change24h_usd: str
    change24h_pct: Optional[float]
    unpriced_assets: List[str]  # Held but not valued (never counted as 0)
    assets_without_cost: List[str]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("value_usd", "valueUsd", _any),
        ("cost_basis_usd", "costBasisUsd", _any),
        ("unrealized_pnl_usd", "unrealizedPnlUsd", _any),
        ("unrealized_pnl_pct", "unrealizedPnlPct", _opt(_num)),
        ("change24h_usd", "change24hUsd", _any),
        ("change24h_pct", "change24hPct", _opt(_num)),
        ("unpriced_assets", "unpricedAssets", _list(_any)),
        ("assets_without_cost", "assetsWithoutCost", _list(_any)),
    )


@dataclass
class Portfolio(_Model):
    """Portfolio"""

    holdings: List[PortfolioHoldingsItem]
    totals: PortfolioTotals
    as_of: str
    price_source: str  # The market source prices come from: simulated, replay or ccxt
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("holdings", "holdings", _list(_obj("PortfolioHoldingsItem"))),
        ("totals", "totals", _obj("PortfolioTotals")),
        ("as_of", "asOf", _any),
        ("price_source", "priceSource", _any),
    )


@dataclass
class PortfolioImportResult(_Model):
    """PortfolioImportResult"""

    import_id: Optional[str]  # null for a dry run
    inserted: int
    updated: int
    unchanged: int
    rows: int
    dry_run: bool
    format: Union[Literal["json"], Literal["csv"]]
    ignored_columns: Optional[List[str]] = None  # CSV columns that map to no field
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("import_id", "importId", _opt(_any)),
        ("inserted", "inserted", _any),
        ("updated", "updated", _any),
        ("unchanged", "unchanged", _any),
        ("rows", "rows", _any),
        ("dry_run", "dryRun", _any),
        ("format", "format", _any),
        ("ignored_columns", "ignoredColumns", _list(_any)),
    )


@dataclass
class PredictionDatapointFactors(_Model):
    """Signed share of the forecast return per factor; Σ|f| = 1, all 0 for a flat forecast"""

    orderflow: float
    funding: float
    macro: float
    ai_residual: float
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("orderflow", "orderflow", _num),
        ("funding", "funding", _num),
        ("macro", "macro", _num),
        ("ai_residual", "ai_residual", _num),
    )


@dataclass
class PredictionDatapointQuantiles(_Model):
    """include=quantiles: p05…p95 of the forecast price (adaptive conformal)"""

    p05: float
    p10: float
    p15: float
    p20: float
    p25: float
    p30: float
    p35: float
    p40: float
    p45: float
    p50: float
    p55: float
    p60: float
    p65: float
    p70: float
    p75: float
    p80: float
    p85: float
    p90: float
    p95: float
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("p05", "p05", _num),
        ("p10", "p10", _num),
        ("p15", "p15", _num),
        ("p20", "p20", _num),
        ("p25", "p25", _num),
        ("p30", "p30", _num),
        ("p35", "p35", _num),
        ("p40", "p40", _num),
        ("p45", "p45", _num),
        ("p50", "p50", _num),
        ("p55", "p55", _num),
        ("p60", "p60", _num),
        ("p65", "p65", _num),
        ("p70", "p70", _num),
        ("p75", "p75", _num),
        ("p80", "p80", _num),
        ("p85", "p85", _num),
        ("p90", "p90", _num),
        ("p95", "p95", _num),
    )


@dataclass
class PredictionDatapointOutcome(_Model):
    """PredictionDatapointOutcome"""

    realized: float
    hit: bool
    scored_at: str
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("realized", "realized", _num),
        ("hit", "hit", _any),
        ("scored_at", "scoredAt", _any),
    )


@dataclass
class PredictionDatapoint(_Model):
    """PredictionDatapoint"""

    symbol: str
    horizon: Literal["15m", "1h", "6h"]
    prediction: float  # Median forecast price at generatedAt + horizon, quote currency
    baseline: float  # Merged mid price at generatedAt
    expected_move_pct: float  # 100 × (prediction − baseline) / baseline
    confidence: float  # Calibrated probability that the price at generatedAt + horizon is on the predicted side
    factors: PredictionDatapointFactors  # Signed share of the forecast return per factor; Σ|f| = 1, all 0 for a flat forecast
    generated_at: str
    quantiles: Optional[PredictionDatapointQuantiles] = None  # include=quantiles: p05…p95 of the forecast price (adaptive conformal)
    outcome: Optional[Optional[PredictionDatapointOutcome]] = None
    model_version: Optional[str] = None
    backfilled: Optional[bool] = None  # include=backfilled: true when the datapoint was made after the fact (walk-forward over stored candle
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("symbol", "symbol", _any),
        ("horizon", "horizon", _any),
        ("prediction", "prediction", _num),
        ("baseline", "baseline", _num),
        ("expected_move_pct", "expectedMovePct", _num),
        ("confidence", "confidence", _num),
        ("factors", "factors", _obj("PredictionDatapointFactors")),
        ("generated_at", "generatedAt", _any),
        ("quantiles", "quantiles", _obj("PredictionDatapointQuantiles")),
        ("outcome", "outcome", _opt(_obj("PredictionDatapointOutcome"))),
        ("model_version", "modelVersion", _any),
        ("backfilled", "backfilled", _any),
    )


@dataclass
class PreviewAlertTemplateRequestRule(_Model):
    """PreviewAlertTemplateRequestRule"""

    name: Optional[str] = None
    symbol: Optional[str] = None
    condition: Optional[Dict[str, Any]] = None  # The rule's condition as it would be saved
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("name", "name", _any),
        ("symbol", "symbol", _any),
        ("condition", "condition", _map(_any)),
    )


@dataclass
class PreviewAlertTemplateRequest(_Model):
    """PreviewAlertTemplateRequest"""

    template: Optional[str] = None  # The template being edited; absent: the rule type's default
    rule_type: Optional[str] = None  # price (default), volume, address_flow, …
    rule: Optional[PreviewAlertTemplateRequestRule] = None
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("template", "template", _any),
        ("rule_type", "ruleType", _any),
        ("rule", "rule", _obj("PreviewAlertTemplateRequestRule")),
    )


@dataclass
class PriceAlertRuleInputCondition(_Model):
    """PriceAlertRuleInputCondition"""

    op: Literal["crosses_above", "crosses_below", "above", "below", "change_pct"]
    value: float  # A price in quote currency; for change_pct a percent (negative = a fall of more than it)
    window: Optional[Literal["5m", "15m", "1h", "24h"]] = None  # change_pct only: the window the change is measured over
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("op", "op", _any),
        ("value", "value", _num),
        ("window", "window", _any),
    )


@dataclass
class PriceAlertRuleInputTrigger(_Model):
    """PriceAlertRuleInputTrigger"""

    mode: Optional[Literal["once", "every"]] = None  # once (default): fire once, then triggered; every: each time
    cooldown_sec: Optional[int] = None  # every: quiet time after a firing (default 300)
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("mode", "mode", _any),
        ("cooldown_sec", "cooldownSec", _any),
    )


@dataclass
class PriceAlertRuleInputChannels(_Model):
    """PriceAlertRuleInputChannels"""

    webhook_ids: Optional[List[str]] = None  # Endpoints to deliver to; empty: every endpoint of the account subscribed to the event type
    channel_ids: Optional[List[str]] = None  # Alert channels (email, Telegram, Discord, Slack) that receive its messages
    events: Optional[bool] = None  # Carry the events on the /events stream (default true)
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("webhook_ids", "webhookIds", _list(_any)),
        ("channel_ids", "channelIds", _list(_any)),
        ("events", "events", _any),
    )


@dataclass
class PriceAlertRuleInput(_Model):
    """PriceAlertRuleInput"""

    type: Literal["price"]
    symbol: str  # Any accepted spelling: btc, BTC/USDT, …
    condition: PriceAlertRuleInputCondition
    name: Optional[str] = None
    trigger: Optional[PriceAlertRuleInputTrigger] = None
    expires_at: Optional[Optional[str]] = None
    channels: Optional[PriceAlertRuleInputChannels] = None
    template: Optional[Optional[str]] = None
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("type", "type", _any),
        ("symbol", "symbol", _any),
        ("condition", "condition", _obj("PriceAlertRuleInputCondition")),
        ("name", "name", _any),
        ("trigger", "trigger", _obj("PriceAlertRuleInputTrigger")),
        ("expires_at", "expiresAt", _opt(_any)),
        ("channels", "channels", _obj("PriceAlertRuleInputChannels")),
        ("template", "template", _opt(_any)),
    )


@dataclass
class PrivateLabel(_Model):
    """PrivateLabel"""

    id: str
    kind: Literal["exchange", "fund", "wallet"]  # exchange: an exchange wallet; fund: a fund’s wallet; wallet: a wallet the account watches
    chain: str
    address: str  # Lower case
    name: str
    created_at: str
    updated_at: str
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("id", "id", _any),
        ("kind", "kind", _any),
        ("chain", "chain", _any),
        ("address", "address", _any),
        ("name", "name", _any),
        ("created_at", "createdAt", _any),
        ("updated_at", "updatedAt", _any),
    )


@dataclass
class ProbabilityAlertRuleInputCondition(_Model):
    """ProbabilityAlertRuleInputCondition"""

    horizon: Literal["15m", "1h", "6h"]  # The forecast horizon whose datapoints are read
    level: float  # The price level (quote currency)
    kind: Literal["end_above", "touch"]  # end_above: the price ends above level at the horizon; touch: it reaches level before the horizon
    op: Literal["above", "below"]  # above: the probability is above value; below: under it
    value: float  # The probability threshold, 0–1, compared with each newly published datapoint of the symbol at the ho
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("horizon", "horizon", _any),
        ("level", "level", _num),
        ("kind", "kind", _any),
        ("op", "op", _any),
        ("value", "value", _num),
    )


@dataclass
class ProbabilityAlertRuleInputTrigger(_Model):
    """ProbabilityAlertRuleInputTrigger"""

    mode: Optional[Literal["once", "every"]] = None  # once (default): fire once, then triggered; every: each time
    cooldown_sec: Optional[int] = None  # every: quiet time after a firing (default 300)
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("mode", "mode", _any),
        ("cooldown_sec", "cooldownSec", _any),
    )


@dataclass
class ProbabilityAlertRuleInputChannels(_Model):
    """ProbabilityAlertRuleInputChannels"""

    webhook_ids: Optional[List[str]] = None  # Endpoints to deliver to; empty: every endpoint of the account subscribed to the event type
    channel_ids: Optional[List[str]] = None  # Alert channels (email, Telegram, Discord, Slack) that receive its messages
    events: Optional[bool] = None  # Carry the events on the /events stream (default true)
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("webhook_ids", "webhookIds", _list(_any)),
        ("channel_ids", "channelIds", _list(_any)),
        ("events", "events", _any),
    )


@dataclass
class ProbabilityAlertRuleInput(_Model):
    """ProbabilityAlertRuleInput"""

    type: Literal["probability"]
    symbol: str  # Any accepted spelling: btc, BTC/USDT, …
    condition: ProbabilityAlertRuleInputCondition
    name: Optional[str] = None
    trigger: Optional[ProbabilityAlertRuleInputTrigger] = None
    expires_at: Optional[Optional[str]] = None
    channels: Optional[ProbabilityAlertRuleInputChannels] = None
    template: Optional[Optional[str]] = None
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("type", "type", _any),
        ("symbol", "symbol", _any),
        ("condition", "condition", _obj("ProbabilityAlertRuleInputCondition")),
        ("name", "name", _any),
        ("trigger", "trigger", _obj("ProbabilityAlertRuleInputTrigger")),
        ("expires_at", "expiresAt", _opt(_any)),
        ("channels", "channels", _obj("ProbabilityAlertRuleInputChannels")),
        ("template", "template", _opt(_any)),
    )


@dataclass
class ProblemErrorsItem(_Model):
    """ProblemErrorsItem"""

    pointer: str
    message: str
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("pointer", "pointer", _any),
        ("message", "message", _any),
    )


@dataclass
class Problem(_Model):
    """RFC 9457 problem document"""

    type: str
    title: str
    status: int
    detail: str
    code: Literal["validation_failed", "unsupported_symbol", "unknown_exchange", "bad_request", "url_not_allowed", "unauthenticated", "invalid_token", "invalid_credentials", "invalid_code", "session_required", "forbidden", "csrf_rejected", "password_sign_in_disabled", "not_found", "route_not_found", "method_not_allowed", "request_timeout", "conflict", "alert_limit_reached", "token_expired", "token_limit_reached", "label_limit_reached", "channel_test_limit_reached", "idempotency_conflict", "idempotency_key_in_use", "payload_too_large", "unsupported_media_type", "misdirected_request", "unprocessable", "idempotency_key_reused", "upgrade_required", "headers_too_large", "rate_limited", "auth_rate_limited", "too_many_connections", "internal", "unavailable", "not_configured", "storage_unavailable"]
    request_id: str
    instance: str
    errors: Optional[List[ProblemErrorsItem]] = None
    supported: Optional[List[str]] = None  # unsupported_symbol: the symbols this server supports
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("type", "type", _any),
        ("title", "title", _any),
        ("status", "status", _any),
        ("detail", "detail", _any),
        ("code", "code", _any),
        ("request_id", "requestId", _any),
        ("instance", "instance", _any),
        ("errors", "errors", _list(_obj("ProblemErrorsItem"))),
        ("supported", "supported", _list(_any)),
    )


@dataclass
class RotateTokenResponse201(_Model):
    """RotateTokenResponse201"""

    token: str  # The secret. Shown once, never again: store it now.
    details: Token
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("token", "token", _any),
        ("details", "details", _obj("Token")),
    )


@dataclass
class RotateWebhookSecretResponse(_Model):
    """RotateWebhookSecretResponse"""

    id: str  # wh_…
    url: str
    events: List[Literal["alert.triggered", "onchain.flow", "alert.capped"]]
    description: Optional[str]
    status: Union[Literal["enabled"], Literal["disabled"]]  # disabled: the receiver answered 410 Gone; nothing more is sent to it
    disabled_reason: Optional[str]
    previous_secret_expires_at: Optional[str]  # After a rotation: until when the previous secret still signs (a second signature)
    created_at: str
    updated_at: str
    secret: str  # The signing secret (whsec_…). Shown in this answer only, never again: store it now.
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("id", "id", _any),
        ("url", "url", _any),
        ("events", "events", _list(_any)),
        ("description", "description", _opt(_any)),
        ("status", "status", _any),
        ("disabled_reason", "disabledReason", _opt(_any)),
        ("previous_secret_expires_at", "previousSecretExpiresAt", _opt(_any)),
        ("created_at", "createdAt", _any),
        ("updated_at", "updatedAt", _any),
        ("secret", "secret", _any),
    )


@dataclass
class SaveLabelRequest(_Model):
    """SaveLabelRequest"""

    kind: Literal["exchange", "fund", "wallet"]  # exchange: an exchange wallet; fund: a fund’s wallet; wallet: a wallet the account watches
    chain: str  # Chain name as the flows show it: ethereum, bsc, polygon, arbitrum, …
    address: str  # A 0x address (any case)
    name: str  # Shown in the account’s views
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("kind", "kind", _any),
        ("chain", "chain", _any),
        ("address", "address", _any),
        ("name", "name", _any),
    )


@dataclass
class TestAlertRuleResponse202(_Model):
    """TestAlertRuleResponse202"""

    event_id: str  # evt_… — the event appended to the account event log
    trigger_id: str  # trg_…
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("event_id", "eventId", _any),
        ("trigger_id", "triggerId", _any),
    )


@dataclass
class Token(_Model):
    """Token"""

    id: str
    name: str
    start: str  # The first characters of the secret, to tell tokens apart
    permissions: Optional[List[Literal["market:read", "onchain:read", "onchain:write", "predictions:read", "alerts:read", "alerts:write", "portfolio:read", "portfolio:write", "account:read", "users:manage"]]]  # null: all of the owner's permissions
    created_at: str
    last_used_at: Optional[str]  # Updated at most once a minute
    expires_at: Optional[str]
    revoked_at: Optional[str]
    status: Union[Literal["active"], Literal["expired"], Literal["revoked"]]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("id", "id", _any),
        ("name", "name", _any),
        ("start", "start", _any),
        ("permissions", "permissions", _opt(_list(_any))),
        ("created_at", "createdAt", _any),
        ("last_used_at", "lastUsedAt", _opt(_any)),
        ("expires_at", "expiresAt", _opt(_any)),
        ("revoked_at", "revokedAt", _opt(_any)),
        ("status", "status", _any),
    )


@dataclass
class TransferOrganizationRequest(_Model):
    """TransferOrganizationRequest"""

    user_id: str  # The member who becomes the owner
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("user_id", "userId", _any),
    )


@dataclass
class TwoFactorSecret(_Model):
    """TwoFactorSecret"""

    secret: str  # The TOTP secret (base32). Shown once, never again.
    uri: str  # The same secret as an otpauth:// URI, for an authenticator app
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("secret", "secret", _any),
        ("uri", "uri", _any),
    )


@dataclass
class TwoFactorStatus(_Model):
    """TwoFactorStatus"""

    enabled: bool
    required: bool  # The server requires two-factor sign-in for every password account
    recovery_codes_left: int  # Unused recovery codes (0 when two-factor is off)
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("enabled", "enabled", _any),
        ("required", "required", _any),
        ("recovery_codes_left", "recoveryCodesLeft", _any),
    )


@dataclass
class UpdateAlertRuleRequestCondition1(_Model):
    """UpdateAlertRuleRequestCondition1"""

    horizon: Literal["15m", "1h", "6h"]  # The forecast horizon whose datapoints are read
    level: float  # The price level (quote currency)
    kind: Literal["end_above", "touch"]  # end_above: the price ends above level at the horizon; touch: it reaches level before the horizon
    op: Literal["above", "below"]  # above: the probability is above value; below: under it
    value: float  # The probability threshold, 0–1, compared with each newly published datapoint of the symbol at the ho
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("horizon", "horizon", _any),
        ("level", "level", _num),
        ("kind", "kind", _any),
        ("op", "op", _any),
        ("value", "value", _num),
    )


@dataclass
class UpdateAlertRuleRequestCondition2(_Model):
    """UpdateAlertRuleRequestCondition2"""

    op: Literal["crosses_above", "crosses_below", "above", "below", "change_pct"]
    value: float  # A price in quote currency; for change_pct a percent (negative = a fall of more than it)
    window: Optional[Literal["5m", "15m", "1h", "24h"]] = None  # change_pct only: the window the change is measured over
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("op", "op", _any),
        ("value", "value", _num),
        ("window", "window", _any),
    )


@dataclass
class UpdateAlertRuleRequestCondition3(_Model):
    """UpdateAlertRuleRequestCondition3"""

    op: Literal["above"]
    value: float  # Quote volume (USD) over the window
    window: Literal["5m", "15m", "1h", "24h"]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("op", "op", _any),
        ("value", "value", _num),
        ("window", "window", _any),
    )


@dataclass
class UpdateAlertRuleRequestCondition4(_Model):
    """UpdateAlertRuleRequestCondition4"""

    direction: Literal["in", "out", "any"]  # in: into the exchange or address; out: out of it; any: either
    min_usd: float  # USD: a single transfer, or the windowed sum, of at least this
    exchange: Optional[str] = None  # binance, okx, … (aliases)
    address: Optional[str] = None  # A 0x address (either party of a flow)
    label: Optional[str] = None  # Id of one of the account's private labels (POST /api/labels): the rule watches its address
    asset: Optional[str] = None  # ETH, USDT, … (absent: any)
    window: Optional[Literal["5m", "15m", "1h", "24h"]] = None  # Absent: each single transfer; present: the sum over the window
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("direction", "direction", _any),
        ("min_usd", "minUsd", _num),
        ("exchange", "exchange", _any),
        ("address", "address", _any),
        ("label", "label", _any),
        ("asset", "asset", _any),
        ("window", "window", _any),
    )


@dataclass
class UpdateAlertRuleRequestCondition5(_Model):
    """UpdateAlertRuleRequestCondition5"""

    op: Literal["above", "below"]  # above: the rate is above value; below: under it
    value: float  # Annualized percent, simple: rate × (8760 / intervalHours) × 100 (10.95 = 0.01 % per 8 h); negative: 
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("op", "op", _any),
        ("value", "value", _num),
    )


@dataclass
class UpdateAlertRuleRequestCondition6(_Model):
    """UpdateAlertRuleRequestCondition6"""

    op: Literal["above", "below"]  # above: the change is above value; below: under it
    value: float  # Percent change of open interest (USD) over the window; negative = a fall
    window: Literal["1h", "4h", "24h"]  # The change is measured against the value this long ago
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("op", "op", _any),
        ("value", "value", _num),
        ("window", "window", _any),
    )


@dataclass
class UpdateAlertRuleRequestCondition7(_Model):
    """UpdateAlertRuleRequestCondition7"""

    op: Literal["above"]
    value: float  # USD liquidated over the window
    side: Literal["long", "short", "any"]  # long: longs closed (a fall); short: shorts closed (a rise); any: both
    window: Literal["1h", "4h", "24h"]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("op", "op", _any),
        ("value", "value", _num),
        ("side", "side", _any),
        ("window", "window", _any),
    )


@dataclass
class UpdateAlertRuleRequestTrigger(_Model):
    """UpdateAlertRuleRequestTrigger"""

    mode: Optional[Literal["once", "every"]] = None  # once (default): fire once, then triggered; every: each time
    cooldown_sec: Optional[int] = None  # every: quiet time after a firing (default 300)
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("mode", "mode", _any),
        ("cooldown_sec", "cooldownSec", _any),
    )


@dataclass
class UpdateAlertRuleRequestChannels(_Model):
    """UpdateAlertRuleRequestChannels"""

    webhook_ids: Optional[List[str]] = None  # Endpoints to deliver to; empty: every endpoint of the account subscribed to the event type
    channel_ids: Optional[List[str]] = None  # Alert channels (email, Telegram, Discord, Slack) that receive its messages
    events: Optional[bool] = None  # Carry the events on the /events stream (default true)
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("webhook_ids", "webhookIds", _list(_any)),
        ("channel_ids", "channelIds", _list(_any)),
        ("events", "events", _any),
    )


@dataclass
class UpdateAlertRuleRequest(_Model):
    """UpdateAlertRuleRequest"""

    name: Optional[str] = None
    state: Optional[Literal["active", "paused"]] = None  # paused: not evaluated; active: resume
    symbol: Optional[str] = None  # Any accepted spelling: btc, BTC/USDT, …
    condition: Optional[Union[UpdateAlertRuleRequestCondition1, UpdateAlertRuleRequestCondition2, UpdateAlertRuleRequestCondition3, UpdateAlertRuleRequestCondition4, UpdateAlertRuleRequestCondition5, UpdateAlertRuleRequestCondition6, UpdateAlertRuleRequestCondition7]] = None
    trigger: Optional[UpdateAlertRuleRequestTrigger] = None
    expires_at: Optional[Optional[str]] = None
    channels: Optional[UpdateAlertRuleRequestChannels] = None
    template: Optional[Optional[str]] = None
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("name", "name", _any),
        ("state", "state", _any),
        ("symbol", "symbol", _any),
        ("condition", "condition", _any),
        ("trigger", "trigger", _obj("UpdateAlertRuleRequestTrigger")),
        ("expires_at", "expiresAt", _opt(_any)),
        ("channels", "channels", _obj("UpdateAlertRuleRequestChannels")),
        ("template", "template", _opt(_any)),
    )


@dataclass
class UpdateOrganizationRequest(_Model):
    """UpdateOrganizationRequest"""

    name: Optional[str] = None
    require_two_factor: Optional[bool] = None
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("name", "name", _any),
        ("require_two_factor", "requireTwoFactor", _any),
    )


@dataclass
class VerifyAlertChannelRequest(_Model):
    """VerifyAlertChannelRequest"""

    code: str  # The 6-digit code emailed
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("code", "code", _any),
    )


@dataclass
class VolumeAlertRuleInputCondition(_Model):
    """VolumeAlertRuleInputCondition"""

    op: Literal["above"]
    value: float  # Quote volume (USD) over the window
    window: Literal["5m", "15m", "1h", "24h"]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("op", "op", _any),
        ("value", "value", _num),
        ("window", "window", _any),
    )


@dataclass
class VolumeAlertRuleInputTrigger(_Model):
    """VolumeAlertRuleInputTrigger"""

    mode: Optional[Literal["once", "every"]] = None  # once (default): fire once, then triggered; every: each time
    cooldown_sec: Optional[int] = None  # every: quiet time after a firing (default 300)
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("mode", "mode", _any),
        ("cooldown_sec", "cooldownSec", _any),
    )


@dataclass
class VolumeAlertRuleInputChannels(_Model):
    """VolumeAlertRuleInputChannels"""

    webhook_ids: Optional[List[str]] = None  # Endpoints to deliver to; empty: every endpoint of the account subscribed to the event type
    channel_ids: Optional[List[str]] = None  # Alert channels (email, Telegram, Discord, Slack) that receive its messages
    events: Optional[bool] = None  # Carry the events on the /events stream (default true)
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("webhook_ids", "webhookIds", _list(_any)),
        ("channel_ids", "channelIds", _list(_any)),
        ("events", "events", _any),
    )


@dataclass
class VolumeAlertRuleInput(_Model):
    """VolumeAlertRuleInput"""

    type: Literal["volume"]
    symbol: str  # Any accepted spelling: btc, BTC/USDT, …
    condition: VolumeAlertRuleInputCondition
    name: Optional[str] = None
    trigger: Optional[VolumeAlertRuleInputTrigger] = None
    expires_at: Optional[Optional[str]] = None
    channels: Optional[VolumeAlertRuleInputChannels] = None
    template: Optional[Optional[str]] = None
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("type", "type", _any),
        ("symbol", "symbol", _any),
        ("condition", "condition", _obj("VolumeAlertRuleInputCondition")),
        ("name", "name", _any),
        ("trigger", "trigger", _obj("VolumeAlertRuleInputTrigger")),
        ("expires_at", "expiresAt", _opt(_any)),
        ("channels", "channels", _obj("VolumeAlertRuleInputChannels")),
        ("template", "template", _opt(_any)),
    )


@dataclass
class Webhook(_Model):
    """Webhook"""

    id: str  # wh_…
    url: str
    events: List[Literal["alert.triggered", "onchain.flow", "alert.capped"]]
    description: Optional[str]
    status: Union[Literal["enabled"], Literal["disabled"]]  # disabled: the receiver answered 410 Gone; nothing more is sent to it
    disabled_reason: Optional[str]
    previous_secret_expires_at: Optional[str]  # After a rotation: until when the previous secret still signs (a second signature)
    created_at: str
    updated_at: str
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("id", "id", _any),
        ("url", "url", _any),
        ("events", "events", _list(_any)),
        ("description", "description", _opt(_any)),
        ("status", "status", _any),
        ("disabled_reason", "disabledReason", _opt(_any)),
        ("previous_secret_expires_at", "previousSecretExpiresAt", _opt(_any)),
        ("created_at", "createdAt", _any),
        ("updated_at", "updatedAt", _any),
    )


@dataclass
class WebhookDeliveryAttemptLogItem(_Model):
    """WebhookDeliveryAttemptLogItem"""

    attempt: int
    at: str
    outcome: Literal["delivered", "http_error", "gone", "redirect", "timeout", "refused", "network_error", "rate_limited"]
    status_code: Optional[int]
    latency_ms: int
    error: Optional[str]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("attempt", "attempt", _any),
        ("at", "at", _any),
        ("outcome", "outcome", _any),
        ("status_code", "statusCode", _opt(_any)),
        ("latency_ms", "latencyMs", _any),
        ("error", "error", _opt(_any)),
    )


@dataclass
class WebhookDelivery(_Model):
    """WebhookDelivery"""

    id: str  # msg_… — the webhook-id header of every attempt (stable across retries)
    webhook_id: str  # The endpoint: a webhook (wh_…) or an alert channel (ch_…)
    channel: Literal["webhook", "email", "telegram", "discord", "slack"]  # What the endpoint is: webhook, email, telegram, discord or slack
    event_id: str
    event_type: Literal["alert.triggered", "onchain.flow", "alert.capped"]
    rule_id: Optional[str]
    test: bool
    status: Union[Literal["pending"], Literal["delivered"], Literal["failed"], Literal["capped"]]  # capped: not sent, because the rule or the account reached its hourly message cap
    attempts: int
    next_attempt_at: Optional[str]
    last_error: Optional[str]
    created_at: str
    finished_at: Optional[str]
    attempt_log: List[WebhookDeliveryAttemptLogItem]
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("id", "id", _any),
        ("webhook_id", "webhookId", _any),
        ("channel", "channel", _any),
        ("event_id", "eventId", _any),
        ("event_type", "eventType", _any),
        ("rule_id", "ruleId", _opt(_any)),
        ("test", "test", _any),
        ("status", "status", _any),
        ("attempts", "attempts", _any),
        ("next_attempt_at", "nextAttemptAt", _opt(_any)),
        ("last_error", "lastError", _opt(_any)),
        ("created_at", "createdAt", _any),
        ("finished_at", "finishedAt", _opt(_any)),
        ("attempt_log", "attemptLog", _list(_obj("WebhookDeliveryAttemptLogItem"))),
    )


@dataclass
class LoginResponse1(_Model):
    """LoginResponse1"""

    step: Literal["done"]
    email: str
    role: str
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("step", "step", _any),
        ("email", "email", _any),
        ("role", "role", _any),
    )


@dataclass
class LoginResponse2(_Model):
    """LoginResponse2"""

    step: Union[Literal["code"], Literal["enrol"]]  # code: send a TOTP or recovery code to /auth/login/code; enrol: the server requires two-factor sign-i
    challenge: str  # Identifies this sign-in in the next step; valid 5 minutes
    expires_at: str
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("step", "step", _any),
        ("challenge", "challenge", _any),
        ("expires_at", "expiresAt", _any),
    )


@dataclass
class CheckOAuthAuthorizationResponse1Client(_Model):
    """CheckOAuthAuthorizationResponse1Client"""

    id: str
    name: str
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("id", "id", _any),
        ("name", "name", _any),
    )


@dataclass
class CheckOAuthAuthorizationResponse1(_Model):
    """CheckOAuthAuthorizationResponse1"""

    outcome: Literal["consent"]
    client: CheckOAuthAuthorizationResponse1Client
    scopes: List[str]
    redirect_uri: str
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("outcome", "outcome", _any),
        ("client", "client", _obj("CheckOAuthAuthorizationResponse1Client")),
        ("scopes", "scopes", _list(_any)),
        ("redirect_uri", "redirectUri", _any),
    )


@dataclass
class CheckOAuthAuthorizationResponse2(_Model):
    """CheckOAuthAuthorizationResponse2"""

    outcome: Literal["redirect"]
    redirect_to: str  # An error the client must hear, on its redirect URI
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("outcome", "outcome", _any),
        ("redirect_to", "redirectTo", _any),
    )


@dataclass
class GetAiOutlookResponse1HorizonsValueInterval80Pct(_Model):
    """The 80 % interval (p10…p90) as % moves from the baseline (market-wide: mean over symbols)"""

    low: float
    high: float
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("low", "low", _num),
        ("high", "high", _num),
    )


@dataclass
class GetAiOutlookResponse1HorizonsValue(_Model):
    """GetAiOutlookResponse1HorizonsValue"""

    bias: Literal["bullish", "bearish", "neutral"]  # bullish or bearish only where the direction passed its evidence test (directionEarned)
    score: float
    expected_move_pct: float
    confidence: float
    direction_earned: bool  # The forecast's direction passed its evidence test: its mean is non-zero only because a member's walk
    interval80_pct: GetAiOutlookResponse1HorizonsValueInterval80Pct  # The 80 % interval (p10…p90) as % moves from the baseline (market-wide: mean over symbols)
    message: str  # What this horizon says, in one sentence
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("bias", "bias", _any),
        ("score", "score", _num),
        ("expected_move_pct", "expectedMovePct", _num),
        ("confidence", "confidence", _num),
        ("direction_earned", "directionEarned", _any),
        ("interval80_pct", "interval80Pct", _obj("GetAiOutlookResponse1HorizonsValueInterval80Pct")),
        ("message", "message", _any),
    )


@dataclass
class GetAiOutlookResponse1DriversItem(_Model):
    """GetAiOutlookResponse1DriversItem"""

    factor: str
    direction: Literal["bullish", "bearish", "neutral"]
    weight: float
    reason: str  # What the factor's inputs read now, with units (funding % per 8 h, realized volatility against its me
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("factor", "factor", _any),
        ("direction", "direction", _any),
        ("weight", "weight", _num),
        ("reason", "reason", _any),
    )


@dataclass
class GetAiOutlookResponse1GapsItem(_Model):
    """GetAiOutlookResponse1GapsItem"""

    from_: str  # The last refresh before the outage.
    to: str  # The first refresh after it.
    missed_points: int  # Refresh points with no datapoint in between.
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("from_", "from", _any),
        ("to", "to", _any),
        ("missed_points", "missedPoints", _any),
    )


@dataclass
class GetAiOutlookResponse1(_Model):
    """GetAiOutlookResponse1"""

    symbol: Optional[str]
    bias: Literal["bullish", "bearish", "neutral"]
    score: float
    confidence: float
    message: str  # One sentence: the bias where the record earns a direction, else neutral with the 1h 80 % interval
    horizons: Dict[str, GetAiOutlookResponse1HorizonsValue]
    drivers: List[GetAiOutlookResponse1DriversItem]
    model_version: str
    generated_at: str
    gaps: List[GetAiOutlookResponse1GapsItem]  # Outages of the model refresh in the last 30 days (as in the performance report)
    _extra: Dict[str, Any] = field(default_factory=dict, repr=False)

    _FIELDS: ClassVar[Tuple[Tuple[str, str, Callable[[Any], Any]], ...]] = (
        ("symbol", "symbol", _opt(_any)),
        ("bias", "bias", _any),
        ("score", "score", _num),
        ("confidence", "confidence", _num),
        ("message", "message", _any),
        ("horizons", "horizons", _map(_obj("GetAiOutlookResponse1HorizonsValue"))),
        ("drivers", "drivers", _list(_obj("GetAiOutlookResponse1DriversItem"))),
        ("model_version", "modelVersion", _any),
        ("generated_at", "generatedAt", _any),
        ("gaps", "gaps", _list(_obj("GetAiOutlookResponse1GapsItem"))),
    )


class _Operations:
    """One method per API operation; query parameters are keyword-only (a misspelled one is a TypeError)."""

    def _call(self, method: str, path: str, query: Dict[str, Any], body: Any, convert: Callable[[Any], Any], headers: Optional[Dict[str, str]], csv_body: bool) -> Any:  # pragma: no cover - provided by the client
        raise NotImplementedError

    def login(self, body: Any, headers: Optional[Dict[str, str]] = None) -> ApiResponse[Union[LoginResponse1, LoginResponse2]]:
        """POST /auth/login: Sign in to the console: the session cookie, or the two-factor step it needs first"""
        return self._call("POST", "/auth/login", {}, body, _any, headers, False)

    def login_code(self, body: Any, headers: Optional[Dict[str, str]] = None) -> ApiResponse[LoginCodeResponse]:
        """POST /auth/login/code: Second sign-in step: a TOTP code or a recovery code (sets the session cookie)"""
        return self._call("POST", "/auth/login/code", {}, body, _obj("LoginCodeResponse"), headers, False)

    def login_enrol(self, body: Any, headers: Optional[Dict[str, str]] = None) -> ApiResponse[TwoFactorSecret]:
        """POST /auth/login/enrol: Required enrolment at sign-in: a new TOTP secret for the account (shown once)"""
        return self._call("POST", "/auth/login/enrol", {}, body, _obj("TwoFactorSecret"), headers, False)

    def login_enrol_confirm(self, body: Any, headers: Optional[Dict[str, str]] = None) -> ApiResponse[LoginEnrolConfirmResponse]:
        """POST /auth/login/enrol/confirm: Required enrolment at sign-in: the first code turns two-factor on and signs in"""
        return self._call("POST", "/auth/login/enrol/confirm", {}, body, _obj("LoginEnrolConfirmResponse"), headers, False)

    def logout(self, headers: Optional[Dict[str, str]] = None) -> ApiResponse[None]:
        """POST /auth/logout: Sign out of the console"""
        return self._call("POST", "/auth/logout", {}, None, _none, headers, False)

    def get_sign_in_methods(self, headers: Optional[Dict[str, str]] = None) -> ApiResponse[GetSignInMethodsResponse]:
        """GET /auth/methods: How to sign in to the console: password, single sign-on, or both"""
        return self._call("GET", "/auth/methods", {}, None, _obj("GetSignInMethodsResponse"), headers, False)

    def get_account(self, headers: Optional[Dict[str, str]] = None) -> ApiResponse[Account]:
        """GET /api/account: The signed-in account: email, role, plan, limits, permissions"""
        return self._call("GET", "/api/account", {}, None, _obj("Account"), headers, False)

    def list_tokens(self, *, limit: Optional[int] = None, cursor: Optional[str] = None, headers: Optional[Dict[str, str]] = None) -> ApiResponse[ListTokensResponse]:
        """GET /api/account/tokens: The account's API tokens, newest first, in pages (never their secrets)"""
        return self._call("GET", "/api/account/tokens", {"limit": limit, "cursor": cursor}, None, _obj("ListTokensResponse"), headers, False)

    def create_token(self, body: Any, headers: Optional[Dict[str, str]] = None) -> ApiResponse[CreateTokenResponse201]:
        """POST /api/account/tokens: Create an API token; the secret is in this response only"""
        return self._call("POST", "/api/account/tokens", {}, body, _obj("CreateTokenResponse201"), headers, False)

    def revoke_token(self, id: str, headers: Optional[Dict[str, str]] = None) -> ApiResponse[Token]:
        """DELETE /api/account/tokens/{id}: Revoke a token; its open push connections close within seconds"""
        return self._call("DELETE", _path("/api/account/tokens/{id}", {"id": id}), {}, None, _obj("Token"), headers, False)

    def rotate_token(self, id: str, headers: Optional[Dict[str, str]] = None) -> ApiResponse[RotateTokenResponse201]:
        """POST /api/account/tokens/{id}/rotate: Replace a token with a new secret (same name, permissions, expiry); the old one is revoked"""
        return self._call("POST", _path("/api/account/tokens/{id}/rotate", {"id": id}), {}, None, _obj("RotateTokenResponse201"), headers, False)

    def get_two_factor(self, headers: Optional[Dict[str, str]] = None) -> ApiResponse[TwoFactorStatus]:
        """GET /api/account/two-factor: Whether two-factor sign-in is on for this account, and recovery codes left"""
        return self._call("GET", "/api/account/two-factor", {}, None, _obj("TwoFactorStatus"), headers, False)

    def begin_two_factor(self, headers: Optional[Dict[str, str]] = None) -> ApiResponse[TwoFactorSecret]:
        """POST /api/account/two-factor: Start enrolment: a new TOTP secret, shown once; confirm it with a first code"""
        return self._call("POST", "/api/account/two-factor", {}, None, _obj("TwoFactorSecret"), headers, False)

    def confirm_two_factor(self, body: Any, headers: Optional[Dict[str, str]] = None) -> ApiResponse[ConfirmTwoFactorResponse]:
        """POST /api/account/two-factor/confirm: Finish enrolment with a first code; answers the recovery codes, shown once"""
        return self._call("POST", "/api/account/two-factor/confirm", {}, body, _obj("ConfirmTwoFactorResponse"), headers, False)

    def disable_two_factor(self, body: Any, headers: Optional[Dict[str, str]] = None) -> ApiResponse[None]:
        """POST /api/account/two-factor/disable: Turn two-factor sign-in off, proven by a current code or a recovery code"""
        return self._call("POST", "/api/account/two-factor/disable", {}, body, _none, headers, False)

    def list_organizations(self, headers: Optional[Dict[str, str]] = None) -> ApiResponse[ListOrganizationsResponse]:
        """GET /api/organizations: The organizations you belong to, your personal one first"""
        return self._call("GET", "/api/organizations", {}, None, _obj("ListOrganizationsResponse"), headers, False)

    def create_organization(self, body: Any, headers: Optional[Dict[str, str]] = None) -> ApiResponse[Organization]:
        """POST /api/organizations: Create an organization; you are its owner"""
        return self._call("POST", "/api/organizations", {}, body, _obj("Organization"), headers, False)

    def get_organization(self, id: str, headers: Optional[Dict[str, str]] = None) -> ApiResponse[Organization]:
        """GET /api/organizations/{id}: One organization you belong to (another answers 404)"""
        return self._call("GET", _path("/api/organizations/{id}", {"id": id}), {}, None, _obj("Organization"), headers, False)

    def update_organization(self, id: str, body: Any, headers: Optional[Dict[str, str]] = None) -> ApiResponse[Organization]:
        """PATCH /api/organizations/{id}: Rename an organization or require two-factor sign-in of its members (owner or admin)"""
        return self._call("PATCH", _path("/api/organizations/{id}", {"id": id}), {}, body, _obj("Organization"), headers, False)

    def list_organization_members(self, id: str, headers: Optional[Dict[str, str]] = None) -> ApiResponse[ListOrganizationMembersResponse]:
        """GET /api/organizations/{id}/members: The members of an organization and their roles"""
        return self._call("GET", _path("/api/organizations/{id}/members", {"id": id}), {}, None, _obj("ListOrganizationMembersResponse"), headers, False)

    def change_organization_member_role(self, id: str, user_id: str, body: Any, headers: Optional[Dict[str, str]] = None) -> ApiResponse[ChangeOrganizationMemberRoleResponse]:
        """PATCH /api/organizations/{id}/members/{userId}: Change a member's role; their tokens act with it from the next request"""
        return self._call("PATCH", _path("/api/organizations/{id}/members/{userId}", {"id": id, "userId": user_id}), {}, body, _obj("ChangeOrganizationMemberRoleResponse"), headers, False)

    def remove_organization_member(self, id: str, user_id: str, headers: Optional[Dict[str, str]] = None) -> ApiResponse[None]:
        """DELETE /api/organizations/{id}/members/{userId}: Remove a member (owner or admin), or leave (your own id); their tokens there are revoked"""
        return self._call("DELETE", _path("/api/organizations/{id}/members/{userId}", {"id": id, "userId": user_id}), {}, None, _none, headers, False)

    def transfer_organization(self, id: str, body: Any, headers: Optional[Dict[str, str]] = None) -> ApiResponse[Organization]:
        """POST /api/organizations/{id}/transfer: Hand ownership to another member (owner only); you stay as an admin"""
        return self._call("POST", _path("/api/organizations/{id}/transfer", {"id": id}), {}, body, _obj("Organization"), headers, False)

    def create_invitation(self, id: str, body: Any, headers: Optional[Dict[str, str]] = None) -> ApiResponse[CreateInvitationResponse201]:
        """POST /api/organizations/{id}/invitations: Invite someone by link (and by email when given); the secret is in this response only"""
        return self._call("POST", _path("/api/organizations/{id}/invitations", {"id": id}), {}, body, _obj("CreateInvitationResponse201"), headers, False)

    def list_invitations(self, id: str, headers: Optional[Dict[str, str]] = None) -> ApiResponse[ListInvitationsResponse]:
        """GET /api/organizations/{id}/invitations: Invitations not yet accepted (owner or admin; never their secrets)"""
        return self._call("GET", _path("/api/organizations/{id}/invitations", {"id": id}), {}, None, _obj("ListInvitationsResponse"), headers, False)

    def revoke_invitation(self, id: str, invitation_id: str, headers: Optional[Dict[str, str]] = None) -> ApiResponse[None]:
        """DELETE /api/organizations/{id}/invitations/{invitationId}: Withdraw an invitation: its link stops working"""
        return self._call("DELETE", _path("/api/organizations/{id}/invitations/{invitationId}", {"id": id, "invitationId": invitation_id}), {}, None, _none, headers, False)

    def accept_invitation(self, body: Any, headers: Optional[Dict[str, str]] = None) -> ApiResponse[Organization]:
        """POST /api/invitations/accept: Join an organization with an invitation's secret (once, before it expires)"""
        return self._call("POST", "/api/invitations/accept", {}, body, _obj("Organization"), headers, False)

    def list_audit_log(self, *, action: Optional[Literal["auth.sign_in", "auth.sign_out", "auth.two_factor", "token.create", "token.rotate", "token.revoke", "user.create", "user.role_change", "user.plan_change", "two_factor.enrol", "two_factor.disable", "two_factor.recovery_code_use", "webhook.create", "webhook.rotate", "webhook.delete", "channel.create", "channel.verify", "channel.test", "channel.delete", "alert_rule.delete", "label.delete", "portfolio.import", "portfolio.row_delete", "portfolio.delete", "oauth.client_create", "oauth.client_delete", "oauth.grant", "oauth.grant_revoke", "organization.create", "organization.update", "organization.plan_change", "organization.invite", "organization.invitation_revoke", "organization.join", "organization.member_role_change", "organization.member_remove", "organization.leave", "organization.transfer"]] = None, actor: Optional[str] = None, from_: Optional[str] = None, to: Optional[str] = None, limit: Optional[int] = None, cursor: Optional[str] = None, format: Optional[Union[Literal["json"], Literal["jsonl"]]] = None, headers: Optional[Dict[str, str]] = None) -> ApiResponse[ListAuditLogResponse]:
        """GET /api/audit-log: Security-relevant actions, newest first (admins); filters, cursor pages, a JSON-lines export"""
        return self._call("GET", "/api/audit-log", {"action": action, "actor": actor, "from": from_, "to": to, "limit": limit, "cursor": cursor, "format": format}, None, _obj("ListAuditLogResponse"), headers, False)

    def get_o_auth_server_metadata(self, headers: Optional[Dict[str, str]] = None) -> ApiResponse[GetOAuthServerMetadataResponse]:
        """GET /.well-known/oauth-authorization-server: OAuth 2.0 authorization server metadata (RFC 8414)"""
        return self._call("GET", "/.well-known/oauth-authorization-server", {}, None, _obj("GetOAuthServerMetadataResponse"), headers, False)

    def oauth_token(self, body: Any, headers: Optional[Dict[str, str]] = None) -> ApiResponse[OauthTokenResponse]:
        """POST /oauth/token: Exchange an authorization code (PKCE) or a refresh token for tokens (RFC 6749 §3.2)"""
        return self._call("POST", "/oauth/token", {}, body, _obj("OauthTokenResponse"), headers, False)

    def oauth_revoke(self, body: Any, headers: Optional[Dict[str, str]] = None) -> ApiResponse[None]:
        """POST /oauth/revoke: Revoke a token and its whole grant (RFC 7009); an unknown token is answered alike"""
        return self._call("POST", "/oauth/revoke", {}, body, _none, headers, False)

    def check_o_auth_authorization(self, *, response_type: Optional[str] = None, client_id: Optional[str] = None, redirect_uri: Optional[str] = None, scope: Optional[str] = None, state: Optional[str] = None, code_challenge: Optional[str] = None, code_challenge_method: Optional[str] = None, headers: Optional[Dict[str, str]] = None) -> ApiResponse[Union[CheckOAuthAuthorizationResponse1, CheckOAuthAuthorizationResponse2]]:
        """GET /api/oauth/authorize: Check an authorization request for the consent page: the client and the scopes asked"""
        return self._call("GET", "/api/oauth/authorize", {"response_type": response_type, "client_id": client_id, "redirect_uri": redirect_uri, "scope": scope, "state": state, "code_challenge": code_challenge, "code_challenge_method": code_challenge_method}, None, _any, headers, False)

    def decide_o_auth_authorization(self, body: Any, headers: Optional[Dict[str, str]] = None) -> ApiResponse[DecideOAuthAuthorizationResponse]:
        """POST /api/oauth/authorize: Allow (issues a code) or deny an authorization request; answers where to redirect"""
        return self._call("POST", "/api/oauth/authorize", {}, body, _obj("DecideOAuthAuthorizationResponse"), headers, False)

    def list_o_auth_clients(self, headers: Optional[Dict[str, str]] = None) -> ApiResponse[ListOAuthClientsResponse]:
        """GET /api/oauth/clients: The OAuth clients this account registered (never their secrets)"""
        return self._call("GET", "/api/oauth/clients", {}, None, _obj("ListOAuthClientsResponse"), headers, False)

    def create_o_auth_client(self, body: Any, headers: Optional[Dict[str, str]] = None) -> ApiResponse[CreateOAuthClientResponse201]:
        """POST /api/oauth/clients: Register an OAuth client; a confidential client’s secret is in this response only"""
        return self._call("POST", "/api/oauth/clients", {}, body, _obj("CreateOAuthClientResponse201"), headers, False)

    def delete_o_auth_client(self, id: str, headers: Optional[Dict[str, str]] = None) -> ApiResponse[None]:
        """DELETE /api/oauth/clients/{id}: Delete a client this account registered; every token issued to it is revoked"""
        return self._call("DELETE", _path("/api/oauth/clients/{id}", {"id": id}), {}, None, _none, headers, False)

    def list_o_auth_grants(self, headers: Optional[Dict[str, str]] = None) -> ApiResponse[ListOAuthGrantsResponse]:
        """GET /api/oauth/grants: The apps this account authorized, with the scopes each holds"""
        return self._call("GET", "/api/oauth/grants", {}, None, _obj("ListOAuthGrantsResponse"), headers, False)

    def revoke_o_auth_grant(self, id: str, headers: Optional[Dict[str, str]] = None) -> ApiResponse[None]:
        """DELETE /api/oauth/grants/{id}: Withdraw an app’s access: its access and refresh tokens are revoked at once"""
        return self._call("DELETE", _path("/api/oauth/grants/{id}", {"id": id}), {}, None, _none, headers, False)

    def get_market_data(self, *, symbols: Optional[str] = None, quote: Optional[str] = None, limit: Optional[int] = None, cursor: Optional[str] = None, notional: Optional[float] = None, strict: Optional[bool] = None, headers: Optional[Dict[str, str]] = None) -> ApiResponse[GetMarketDataResponse]:
        """GET /api/market-data: Merged market view per symbol: price, 24 h statistics, depth, slippage and venues; a page of symbols at a time"""
        return self._call("GET", "/api/market-data", {"symbols": symbols, "quote": quote, "limit": limit, "cursor": cursor, "notional": notional, "strict": strict}, None, _obj("GetMarketDataResponse"), headers, False)

    def get_market_history(self, *, symbol: Optional[str] = None, interval: Optional[str] = None, from_: Optional[str] = None, to: Optional[str] = None, limit: Optional[int] = None, cursor: Optional[str] = None, strict: Optional[bool] = None, headers: Optional[Dict[str, str]] = None) -> ApiResponse[GetMarketHistoryResponse]:
        """GET /api/market-history: OHLCV candles, oldest first, with a cursor to the next page"""
        return self._call("GET", "/api/market-history", {"symbol": symbol, "interval": interval, "from": from_, "to": to, "limit": limit, "cursor": cursor, "strict": strict}, None, _obj("GetMarketHistoryResponse"), headers, False)

    def get_derivatives(self, *, symbols: Optional[str] = None, strict: Optional[bool] = None, headers: Optional[Dict[str, str]] = None) -> ApiResponse[GetDerivativesResponse]:
        """GET /api/derivatives: Perpetual futures per symbol: funding now and predicted, open interest with its 24 h change, basis, liquidations over 1 h and 24 h, per venue"""
        return self._call("GET", "/api/derivatives", {"symbols": symbols, "strict": strict}, None, _obj("GetDerivativesResponse"), headers, False)

    def get_derivatives_history(self, *, symbol: Optional[str] = None, metric: Optional[Union[Literal["funding"], Literal["open_interest"], Literal["basis"], Literal["liquidations"]]] = None, interval: Optional[str] = None, from_: Optional[str] = None, to: Optional[str] = None, limit: Optional[int] = None, cursor: Optional[str] = None, strict: Optional[bool] = None, headers: Optional[Dict[str, str]] = None) -> ApiResponse[GetDerivativesHistoryResponse]:
        """GET /api/derivatives/history: A derivatives series (funding, open interest, basis or liquidations) per interval, oldest first, with a cursor"""
        return self._call("GET", "/api/derivatives/history", {"symbol": symbol, "metric": metric, "interval": interval, "from": from_, "to": to, "limit": limit, "cursor": cursor, "strict": strict}, None, _obj("GetDerivativesHistoryResponse"), headers, False)

    def list_onchain_flows(self, *, exchange: Optional[str] = None, limit: Optional[int] = None, asset: Optional[str] = None, chain: Optional[str] = None, direction: Optional[Literal["deposit", "withdrawal", "internal"]] = None, min_usd: Optional[float] = None, cursor: Optional[str] = None, headers: Optional[Dict[str, str]] = None) -> ApiResponse[ListOnchainFlowsResponse]:
        """GET /api/onchain/flows: Recent exchange deposits and withdrawals with 1 h / 24 h USD totals"""
        return self._call("GET", "/api/onchain/flows", {"exchange": exchange, "limit": limit, "asset": asset, "chain": chain, "direction": direction, "minUsd": min_usd, "cursor": cursor}, None, _obj("ListOnchainFlowsResponse"), headers, False)

    def get_onchain_netflow(self, *, exchange: Optional[str] = None, asset: Optional[str] = None, chain: Optional[str] = None, interval: Optional[Literal["1h", "1d"]] = None, from_: Optional[str] = None, to: Optional[str] = None, headers: Optional[Dict[str, str]] = None) -> ApiResponse[GetOnchainNetflowResponse]:
        """GET /api/onchain/netflow: Exchange inflow, outflow and netflow per hour or day, from the stored flows"""
        return self._call("GET", "/api/onchain/netflow", {"exchange": exchange, "asset": asset, "chain": chain, "interval": interval, "from": from_, "to": to}, None, _obj("GetOnchainNetflowResponse"), headers, False)

    def list_onchain_exchanges(self, headers: Optional[Dict[str, str]] = None) -> ApiResponse[ListOnchainExchangesResponse]:
        """GET /api/onchain/exchanges: Exchanges and chains the address book covers, with address counts and label sources"""
        return self._call("GET", "/api/onchain/exchanges", {}, None, _obj("ListOnchainExchangesResponse"), headers, False)

    def save_label(self, body: Any, headers: Optional[Dict[str, str]] = None) -> ApiResponse[PrivateLabel]:
        """POST /api/labels: Label an address for this account only (201 new; 200 replaced its label on that chain)"""
        return self._call("POST", "/api/labels", {}, body, _obj("PrivateLabel"), headers, False)

    def list_labels(self, *, chain: Optional[str] = None, kind: Optional[Literal["exchange", "fund", "wallet"]] = None, limit: Optional[int] = None, cursor: Optional[str] = None, headers: Optional[Dict[str, str]] = None) -> ApiResponse[ListLabelsResponse]:
        """GET /api/labels: The account's private labels, newest first"""
        return self._call("GET", "/api/labels", {"chain": chain, "kind": kind, "limit": limit, "cursor": cursor}, None, _obj("ListLabelsResponse"), headers, False)

    def delete_label(self, id: str, headers: Optional[Dict[str, str]] = None) -> ApiResponse[None]:
        """DELETE /api/labels/{id}: Delete a private label (alert rules made on it keep watching its address)"""
        return self._call("DELETE", _path("/api/labels/{id}", {"id": id}), {}, None, _none, headers, False)

    def list_predictions(self, *, symbol: Optional[str] = None, horizon: Optional[str] = None, granularity: Optional[str] = None, limit: Optional[int] = None, from_: Optional[str] = None, to: Optional[str] = None, include: Optional[str] = None, strict: Optional[bool] = None, headers: Optional[Dict[str, str]] = None) -> ApiResponse[ListPredictionsResponse]:
        """GET /api/predictions: Forecast datapoints for one symbol and horizon, oldest first"""
        return self._call("GET", "/api/predictions", {"symbol": symbol, "horizon": horizon, "granularity": granularity, "limit": limit, "from": from_, "to": to, "include": include, "strict": strict}, None, _obj("ListPredictionsResponse"), headers, False)

    def get_ai_outlook(self, *, symbol: Optional[str] = None, symbols: Optional[str] = None, strict: Optional[bool] = None, headers: Optional[Dict[str, str]] = None) -> ApiResponse[Union[GetAiOutlookResponse1, OutlookBatch]]:
        """GET /api/predictions/ai-outlook: Aggregated outlook: bias, score, confidence, per-horizon view and drivers — market-wide, of one symbol, or of up to 25 symbols at once (symbols=…)"""
        return self._call("GET", "/api/predictions/ai-outlook", {"symbol": symbol, "symbols": symbols, "strict": strict}, None, _any, headers, False)

    def get_level_probabilities(self, *, symbol: Optional[str] = None, horizon: Optional[str] = None, levels: Optional[str] = None, strict: Optional[bool] = None, headers: Optional[Dict[str, str]] = None) -> ApiResponse[LevelProbabilities]:
        """GET /api/predictions/probability: Probability that the price ends above each level at the horizon, and that it touches it before, from the newest forecast"""
        return self._call("GET", "/api/predictions/probability", {"symbol": symbol, "horizon": horizon, "levels": levels, "strict": strict}, None, _obj("LevelProbabilities"), headers, False)

    def get_prediction_performance(self, headers: Optional[Dict[str, str]] = None) -> ApiResponse[GetPredictionPerformanceResponse]:
        """GET /api/predictions/performance: Scored track record per symbol and horizon"""
        return self._call("GET", "/api/predictions/performance", {}, None, _obj("GetPredictionPerformanceResponse"), headers, False)

    def list_prediction_ledger(self, *, symbol: Optional[str] = None, from_: Optional[str] = None, to: Optional[str] = None, limit: Optional[int] = None, cursor: Optional[str] = None, strict: Optional[bool] = None, headers: Optional[Dict[str, str]] = None) -> ApiResponse[ListPredictionLedgerResponse]:
        """GET /api/predictions/ledger: The forecast ledger: every published datapoint as a SHA-256 hash-chained entry, oldest first, with a cursor to the next page"""
        return self._call("GET", "/api/predictions/ledger", {"symbol": symbol, "from": from_, "to": to, "limit": limit, "cursor": cursor, "strict": strict}, None, _obj("ListPredictionLedgerResponse"), headers, False)

    def import_portfolio(self, body: Any, *, dry_run: Optional[bool] = None, headers: Optional[Dict[str, str]] = None) -> ApiResponse[PortfolioImportResult]:
        """POST /api/portfolio/import: Import up to 200 portfolio rows (JSON or CSV), all or nothing"""
        return self._call("POST", "/api/portfolio/import", {"dryRun": dry_run}, body, _obj("PortfolioImportResult"), headers, True)

    def get_portfolio(self, headers: Optional[Dict[str, str]] = None) -> ApiResponse[Portfolio]:
        """GET /api/portfolio: Holdings per asset at the merged market price: value, cost, unrealized P&L, allocation, 24 h change"""
        return self._call("GET", "/api/portfolio", {}, None, _obj("Portfolio"), headers, False)

    def delete_portfolio(self, headers: Optional[Dict[str, str]] = None) -> ApiResponse[DeletePortfolioResponse]:
        """DELETE /api/portfolio: Reset: delete every row of the account (the import history is kept)"""
        return self._call("DELETE", "/api/portfolio", {}, None, _obj("DeletePortfolioResponse"), headers, False)

    def list_portfolio_rows(self, headers: Optional[Dict[str, str]] = None) -> ApiResponse[ListPortfolioRowsResponse]:
        """GET /api/portfolio/rows: Every stored row, exactly as imported (decimals as strings): an export"""
        return self._call("GET", "/api/portfolio/rows", {}, None, _obj("ListPortfolioRowsResponse"), headers, False)

    def list_portfolio_imports(self, *, limit: Optional[int] = None, headers: Optional[Dict[str, str]] = None) -> ApiResponse[ListPortfolioImportsResponse]:
        """GET /api/portfolio/imports: Import history, newest first"""
        return self._call("GET", "/api/portfolio/imports", {"limit": limit}, None, _obj("ListPortfolioImportsResponse"), headers, False)

    def delete_portfolio_row(self, id: str, headers: Optional[Dict[str, str]] = None) -> ApiResponse[None]:
        """DELETE /api/portfolio/rows/{id}: Delete one row"""
        return self._call("DELETE", _path("/api/portfolio/rows/{id}", {"id": id}), {}, None, _none, headers, False)

    def get_dashboard_analytics(self, headers: Optional[Dict[str, str]] = None) -> ApiResponse[DashboardAnalytics]:
        """GET /api/dashboard/analytics: Portfolio value and P&L, alerts, API usage (24 h) and the forecast track record"""
        return self._call("GET", "/api/dashboard/analytics", {}, None, _obj("DashboardAnalytics"), headers, False)

    def get_account_usage(self, headers: Optional[Dict[str, str]] = None) -> ApiResponse[AccountUsage]:
        """GET /api/account/usage: Quota now (used, remaining, reset) and requests and 429s by endpoint and by client: current window, 24 h, 30 days"""
        return self._call("GET", "/api/account/usage", {}, None, _obj("AccountUsage"), headers, False)

    def create_alert_rule(self, body: Any, headers: Optional[Dict[str, str]] = None) -> ApiResponse[AlertRule]:
        """POST /api/alerts: Create an alert rule (price, volume, address_flow, funding, open_interest or liquidations)"""
        return self._call("POST", "/api/alerts", {}, body, _obj("AlertRule"), headers, False)

    def list_alert_rules(self, *, state: Optional[Literal["active", "paused", "triggered", "expired", "failing", "capped"]] = None, type: Optional[Literal["price", "volume", "address_flow", "funding", "open_interest", "liquidations", "probability"]] = None, limit: Optional[int] = None, cursor: Optional[str] = None, headers: Optional[Dict[str, str]] = None) -> ApiResponse[ListAlertRulesResponse]:
        """GET /api/alerts: The account's alert rules, newest first"""
        return self._call("GET", "/api/alerts", {"state": state, "type": type, "limit": limit, "cursor": cursor}, None, _obj("ListAlertRulesResponse"), headers, False)

    def backtest_alert_rule(self, body: Any, *, days: Optional[int] = None, from_: Optional[str] = None, to: Optional[str] = None, headers: Optional[Dict[str, str]] = None) -> ApiResponse[AlertBacktest]:
        """POST /api/alerts/backtest: Every time a rule (not saved) would have fired over a past window, replayed from stored candles or flows"""
        return self._call("POST", "/api/alerts/backtest", {"days": days, "from": from_, "to": to}, body, _obj("AlertBacktest"), headers, False)

    def get_alert_rule(self, id: str, headers: Optional[Dict[str, str]] = None) -> ApiResponse[AlertRule]:
        """GET /api/alerts/{id}: One alert rule"""
        return self._call("GET", _path("/api/alerts/{id}", {"id": id}), {}, None, _obj("AlertRule"), headers, False)

    def update_alert_rule(self, id: str, body: Any, headers: Optional[Dict[str, str]] = None) -> ApiResponse[AlertRule]:
        """PATCH /api/alerts/{id}: Edit a rule; state active/paused resumes or pauses it (a condition edit resets its crossing side)"""
        return self._call("PATCH", _path("/api/alerts/{id}", {"id": id}), {}, body, _obj("AlertRule"), headers, False)

    def delete_alert_rule(self, id: str, headers: Optional[Dict[str, str]] = None) -> ApiResponse[None]:
        """DELETE /api/alerts/{id}: Delete a rule (its past events stay in the event log)"""
        return self._call("DELETE", _path("/api/alerts/{id}", {"id": id}), {}, None, _none, headers, False)

    def test_alert_rule(self, id: str, headers: Optional[Dict[str, str]] = None) -> ApiResponse[TestAlertRuleResponse202]:
        """POST /api/alerts/{id}/test: Append a test event (test: true) for the rule, delivered like a real one"""
        return self._call("POST", _path("/api/alerts/{id}/test", {"id": id}), {}, None, _obj("TestAlertRuleResponse202"), headers, False)

    def create_webhook(self, body: Any, headers: Optional[Dict[str, str]] = None) -> ApiResponse[CreateWebhookResponse201]:
        """POST /api/webhooks: Register a webhook endpoint; the answer holds its signing secret, shown once"""
        return self._call("POST", "/api/webhooks", {}, body, _obj("CreateWebhookResponse201"), headers, False)

    def list_webhooks(self, headers: Optional[Dict[str, str]] = None) -> ApiResponse[ListWebhooksResponse]:
        """GET /api/webhooks: The account's webhook endpoints (never their secrets)"""
        return self._call("GET", "/api/webhooks", {}, None, _obj("ListWebhooksResponse"), headers, False)

    def get_webhook(self, id: str, headers: Optional[Dict[str, str]] = None) -> ApiResponse[Webhook]:
        """GET /api/webhooks/{id}: One webhook endpoint"""
        return self._call("GET", _path("/api/webhooks/{id}", {"id": id}), {}, None, _obj("Webhook"), headers, False)

    def delete_webhook(self, id: str, headers: Optional[Dict[str, str]] = None) -> ApiResponse[None]:
        """DELETE /api/webhooks/{id}: Delete a webhook endpoint; its pending deliveries are dropped"""
        return self._call("DELETE", _path("/api/webhooks/{id}", {"id": id}), {}, None, _none, headers, False)

    def rotate_webhook_secret(self, id: str, headers: Optional[Dict[str, str]] = None) -> ApiResponse[RotateWebhookSecretResponse]:
        """POST /api/webhooks/{id}/rotate: New signing secret (shown once); the previous one keeps signing for 24 h"""
        return self._call("POST", _path("/api/webhooks/{id}/rotate", {"id": id}), {}, None, _obj("RotateWebhookSecretResponse"), headers, False)

    def list_webhook_deliveries(self, id: str, *, limit: Optional[int] = None, cursor: Optional[str] = None, headers: Optional[Dict[str, str]] = None) -> ApiResponse[ListWebhookDeliveriesResponse]:
        """GET /api/webhooks/{id}/deliveries: A webhook's deliveries, newest first, each with every attempt"""
        return self._call("GET", _path("/api/webhooks/{id}/deliveries", {"id": id}), {"limit": limit, "cursor": cursor}, None, _obj("ListWebhookDeliveriesResponse"), headers, False)

    def list_alert_deliveries(self, id: str, *, limit: Optional[int] = None, cursor: Optional[str] = None, headers: Optional[Dict[str, str]] = None) -> ApiResponse[ListAlertDeliveriesResponse]:
        """GET /api/alerts/{id}/deliveries: An alert rule's webhook deliveries, newest first, each with every attempt"""
        return self._call("GET", _path("/api/alerts/{id}/deliveries", {"id": id}), {"limit": limit, "cursor": cursor}, None, _obj("ListAlertDeliveriesResponse"), headers, False)

    def create_alert_channel(self, body: Any, headers: Optional[Dict[str, str]] = None) -> ApiResponse[AlertChannel]:
        """POST /api/alert-channels: Add an alert channel; an email address is sent a code to confirm (status unverified until then)"""
        return self._call("POST", "/api/alert-channels", {}, body, _obj("AlertChannel"), headers, False)

    def list_alert_channels(self, headers: Optional[Dict[str, str]] = None) -> ApiResponse[ListAlertChannelsResponse]:
        """GET /api/alert-channels: The account's alert channels (never their credentials)"""
        return self._call("GET", "/api/alert-channels", {}, None, _obj("ListAlertChannelsResponse"), headers, False)

    def preview_alert_template(self, body: Any, headers: Optional[Dict[str, str]] = None) -> ApiResponse[AlertTemplatePreview]:
        """POST /api/alert-channels/preview: Render a message template for every channel as the rule being edited would send it (nothing is sent)"""
        return self._call("POST", "/api/alert-channels/preview", {}, body, _obj("AlertTemplatePreview"), headers, False)

    def get_alert_channel(self, id: str, headers: Optional[Dict[str, str]] = None) -> ApiResponse[AlertChannel]:
        """GET /api/alert-channels/{id}: One alert channel"""
        return self._call("GET", _path("/api/alert-channels/{id}", {"id": id}), {}, None, _obj("AlertChannel"), headers, False)

    def delete_alert_channel(self, id: str, headers: Optional[Dict[str, str]] = None) -> ApiResponse[None]:
        """DELETE /api/alert-channels/{id}: Delete an alert channel; its pending deliveries are dropped"""
        return self._call("DELETE", _path("/api/alert-channels/{id}", {"id": id}), {}, None, _none, headers, False)

    def verify_alert_channel(self, id: str, body: Any, headers: Optional[Dict[str, str]] = None) -> ApiResponse[AlertChannel]:
        """POST /api/alert-channels/{id}/verify: Confirm an email channel with the code it received (5 tries, 24 h)"""
        return self._call("POST", _path("/api/alert-channels/{id}/verify", {"id": id}), {}, body, _obj("AlertChannel"), headers, False)

    def test_alert_channel(self, id: str, headers: Optional[Dict[str, str]] = None) -> ApiResponse[WebhookDelivery]:
        """POST /api/alert-channels/{id}/test: Send the channel one test message through the delivery outbox (202 with its delivery, pending; 10 per channel per hour)"""
        return self._call("POST", _path("/api/alert-channels/{id}/test", {"id": id}), {}, None, _obj("WebhookDelivery"), headers, False)

    def list_alert_channel_deliveries(self, id: str, *, limit: Optional[int] = None, cursor: Optional[str] = None, headers: Optional[Dict[str, str]] = None) -> ApiResponse[ListAlertChannelDeliveriesResponse]:
        """GET /api/alert-channels/{id}/deliveries: An alert channel's deliveries (its rules' messages and its test messages), newest first, each with every attempt"""
        return self._call("GET", _path("/api/alert-channels/{id}/deliveries", {"id": id}), {"limit": limit, "cursor": cursor}, None, _obj("ListAlertChannelDeliveriesResponse"), headers, False)
