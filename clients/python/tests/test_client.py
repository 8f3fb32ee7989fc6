"""Against a running server: MERIDIAN_TEST_URL / MERIDIAN_TEST_TOKEN (a member's token), and
MERIDIAN_TEST_LIMITED_URL / MERIDIAN_TEST_LIMITED_TOKEN (a server whose limit is 3 requests a minute).
Run by test/sdk/python-client.test.ts, which starts both servers."""

import asyncio
import os
import sys
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from meridian_client import (  # noqa: E402
    GetMarketHistoryResponse,
    MeridianClient,
    MeridianProblemError,
    PredictionDatapoint,
    RetryPolicy,
)

URL = os.environ.get("MERIDIAN_TEST_URL", "")
TOKEN = os.environ.get("MERIDIAN_TEST_TOKEN", "")


@unittest.skipUnless(URL, "MERIDIAN_TEST_URL is not set")
class ReadEndpoints(unittest.TestCase):
    def setUp(self) -> None:
        self.client = MeridianClient(URL, token=TOKEN)

    def test_every_read_endpoint_typed_with_its_rate_limit(self) -> None:
        c = self.client
        market = c.get_market_data(symbols="BTCUSDT")
        self.assertEqual(market.data.data[0].symbol, "BTCUSDT")
        self.assertIsInstance(market.data.data[0].price, float)
        self.assertEqual(market.rate_limit.limit, 120)
        self.assertLess(market.rate_limit.remaining, 120)
        self.assertGreater(market.rate_limit.reset_at, time.time() - 1)
        self.assertEqual(market.headers["meridian-source"], "simulated")

        history = c.get_market_history(symbol="ETHUSDT", interval="1h", limit=3)
        self.assertIsInstance(history.data, GetMarketHistoryResponse)
        self.assertEqual(len(history.data.data), 3)
        self.assertIsInstance(history.data.data[0].close, float)
        self.assertIsInstance(history.data.history.backfilling, bool)

        predictions = c.list_predictions(symbol="BTCUSDT")
        self.assertIsInstance(predictions.data.data[-1], PredictionDatapoint)
        self.assertEqual(predictions.data.data[-1].horizon, "1h")
        self.assertIsInstance(predictions.data.data[-1].factors.ai_residual, float)

        outlook = c.get_ai_outlook(symbol="BTCUSDT")
        self.assertEqual(outlook.status, 200)
        self.assertIsInstance(c.get_prediction_performance().data.data, list)
        self.assertIsInstance(c.list_onchain_flows().data.data, list)
        account = c.get_account().data
        self.assertEqual(account.role, "member")
        self.assertIn("market:read", account.permissions)
        self.assertEqual(c.get_portfolio().data.holdings, [])
        self.assertEqual(c.list_portfolio_rows().data.data, [])
        self.assertEqual(c.list_portfolio_imports().data.data, [])
        self.assertIsNotNone(c.get_dashboard_analytics().data.usage)
        self.assertEqual(c.list_alert_rules().data.data, [])
        self.assertEqual(c.list_webhooks().data.data, [])
        self.assertEqual(c.last_rate_limit.limit, 120)

    def test_history_to_records_for_pandas(self) -> None:
        page = self.client.get_market_history(symbol="BTCUSDT", interval="1h", limit=5).data
        records = page.to_records()
        self.assertEqual(len(records), 5)
        self.assertEqual(set(records[0]) >= {"openTime", "open", "high", "low", "close", "volume"}, True)
        self.assertEqual(records[0]["close"], page.data[0].close)

    def test_problems_are_exceptions_with_their_fields(self) -> None:
        with self.assertRaises(MeridianProblemError) as caught:
            self.client.get_market_history(symbol="NOPEUSDT", strict=True)
        problem = caught.exception
        self.assertEqual(problem.status, 400)
        self.assertEqual(problem.code, "unsupported_symbol")
        self.assertEqual(problem.type, "/problems/unsupported_symbol")
        self.assertIn("NOPEUSDT", problem.detail)
        self.assertIsNotNone(problem.rate_limit)
        with self.assertRaises(MeridianProblemError) as missing:
            self.client.get_alert_rule("alr_nope")
        self.assertEqual((missing.exception.status, missing.exception.code), (404, "not_found"))
        with self.assertRaises(MeridianProblemError) as anonymous:
            MeridianClient(URL).get_account()
        self.assertEqual(anonymous.exception.status, 401)

    def test_a_misspelled_query_key_is_a_type_error_before_any_request(self) -> None:
        with self.assertRaises(TypeError):
            self.client.list_predictions(symbol="BTCUSDT", horizn="1h")  # type: ignore[call-arg]

    def test_writes_round_trip(self) -> None:
        rule = self.client.create_alert_rule(
            {"type": "price", "name": "py", "symbol": "BTCUSDT", "condition": {"op": "above", "value": 1e9}}
        ).data
        self.assertTrue(rule.id.startswith("alr_"))
        self.assertEqual(self.client.get_alert_rule(rule.id).data.name, "py")
        self.client.delete_alert_rule(rule.id)
        imported = self.client.import_portfolio("asset,quantity\nBTC,0.5\n", headers={"idempotency-key": "py-1"})
        self.assertEqual(imported.status, 201)
        again = self.client.import_portfolio("asset,quantity\nBTC,0.5\n", headers={"idempotency-key": "py-1"})
        self.assertEqual(again.data.to_dict(), imported.data.to_dict())
        self.client.delete_portfolio()


