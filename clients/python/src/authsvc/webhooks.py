"""Verifying a webhook delivery: `X-Authsvc-Signature: t=<unix s>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import time
from typing import Any, Dict, Optional, Union

from .errors import WebhookSignatureError

SIGNATURE_HEADER = "X-Authsvc-Signature"
_TIMESTAMP = re.compile(r"(?:^|,)\s*t=(\d+)")
_V1 = re.compile(r"(?:^|,)\s*v1=([0-9a-fA-F]{64})")


def sign_webhook(secret: str, raw_body: Union[bytes, str], timestamp: int) -> str:
    """The header value the service sends for this body at `timestamp` (what a test sender needs)."""
    body = raw_body.encode("utf-8") if isinstance(raw_body, str) else raw_body
    mac = hmac.new(secret.encode("utf-8"), str(timestamp).encode("ascii") + b"." + body, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={mac}"


def verify_webhook(
    secret: str,
    raw_body: Union[bytes, str],
    signature_header: Optional[str],
    tolerance: int = 300,
    now: Optional[float] = None,
) -> Dict[str, Any]:
    """Checks a delivery against its signature and returns the event; raises WebhookSignatureError otherwise.

    Pass the body exactly as received (bytes): re-serialised JSON would not match. A signature more than
    `tolerance` seconds from now is refused, so a recorded delivery cannot be replayed later.
    """
    if not signature_header:
        raise WebhookSignatureError(f"missing {SIGNATURE_HEADER} header")
    t = _TIMESTAMP.search(signature_header)
    # Every v1 value counts: during a secret rotation a sender may sign with both.
    given = [m.group(1).lower() for m in _V1.finditer(signature_header)]
    if t is None or not given:
        raise WebhookSignatureError(f"malformed {SIGNATURE_HEADER} header")
    timestamp = int(t.group(1))
    current = time.time() if now is None else now
    if abs(current - timestamp) > tolerance:
        raise WebhookSignatureError(f"signature timestamp is more than {tolerance} s away from now")
    expected = sign_webhook(secret, raw_body, timestamp).split("v1=", 1)[1]
    if not any(hmac.compare_digest(expected, candidate) for candidate in given):
        raise WebhookSignatureError("signature does not match the body")
    body = raw_body.decode("utf-8") if isinstance(raw_body, bytes) else raw_body
    try:
        event = json.loads(body)
    except ValueError:
        raise WebhookSignatureError("signed body is not JSON") from None
    if not isinstance(event, dict):
        raise WebhookSignatureError("signed body is not a JSON object")
    return event
