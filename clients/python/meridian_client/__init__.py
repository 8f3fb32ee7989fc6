"""Meridian API client: REST on the standard library, push channels on `websockets` where installed."""

from ._generated import *  # noqa: F401,F403 - the generated models are the package's types
from ._model import ApiResponse, RateLimit
from .client import MeridianClient, MeridianProblemError, RetryPolicy, parse_rate_limit

__all__ = ["ApiResponse", "MeridianClient", "MeridianProblemError", "RateLimit", "RetryPolicy", "parse_rate_limit"]
__version__ = "0.1.0"