LIMITED_URL = os.environ.get("MERIDIAN_TEST_LIMITED_URL", "")
LIMITED_TOKEN = os.environ.get("MERIDIAN_TEST_LIMITED_TOKEN", "")


@unittest.skipUnless(LIMITED_URL, "MERIDIAN_TEST_LIMITED_URL is not set")
class RateLimited(unittest.TestCase):
    def test_429_carries_the_reset_and_the_opt_in_retry_waits_for_it(self) -> None:
        client = MeridianClient(LIMITED_URL, token=LIMITED_TOKEN)
        for _ in range(3):
            client.get_account()
        with self.assertRaises(MeridianProblemError) as caught:
            client.get_account()
        problem = caught.exception
        self.assertEqual((problem.status, problem.code), (429, "rate_limited"))
        self.assertGreater(problem.retry_after_seconds, 0)
        self.assertEqual(problem.rate_limit.remaining, 0)
        waits = []

        def sleep(seconds: float) -> None:
            waits.append(seconds)
            time.sleep(seconds)

        patient = MeridianClient(LIMITED_URL, token=LIMITED_TOKEN, retry_on_429=RetryPolicy(max_wait_seconds=61), sleep=sleep)
        self.assertEqual(patient.get_account().status, 200)
        self.assertEqual(len(waits), 1)
        self.assertGreater(waits[0], 0)


def _websockets_missing() -> bool:
    try:
        import websockets  # noqa: F401

        return False
    except ImportError:
        return True


@unittest.skipUnless(URL, "MERIDIAN_TEST_URL is not set")
@unittest.skipIf(_websockets_missing(), "the websockets package is not installed")
class Push(unittest.TestCase):
    def test_market_snapshots_for_the_subscribed_symbols(self) -> None:
        from meridian_client.push import PushClient

        async def first_snapshot() -> dict:
            stream = PushClient(URL, TOKEN).market(symbols=["ETHUSDT"])
            try:
                return await asyncio.wait_for(stream.__anext__(), 20)
            finally:
                await stream.aclose()

        snapshot = asyncio.run(first_snapshot())
        self.assertEqual(snapshot["source"], "simulated")
        self.assertEqual([item["symbol"] for item in snapshot["data"]], ["ETHUSDT"])
        self.assertGreater(snapshot["data"][0]["price"], 0)

    def test_revoked_credentials_end_the_stream(self) -> None:
        from meridian_client.push import PushClient, PushClosedError

        async def refused() -> None:
            stream = PushClient(URL, "mrd_not_a_token", initial_delay=0.01).market()
            await asyncio.wait_for(stream.__anext__(), 20)

        with self.assertRaises(PushClosedError) as caught:
            asyncio.run(refused())
        self.assertEqual(caught.exception.code, 401)


if __name__ == "__main__":
    unittest.main()
